/* scan.h: reading the device code the codegen benchmark compares, shared by
 * bench_codegen.c and vector_align_scan.c.
 *
 * Readers of text a tool printed (PTX, `ptxas -v`, `llvm-readelf --notes`,
 * `llvm-objdump -d`) and of cubin ELF files, each giving per-kernel figures,
 * and the two alignment scanners: PTX (precise: accesses are traced back to
 * the arrays they address) and AMD disassembly (a weaker offset check).
 *
 * Ownership: every array a reader returns through `out` is malloc'ed and
 * belongs to the caller (free it); NULL with a count of 0 when there is
 * nothing. A reader returns the number of elements, or -1 when it cannot
 * read its file (and says so on stderr). */
#ifndef GPUCC_BENCH_SCAN_H
#define GPUCC_BENCH_SCAN_H

#include <stdio.h>

#define SCAN_NAME_MAX 128

/* ---- PTX: per-entry instruction classes ---------------------------------- */

enum ptx_class {
  PTX_INSNS,         /* every instruction */
  PTX_FMA,           /* fma.* */
  PTX_RN,            /* add.rn / sub.rn / mul.rn: ptxas may not fuse them */
  PTX_LD_GLOBAL,     /* ld.global.* but .nc */
  PTX_LD_GLOBAL_NC,  /* ld.global.nc.* */
  PTX_LD_SHARED,     /* scalar ld.shared.* */
  PTX_LD_SHARED_VEC, /* ld.shared.v2 / .v4 / .v8 */
  PTX_CVTA,          /* cvta.* */
  PTX_NCLASS
};
extern const char *const ptx_class_names[PTX_NCLASS];

struct ptx_entry {
  char name[SCAN_NAME_MAX];
  int params;                 /* .param in the entry's parameter list */
  int maxntid[3], reqntid[3]; /* all 0 where the directive is absent */
  int count[PTX_NCLASS];
};

/* Every .entry of the PTX file at `path`. */
int ptx_entries(const char *path, struct ptx_entry **out);

/* The alignment scan of one PTX file: each ld/st is traced, through the
 * registers that carry addresses (mov, add, sub, mad, or, selp, cvt, cvta),
 * to the .shared/.global arrays and kernel parameters it may address. A
 * finding is an access wider than the .align of an array it addresses (or
 * than the .ptr .align of a parameter, where that says more than 1), an
 * access at a constant offset that is not a multiple of its width, and a
 * .shared access traced to no array in a function that sees a .shared array
 * aligned below its width. One line per finding on `report` ("path:line:
 * function: what"); returns the number of findings, -1 when unreadable.
 * *accesses, when not NULL, gets the number of vector .shared/.global
 * accesses checked (a scan that checked none proves nothing). */
int ptx_align_scan(const char *path, FILE *report, int *accesses);

/* ---- ptxas -v ------------------------------------------------------------- */

struct ptxas_info {
  char name[SCAN_NAME_MAX];
  int registers;
  int spill_stores, spill_loads, stack; /* bytes */
};

/* The per-function lines of the `ptxas -v` output in the file at `path`. */
int ptxas_infos(const char *path, struct ptxas_info **out);

/* ---- cubin ---------------------------------------------------------------- */

struct sass_text {
  char name[SCAN_NAME_MAX]; /* the kernel: the section is .text.<name> */
  long bytes;               /* the section's size */
  long code_bytes;          /* without the NOPs that pad it at its end */
};

/* The .text.<kernel> sections of the cubin (ELF64) at `path`. */
int cubin_texts(const char *path, struct sass_text **out);

/* ---- AMD code objects ----------------------------------------------------- */

struct amd_kernel {
  char name[SCAN_NAME_MAX];
  long vgpr, agpr, sgpr, vgpr_spill, sgpr_spill;
  long scratch;        /* .private_segment_fixed_size, bytes per lane */
  long group;          /* .group_segment_fixed_size, bytes */
  long max_flat;       /* .max_flat_workgroup_size */
  int insns;           /* set by amd_insns: -1 until then */
};

/* The kernels of the `llvm-readelf --notes` output of an hsaco in the file
 * at `path` (the amdhsa.kernels metadata). */
int amd_notes(const char *path, struct amd_kernel **out);

/* Sets insns of each of the n kernels from the `llvm-objdump -d` output in
 * the file at `path`: the instructions of its symbol up to its last
 * s_endpgm (what follows is padding). Returns 0, -1 when unreadable. */
int amd_insns(const char *path, struct amd_kernel *k, int n);

/* The AMD alignment scan of an `llvm-objdump -d` output: a 64- or 128-bit
 * LDS access (ds_read/ds_write/ds_load/ds_store _b64/_b128) whose constant
 * offset is not a multiple of its width is a finding. The LDS layout is
 * folded into those offsets, so an array placed at a misaligned offset shows
 * there; a misaligned variable part does not (the PTX scan is the precise
 * one). `label` names the file in the report. Returns the number of
 * findings, -1 when unreadable; *accesses as for ptx_align_scan. */
int amd_align_scan(const char *path, const char *label, FILE *report, int *accesses);

/* ---- running tools -------------------------------------------------------- */

/* Runs argv (argv[0] looked up in PATH when it has no '/') in the directory
 * dir (NULL: this one), standard input from /dev/null, standard output to the file `out` and standard error to
 * `err` (both may be NULL: /dev/null; the same path: both there). Does not
 * wait: returns the pid, or -1 when it could not start (said on stderr). */
int tool_start(const char *dir, char *const argv[], const char *out, const char *err);

/* Waits for pid; returns its exit status, 128 + signal when killed. */
int tool_wait(int pid);

/* tool_start then tool_wait: the exit status, -1 when it did not start. */
int tool_run(const char *dir, char *const argv[], const char *out, const char *err);

/* Whether `path` is an executable file. */
int tool_exists(const char *path);

#endif
