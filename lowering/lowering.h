/* lowering.h: the pass pipelines and code generation.
 *
 * Device side: lowering_device() compiles every gpu.module of a normalized
 * module for one target and writes one file per gpu.module (PTX text for
 * NVIDIA, an hsaco for AMD). ptxas then runs as a separate, spawned job.
 * Host side: lowering_host() swaps each gpu.module for a gpu.binary, lowers
 * the rest to LLVM IR and emits a native object file in-process through the
 * LLVM C API. It does not need the device code: each gpu.binary's bytes are
 * referenced through two external symbols (see lowering_blob_symbol), which
 * lowering_blob_object() defines once the fat binary exists, so host code is
 * generated while the device jobs still run. */
#ifndef GPUCC_LOWERING_H
#define GPUCC_LOWERING_H

#include "targets.h"

#include <stddef.h>

struct program; /* frontend/program.h */

/* -ffp-contract: which floating-point multiplies and adds may fuse into
 * fma (device_contract.c). Device code defaults to FAST, as nvcc and
 * clang's GPU modes; host code to ON, clang's default for C. */
enum fp_contract { FP_CONTRACT_FAST, FP_CONTRACT_ON, FP_CONTRACT_OFF };

/* What, besides the target, changes code: a gpu.module's for one target, or
 * the host code's. */
struct device_codegen {
  int opt;   /* 0-3 */
  int debug; /* line tables */
  enum fp_contract contract;
  /* Per device file (as out_paths): the parts it is also written in
   * (struct target_kind's finish_parts); NULL: all whole. */
  const struct device_parts *parts;
};

/* Where a device file's parts go: n paths (n < 2: none, whole). */
struct device_parts {
  size_t n;
  const char *const *paths;
};

/* Where part i of a file finished in parts goes: "dir/x-sm_90.ptx" ->
 * "dir/x-sm_90.part1.ptx" (before the suffix). A new string. */
char *lowering_part_path(const char *path, size_t i);

/* The tools and libraries the kinds of target found (toolchain_find):
 * each kind's own, of a type private to its file, in its slot. Shared code
 * holds it and hands it to the kinds' hooks (struct target_kind), which
 * read their own slot with toolchain_found; nothing else reads it. */
#define TOOLCHAIN_MAX_KINDS 8
struct toolchain {
  void *found[TOOLCHAIN_MAX_KINDS]; /* by index in target_kinds; NULL: nothing */
};

/* compiler-rt's builtins archive (libclang-rt-22-dev) when installed, else
 * NULL: the helpers LLVM calls that Debian 12's libgcc lacks (bf16
 * conversions, __truncsfbf2), for host kernels and host code alike. */
const char *lowering_builtins_archive(void);

/* Each kind finds its tools (its row's find_tools) from the values of its
 * own options among args (the kinds' options as given, in order), asking
 * tools their version only when one of the targets is of the kind.
 * Missing pieces are not errors here: the kinds say so when a target needs
 * them. Returns 0, or -1 when a kind refused an option's value (reported). */
int toolchain_find(struct toolchain *tc, const struct kind_arg *args, size_t nargs,
                   const struct target *targets, size_t ntargets);

/* What `kind` found (its slot), for the kind's own hooks. */
void *toolchain_found(const struct toolchain *tc, const struct target_kind *kind);

/* For cache keys (struct target_kind's cache_inputs): a file as its real
 * path, size and modification time ("path:missing" when absent, "-" for
 * none); every file of a directory whose name ends in `suffix`, in name
 * order; a program as the spawn would find it along PATH. New strings. */
char *toolchain_file_identity(const char *path);
char *toolchain_dir_identity(const char *dir, const char *suffix);
char *toolchain_program_identity(const char *name);

/* What `argv` (a tool and the option that asks its version) prints, as a
 * new string; NULL when it does not run or prints nothing. For the kinds'
 * version checks and cache keys. */
char *toolchain_tool_output(char *const *argv);

/* Which of a program's gpu.modules one device job compiles: `count` of
 * them from `first`, of `total` in the program. A target's modules may be
 * split over several jobs so that they use every core; each module's
 * object is the same whichever job compiles it. */
struct module_range {
  size_t first, count, total;
};

/* Compiles the gpu.modules in range r of the program (not modified) for
 * one target, as cg says.
 * out_paths[i] receives the device file of gpu.module r->first + i (as
 * program_module_name lists them). Returns 0 or -1 (reported, naming the
 * target). */
int lowering_device(const struct program *prog, const struct target *t, const struct toolchain *tc,
                    const struct device_codegen *cg, const struct module_range *r,
                    const char *const *out_paths);

/* Whether targets a and b are one family for the program: one lowering
 * and optimization of its gpu.modules serves both, each chip's object the
 * same bytes as its own build gives (device_family.c). */
int lowering_same_family(const struct program *prog, const struct target *a, const struct target *b);

/* lowering_device for the nt targets ts of one family (each pair
 * lowering_same_family, nt >= 1): the gpu.modules are lowered and optimized
 * once, for ts[0], and code is generated per chip. out_paths holds
 * r->count paths per target, in the order of ts. */
int lowering_device_family(const struct program *prog, const struct target *const *ts, size_t nt,
                           const struct toolchain *tc, const struct device_codegen *cg,
                           const struct module_range *r, const char *const *out_paths);

/* -v: lowering also says what it could not do the fast way (the host
 * target's kernels that keep running on fibers, and why). Set before the
 * device jobs start. */
void lowering_set_verbose(int on);

/* The symbols that hold gpu.module `module`'s fat binary and its size in a
 * translation unit identified by `tag` (unique per TU, stable across builds):
 * "__gpucc_fatbin.<tag>.<module>" and "__gpucc_fatbin_size.<tag>.<module>". */
void lowering_blob_symbol(char *buf, size_t len, const char *tag, const char *module, int size);

/* Writes an object file defining both symbols for one blob, the bytes in the
 * .gpucc_fatbin section. Returns 0 or -1 (reported). */
int lowering_blob_object(const char *path, const char *tag, const char *module, const void *blob,
                         size_t size);

/* Lowers the host side to LLVM IR and writes a native PIC object to obj_path.
 * The program's module is lowered in place: it is good for nothing else
 * afterwards, so the driver runs this in a child process.
 * A `func.func @main()` without results gets an int main returning 0.
 * tag names the blob symbols (lowering_blob_symbol). cg->debug adds line
 * tables. With mlir_path / ll_path non-NULL, also writes the
 * host module in the LLVM dialect / the LLVM IR text there.
 * Returns 0 or -1 (reported). */
int lowering_host(struct program *prog, const char *tag, const struct device_codegen *cg,
                  const char *obj_path, const char *mlir_path, const char *ll_path);

#endif
