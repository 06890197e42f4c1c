/* frontend.h: from a .mlir/.mlirbc file to a verified, normalized module.
 *
 * The frontend owns the MLIR context: dialects, passes and translations are
 * registered once, and every MLIR diagnostic leaves through diag.h as
 * "file:line:col: error: message". Normalization outlines gpu.launch bodies
 * and makes synchronous gpu ops asynchronous where gpu-to-llvm needs it,
 * leaving code that is already asynchronous alone. */
#ifndef GPUCC_FRONTEND_H
#define GPUCC_FRONTEND_H

#include "program.h"

#include <mlir-c/IR.h>
#include <stddef.h>

/* The module behind a program (program.h), for lowering/. */
MlirModule program_mlir(const struct program *p);

MlirContext frontend_context(void);
void frontend_shutdown(void);

/* Names the work in progress ("device code for sm_90"); MLIR errors get a
 * note "in <what>" while it is set. NULL clears it. */
void frontend_set_activity(const char *what);

/* Parses and verifies a file (text or bytecode, detected by content); "-"
 * reads standard input.
 * Returns 0 with *out owned by the caller (mlirModuleDestroy), or -1 after
 * the errors were reported. */
int frontend_parse(const char *path, MlirModule *out);

/* Reads MLIR bytecode at path in a forked child, which writes the module as
 * text (locations included) to a temp file: *text_path, whose diagnostics
 * name `shown`. Returns 0, or -1 after `shown: error: invalid MLIR bytecode
 * (...)` (bytecode.c). */
int frontend_bytecode_to_text(const char *path, const char *shown, const char **text_path);

/* Applies a transform schedule (then erases it), bufferizes tensor code and
 * turns linalg ops into loops: the steps that decide what the kernels are.
 * Called by frontend_normalize first. Returns 0 or -1 (reported). */
int frontend_prepare(MlirModule module);

/* Runs `pipeline` (the buffer deallocation pipeline) on module with its
 * top-level functions that hold gpu ops left out (dealloc.c). Returns 0 or
 * -1 (reported). */
int frontend_free_buffers(MlirModule module, const char *pipeline);

/* Prepares the module (frontend_prepare), outlines gpu.launch into gpu.func kernels and rewrites synchronous or
 * dependency-free gpu.alloc/dealloc/memcpy/memset into the async form
 * followed by a host wait. Returns 0 or -1 (reported). */
int frontend_normalize(MlirModule module);

/* Gives each gpu.module and each function defined in one a name every
 * object can carry, mangled (support/symname.h) where the program's cannot
 * be, and points every reference at it (names.c). Called by
 * frontend_normalize right after outlining. Returns 0, or -1 after an error
 * at the op that could not be renamed. */
int frontend_sanitize_names(MlirModule module);

/* memref.atomic_rmw mulf/muli become memref.generic_atomic_rmw, and that
 * op on float memrefs the same op on their bits (atomic_bits.c): what the
 * memref lowering can exchange. */
void frontend_rewrite_atomics(MlirModule module);

/* arith.minimumf/maximumf under root become llvm.intr.minimum/maximum,
 * which keep the order of signed zeros that arith-expand loses (minmax.c). */
void frontend_minmax_to_llvm(MlirOperation root);
/* vector.contract of narrower operands into a wider accumulator gets its
 * operands extended first (contract_widen.c). */
void frontend_widen_contractions(MlirOperation root);
/* Private attributions in a numbered memory space (memref<16xf32, 5>) get
 * #gpu.address_space<private>, which every lowering places (private_space.c). */
void frontend_private_spaces(MlirModule module);
/* extf/truncf of f4E2M1FN and f8E8M0FNU written as integer code, in host
 * code and kernels (microscale.c). Returns 0 or -1 (reported). */
int frontend_expand_microscale(MlirModule module);
/* The entry point (entry.c): with entry set (-e), a main that calls it and
 * prints what it returns (want: "void", "i32", "i64", "f32" or NULL for
 * whatever it returns); without, main's own checks. Returns 1 when it
 * wrote the main for entry, 0 when entry is not defined here (or not
 * given), -1 after a located error. */
int frontend_entry(MlirModule module, const char *entry, const char *want);
/* Warns of each launch argument that is host memory (memref.alloc,
 * alloca, get_global not registered with gpu.host_register), which a GPU
 * cannot read (host_memory.c), once turned on (a GPU target is asked for). */
void frontend_set_host_memory_warnings(int on);
void frontend_warn_host_memory(MlirModule module);

/* cf.assert in host code calls the runtime's gpuccAssertFailed, which
 * reports on stderr (host_assert.c). Returns 0 or -1 (reported). */
int frontend_host_asserts(MlirModule module);

/* A static shape whose byte size overflows 64 bits is a located error;
 * host code checks dynamic allocation sizes before allocating and tells the
 * runtime where each gpu.dealloc is (alloc_checks.c). Returns 0 or -1
 * (reported). */
int frontend_alloc_checks(MlirModule module);

/* memref.alloc of workgroup memory in a kernel becomes a workgroup
 * attribution (workgroup_alloc.c). Returns 0 or -1 (reported). */
int frontend_workgroup_allocs(MlirModule module);

/* Kernel memref arguments that every launch passes straight from gpu.alloc
 * are assumed 256-byte aligned in the kernel (kernel_alignment.c). */
void frontend_kernel_alignment(MlirModule module);

/* Each memref argument of a kernel travels as one pointer (with its
 * attributes, llvm.noalias included) and the parts of its layout the type
 * leaves dynamic; parameters the kernel does not read go; every
 * gpu.launch_func passes what its kernel takes (kernel_abi.c). Called by
 * frontend_normalize, last. Returns 0 or -1 (reported). */
int frontend_kernel_abi(MlirModule module);

/* Checks every gpu.printf's format against its operands, as -Wformat does
 * but with errors: each conversion against its argument's type as written
 * (so before normalization promotes them), %s/%ls/%n and unknown
 * conversions refused, the argument count exact; %p takes an i64 or index
 * (printf_check.c has the table). Called by frontend_normalize. Returns 0,
 * or -1 after one error per bad gpu.printf at its location. */
int frontend_check_printf(MlirModule module);

/* Diagnostics in file `path` are shown as being in `display` ("<stdin>"). */
void frontend_alias_file(const char *path, const char *display);
/* The name to show for a file: its alias, or the path itself. */
const char *frontend_display_name(const char *path);

/* Runs a textual pass pipeline ("builtin.module(...)") on the module.
 * Returns 0 or -1 (reported). */
int frontend_run_pipeline(MlirModule module, const char *pipeline);

/* Runs a lowering pipeline whose result must hold only ops for which
 * `lowered(name)` is true (LLVM dialect and the like) and reports any
 * failure as one error at the culprit's location:
 *   file:line:col: error: cannot lower 'dialect.op' for <what>: <why>
 * (`what`: "the host", "target 'sm_90'"), never as a conversion cast.
 * Returns 0 or -1 (reported). */
int frontend_lower(MlirModule module, const char *pipeline, const char *what,
                   int (*lowered)(MlirStringRef op_name));

/* The first MLIR error of a pipeline, held back by frontend_hold_errors
 * (NULL stops holding). For frontend_lower. */
struct frontend_held_error {
  int count;      /* errors seen */
  int located;    /* file/line/col are valid */
  char file[1024];
  unsigned line, col;
  char message[1024];
};
void frontend_hold_errors(struct frontend_held_error *h);
/* The first file:line:col inside loc (through call sites, names, fused
 * locations), the file as diagnostics show it. Returns 1 if found. */
int frontend_location(MlirLocation loc, char *file, size_t size, unsigned *line, unsigned *col);
/* True when loc resolves to exactly file:line:col. */
int frontend_same_location(MlirLocation loc, const char *file, unsigned line, unsigned col);

/* True when s is exactly lit / starts with prefix. */
int frontend_ref_is(MlirStringRef s, const char *lit);
int frontend_ref_starts(MlirStringRef s, const char *prefix);

/* True when op is named `name` ("gpu.printf"). */
int frontend_op_is(MlirOperation op, const char *name);

/* A type's / an attribute's textual form in buf (NUL-terminated, cut to
 * size - 1 bytes). */
void frontend_type_text(MlirType t, char *buf, size_t size);
void frontend_attr_text(MlirAttribute a, char *buf, size_t size);

/* The ops under root (root included, pre-order) named one of `names`
 * (NULL-terminated) for which keep (NULL: all) is true. Returns the count;
 * *out is malloc'ed (caller frees). Found first, rewritten after: the
 * caller may replace or erase them. */
size_t frontend_find_ops(MlirOperation root, const char *const *names, int (*keep)(MlirOperation),
                         MlirOperation **out);

/* The top-level gpu.module ops of a module, in order. Returns the count;
 * *ops is malloc'ed (caller frees). */
size_t frontend_gpu_modules(MlirModule module, MlirOperation **ops);

/* Writes an operation's textual form to path (checked, not atomic: callers
 * write to a temp name). Returns 0 or -1 (reported). */
int frontend_write_op(MlirOperation op, const char *path);

/* An operation's textual form (with locations when debug_info is set), as a
 * NUL-terminated malloc'ed string of *len bytes. */
char *frontend_print_op(MlirOperation op, int debug_info, size_t *len);

/* Adds the function `text` (MLIR, one func.func named `name`) at the top
 * of module (a builtin.module or gpu.module) unless a symbol of that name
 * is there already. Returns 0 or -1 (reported). */
int frontend_add_function(MlirOperation module, const char *name, const char *text);

/* Builds op `name` with these operands, result type (none: a null type)
 * and attributes before `at`, at its location; returns the result (or a
 * null value). */
MlirValue frontend_op_before(MlirOperation at, const char *name, intptr_t nops, const MlirValue *ops,
                             MlirType result, intptr_t nattr, const MlirNamedAttribute *attrs);

/* `scf.if %cond` (with one result of type `result`, or none if it is null)
 * before `at`, each branch holding only an `scf.yield` without operands
 * yet (*then_yield, *else_yield): build a branch's ops before its yield. */
MlirOperation frontend_if_before(MlirOperation at, MlirValue cond, MlirType result,
                                 MlirOperation *then_yield, MlirOperation *else_yield);

/* Whether gpu.launch_func `launch` starts gpu.func `kernel` of gpu.module
 * `module`. */
int frontend_launches(MlirOperation launch, MlirOperation module, MlirOperation kernel);
/* The launches of a program grouped by kernel, so that a walk over the
 * kernels finds each one's launches by search instead of testing every
 * launch with frontend_launches (10,000 kernels by 10,000 launches).
 * Borrows the ops and their names: valid while the module is unchanged
 * in its launches' kernel attributes. */
struct frontend_launch_index;
struct frontend_launch_index *frontend_launch_index_new(const MlirOperation *launches, size_t n);
/* The launches of `kernel` in `module`, in program order (*count of them;
 * NULL when none). Owned by the index. */
const MlirOperation *frontend_launch_index_find(const struct frontend_launch_index *ix,
                                                MlirOperation module, MlirOperation kernel,
                                                size_t *count);
void frontend_launch_index_free(struct frontend_launch_index *ix);
/* Where a gpu.launch_func's kernel operands are among its operands: the
 * first's index and how many. */
void frontend_launch_operands(MlirOperation launch, intptr_t *start, intptr_t *count);

/* Whether op is device code: inside a gpu.module or a gpu.launch body. */
int frontend_in_device_code(MlirOperation op);

/* Builds `func.call @callee(args)` with the given result types before `at`. */
MlirOperation frontend_call_before(MlirOperation at, const char *callee, intptr_t nargs,
                                   const MlirValue *args, intptr_t nresults, const MlirType *results);

/* Symbol name of an op with sym_name (gpu.func's included), borrowed, or
 * "" when it has none; and as a NUL-terminated malloc'ed copy. */
MlirStringRef frontend_symbol_ref(MlirOperation op);
char *frontend_symbol_name(MlirOperation op);

/* Reports an error at an operation's location. Returns -1. */
int frontend_error_at(MlirOperation op, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* The same as a warning (an error under -Werror, as diag_at decides). */
void frontend_warning_at(MlirOperation op, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* `s` as the body of an MLIR string literal ("..." without the quotes),
 * every byte outside printable ASCII, '"' and backslash escaped as
 * \XX, ending in \00 so that the global holds a C string. malloc'ed; NULL
 * when out of memory. */
char *frontend_string_literal(MlirStringRef s);
/* The top-level func.func or llvm.func of module called name that has a
 * body (a definition, not a declaration); null when there is none. */
MlirOperation frontend_find_function(MlirModule module, const char *name);
/* Bytes of one element of a memref in memory: integers and floats rounded
 * up to whole bytes (i1 takes one, as LLVM stores it), index 8, complex
 * numbers and statically shaped vectors their elements; 0 when not known
 * here, or over INT64_MAX. */
int64_t frontend_element_bytes(MlirType t);
/* Bytes of a statically shaped memref (0 for any other type, or an element
 * size not known here); -1 when they exceed INT64_MAX. */
int64_t frontend_memref_bytes(MlirType t);
/* Memref type t with another element type or memory space (a null one keeps
 * t's); shape and layout stay. */
MlirType frontend_memref_like(MlirType t, MlirType element, MlirAttribute space);
/* The threads of a block that the gpu.func op is, or is inside, promises
 * with known_block_size (its three sizes multiplied); 0 when it promises
 * none. What lets a rewrite leave out a run-time check of whole warps or
 * wavefronts. */
int64_t frontend_known_block_threads(MlirOperation op);

#endif
