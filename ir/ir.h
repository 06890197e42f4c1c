/* ir.h: the MLIR helper kit that frontend/ and lowering/ both use: names,
 * types and attributes as text, finding, building and printing ops,
 * messages at an op's location, and running pass pipelines with their
 * errors held back and said in one line (lower.c). Nothing here owns the
 * MLIR context or knows the program: the frontend creates the context and
 * routes its diagnostics (frontend/context.c), and it and lowering/ call
 * these on modules of that context. Its functions are named ir_.
 *
 * Links against the MLIR C API (which the gpucc executable brings in, see
 * driver/CMakeLists.txt) and support/ (diag.h); never against frontend/ or
 * lowering/. */
#ifndef GPUCC_IR_H
#define GPUCC_IR_H

#include <mlir-c/Diagnostics.h>
#include <mlir-c/IR.h>
#include <stddef.h>
#include <stdint.h>

/* --- messages at locations (locations.c) -------------------------------- */

/* Names the work in progress ("device code for sm_90"); MLIR errors get a
 * note "in <what>" while it is set. NULL clears it. */
void ir_set_activity(const char *what);
/* The work in progress that ir_set_activity named, or NULL: what the
 * diagnostic handler and the LLVM fatal-error handler add to a message. */
const char *ir_activity(void);

/* Diagnostics in file `path` are shown as being in `display` ("<stdin>"). */
void ir_alias_file(const char *path, const char *display);
/* The name to show for a file: its alias, or the path itself. */
const char *ir_display_name(const char *path);

/* The first file:line:col inside loc (through call sites, names, fused
 * locations), the file as diagnostics show it. Returns 1 if found. */
int ir_location(MlirLocation loc, char *file, size_t size, unsigned *line, unsigned *col);
/* True when loc resolves to exactly file:line:col. */
int ir_same_location(MlirLocation loc, const char *file, unsigned line, unsigned col);
/* The first file:line:col inside loc, the file as the location names it
 * (no alias applied): what the diagnostic handler and the held errors
 * record. Returns 1 if found. */
int ir_resolve_location(MlirLocation loc, char *file, size_t size, unsigned *line,
                              unsigned *col);

/* Reports an error at an operation's location. Returns -1. */
int ir_error_at(MlirOperation op, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* The same as a warning (an error under -Werror, as diag_at decides). */
void ir_warning_at(MlirOperation op, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* --- pass pipelines (pipeline.c, lower.c) ------------------------------ */

/* Runs a textual pass pipeline ("builtin.module(...)") on the module.
 * Returns 0 or -1 (reported). */
int ir_run_pipeline(MlirModule module, const char *pipeline);

/* Runs a lowering pipeline whose result must hold only ops for which
 * `lowered(name)` is true (LLVM dialect and the like) and reports any
 * failure as one error at the culprit's location:
 *   file:line:col: error: cannot lower 'dialect.op' for <what>: <why>
 * (`what`: "the host", "target 'sm_90'"), never as a conversion cast.
 * Returns 0 or -1 (reported). */
int ir_lower(MlirModule module, const char *pipeline, const char *what,
                   int (*lowered)(MlirStringRef op_name));

/* The first MLIR error of a pipeline, held back by ir_hold_errors
 * (NULL stops holding). For ir_lower. */
struct ir_held_error {
  int count;      /* errors seen */
  int located;    /* file/line/col are valid */
  char file[1024];
  unsigned line, col;
  char message[1024];
};
void ir_hold_errors(struct ir_held_error *h);
/* For the context's diagnostic handler: while errors are held, takes d
 * (severity s): the first error is recorded, later errors and notes are
 * dropped. Returns 1 when d was taken, 0 when it is to be reported. */
int ir_hold_diagnostic(MlirDiagnostic d, MlirDiagnosticSeverity s);

/* --- names, types and finding ops (ops.c) ----------------------------- */

/* True when s is exactly lit / starts with prefix. */
int ir_ref_is(MlirStringRef s, const char *lit);
int ir_ref_starts(MlirStringRef s, const char *prefix);

/* True when op is named `name` ("gpu.printf"). */
int ir_op_is(MlirOperation op, const char *name);

/* A type's / an attribute's textual form in buf (NUL-terminated, cut to
 * size - 1 bytes). */
void ir_type_text(MlirType t, char *buf, size_t size);
void ir_attr_text(MlirAttribute a, char *buf, size_t size);

/* The ops under root (root included, pre-order) named one of `names`
 * (NULL-terminated) for which keep (NULL: all) is true. Returns the count;
 * *out is malloc'ed (caller frees). Found first, rewritten after: the
 * caller may replace or erase them. */
size_t ir_find_ops(MlirOperation root, const char *const *names, int (*keep)(MlirOperation),
                         MlirOperation **out);

/* The top-level gpu.module ops of a module, in order. Returns the count;
 * *ops is malloc'ed (caller frees). */
size_t ir_gpu_modules(MlirModule module, MlirOperation **ops);

/* Symbol name of an op with sym_name (gpu.func's included), borrowed, or
 * "" when it has none; and as a NUL-terminated malloc'ed copy. */
MlirStringRef ir_symbol_ref(MlirOperation op);
char *ir_symbol_name(MlirOperation op);

/* Whether op is device code: inside a gpu.module or a gpu.launch body. */
int ir_in_device_code(MlirOperation op);

/* `s` as the body of an MLIR string literal ("..." without the quotes),
 * every byte outside printable ASCII, '"' and backslash escaped as
 * \XX, ending in \00 so that the global holds a C string. malloc'ed; NULL
 * when out of memory. */
char *ir_string_literal(MlirStringRef s);
/* The top-level func.func or llvm.func of module called name that has a
 * body (a definition, not a declaration); null when there is none. */
MlirOperation ir_find_function(MlirModule module, const char *name);
/* Whether op (null: no) is a gpu.func marked gpu.kernel. */
int ir_is_kernel(MlirOperation op);
/* The op named op_name (spirv.func, spirv.GlobalVariable ...) with symbol
 * `name` in the first block of parent's first region; null if none. */
MlirOperation ir_find_child(MlirOperation parent, const char *op_name, const char *name);
/* Bytes of one element of a memref in memory: integers and floats rounded
 * up to whole bytes (i1 takes one, as LLVM stores it), index 8, complex
 * numbers and statically shaped vectors their elements; 0 when not known
 * here, or over INT64_MAX. */
int64_t ir_element_bytes(MlirType t);
/* Bytes of a statically shaped memref (0 for any other type, or an element
 * size not known here); -1 when they exceed INT64_MAX. */
int64_t ir_memref_bytes(MlirType t);
/* Memref type t with another element type or memory space (a null one keeps
 * t's); shape and layout stay. */
MlirType ir_memref_like(MlirType t, MlirType element, MlirAttribute space);
/* The threads of a block that the gpu.func op is, or is inside, promises
 * with known_block_size (its three sizes multiplied); 0 when it promises
 * none. What lets a rewrite leave out a run-time check of whole warps or
 * wavefronts. */
int64_t ir_known_block_threads(MlirOperation op);

/* --- building ops (ops.c) ---------------------------------------------- */

/* Adds the function `text` (MLIR, one func.func named `name`) at the top
 * of module (a builtin.module or gpu.module) unless a symbol of that name
 * is there already. Returns 0 or -1 (reported). */
int ir_add_function(MlirOperation module, const char *name, const char *text);
/* One op parsed from its text (generic or custom form), inserted before
 * `before` in its block. BUG on text that does not parse: gpucc made it. */
MlirOperation ir_parse_before(MlirOperation before, const char *text);

/* Builds op `name` with these operands, result type (none: a null type)
 * and attributes before `at`, at its location; returns the result (or a
 * null value). */
MlirValue ir_op_before(MlirOperation at, const char *name, intptr_t nops, const MlirValue *ops,
                             MlirType result, intptr_t nattr, const MlirNamedAttribute *attrs);

/* `scf.if %cond` (with one result of type `result`, or none if it is null)
 * before `at`, each branch holding only an `scf.yield` without operands
 * yet (*then_yield, *else_yield): build a branch's ops before its yield. */
MlirOperation ir_if_before(MlirOperation at, MlirValue cond, MlirType result,
                                 MlirOperation *then_yield, MlirOperation *else_yield);

/* Builds `func.call @callee(args)` with the given result types before `at`. */
MlirOperation ir_call_before(MlirOperation at, const char *callee, intptr_t nargs,
                                   const MlirValue *args, intptr_t nresults, const MlirType *results);

/* --- launches (ops.c) -------------------------------------------------- */

/* Whether gpu.launch_func `launch` starts gpu.func `kernel` of gpu.module
 * `module`. */
int ir_launches(MlirOperation launch, MlirOperation module, MlirOperation kernel);
/* The launches of a program grouped by kernel, so that a walk over the
 * kernels finds each one's launches by search instead of testing every
 * launch with ir_launches (10,000 kernels by 10,000 launches).
 * Borrows the ops and their names: valid while the module is unchanged
 * in its launches' kernel attributes. */
struct ir_launch_index;
struct ir_launch_index *ir_launch_index_new(const MlirOperation *launches, size_t n);
/* The launches of `kernel` in `module`, in program order (*count of them;
 * NULL when none). Owned by the index. */
const MlirOperation *ir_launch_index_find(const struct ir_launch_index *ix,
                                                MlirOperation module, MlirOperation kernel,
                                                size_t *count);
void ir_launch_index_free(struct ir_launch_index *ix);
/* Where a gpu.launch_func's kernel operands are among its operands: the
 * first's index and how many. */
void ir_launch_operands(MlirOperation launch, intptr_t *start, intptr_t *count);

/* --- printing (print.c) ------------------------------------------------ */

/* An operation's textual form (with locations when debug_info is set), as a
 * NUL-terminated malloc'ed string of *len bytes. */
char *ir_print_op(MlirOperation op, int debug_info, size_t *len);

/* Writes an operation's textual form to path (checked, not atomic: callers
 * write to a temp name). Returns 0 or -1 (reported). */
int ir_write_op(MlirOperation op, const char *path);

/* A diagnostic's message as a NUL-terminated malloc'ed string, or NULL
 * when it is empty. */
char *ir_diagnostic_text(MlirDiagnostic d);

#endif
