/* program.h: what the driver sees of an MLIR input, with no MLIR type.
 *
 * The driver plans and runs jobs; it never touches MLIR itself. A struct
 * program is one input, parsed, verified and normalized (frontend.h has
 * what that means), with its gpu.modules named; lowering.h takes it as is.
 * The MLIR context behind every program is frontend_init's. */
#ifndef GPUCC_PROGRAM_H
#define GPUCC_PROGRAM_H

#include <stddef.h>
#include <stdint.h>

struct program;

/* Creates the shared context (once per gpucc process). Returns 0 or -1. */
int frontend_init(void);

/* What the command line asks of every program loaded from now on. */
struct program_options {
  int runtime_verification; /* -fsanitize=bounds: MLIR's run-time checks of
                               memref and tensor ops */
  const char *entry;        /* -e: the function programs start in (mlir-runner's
                               spelling); NULL: main */
  const char *entry_result; /* --entry-point-result: what it must return;
                               NULL: whatever it returns */
  int gpu_targets;          /* a GPU target is asked for: launches passing host
                               memory are warned about (it works on the host
                               backend only) */
};
/* Copies o; its strings are kept by reference. */
void program_configure(const struct program_options *o);

/* Parses, verifies and normalizes a file (text or bytecode; "-" reads
 * standard input). Returns 0 with *out set, or -1 after reporting. */
int program_load(const char *path, struct program **out);
/* Whether -e's function is defined in this program (its main runs it). */
int program_has_entry(const struct program *p);

/* Its gpu.modules, in order, by name. */
size_t program_module_count(const struct program *p);
const char *program_module_name(const struct program *p, size_t m);

/* The text of the whole normalized module, or of gpu.module m (with
 * locations when debug_info is set: they end up in the code): what cache
 * keys and blob symbol tags are made of. NUL-terminated, malloc'ed, *len
 * bytes. */
char *program_text(const struct program *p, size_t *len);
char *program_module_text(const struct program *p, size_t m, int debug_info, size_t *len);

/* True when the module defines (not just declares) a top-level function
 * with this name (func.func or llvm.func). */
int program_defines(const struct program *p, const char *name);

/* What one kernel of a gpu.module was written for: the launches its
 * objects accept, which the fat binary's manifest records. */
struct program_kernel {
  const char *name;     /* its symbol name; valid during the call only */
  unsigned block[3];    /* the block shape its gpu.func fixes (known_block_size),
                           or zeros when it fixes none (or not three positive
                           sizes) */
  uint64_t workgroup_bytes; /* its statically shaped workgroup attributions,
                               without padding: what the objects have at least
                               (the lowering may add shared memory of its own) */
};

/* Calls fn once per kernel (gpu.func marked gpu.kernel) of gpu.module m, in
 * order, as the module is after normalizing (outlined gpu.launch bodies
 * included, with the block size outlining fixed when it was constant).
 * Stops at fn's first nonzero return and returns it; else 0. */
int program_each_kernel(const struct program *p, size_t m,
                        int (*fn)(const struct program_kernel *k, void *ud), void *ud);

/* The kinds of op in its device code, for what a target cannot compile:
 * calls fn once per distinct op name inside the gpu.modules and gpu.launch
 * bodies as written (collected when parsed: nothing that preparing,
 * normalizing or lowering adds), in order of first appearance, with that
 * op's location: the file as diagnostics show it, or NULL (line, col 0)
 * when it has none; carried_only when every one is in a gpu.module that
 * carries the program's own lowered code (frontend/carried_code.c), which
 * the kind that takes such code uses instead. Stops at fn's first nonzero
 * return and returns it; else 0. */
int program_each_device_op(const struct program *p,
                           int (*fn)(const char *op, const char *file, unsigned line, unsigned col,
                                     int carried_only, void *ud),
                           void *ud);

/* Writes the normalized module as MLIR text (--emit=mlir-device). Returns
 * 0 or -1 (reported). */
int program_write(const struct program *p, const char *path);

/* The normalized module as a job's input (`gpucc -cc1`): MLIR text with
 * every location, which device code carries (-g, asserts), so that
 * program_load_normalized reads back the same module. Returns 0 or -1
 * (reported). */
int program_write_normalized(const struct program *p, const char *path);
/* Reads what program_write_normalized wrote: parsed and verified, not
 * normalized again (normalizing is not idempotent). program_has_entry is
 * unknown (0) for it. Returns 0 with *out set, or -1 after reporting. */
int program_load_normalized(const char *path, struct program **out);

#endif
