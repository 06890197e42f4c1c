/* frontend.h: from a .mlir/.mlirbc file to a verified, normalized module.
 *
 * The frontend owns the MLIR context: dialects, passes and translations are
 * registered once, and every MLIR diagnostic leaves through diag.h as
 * "file:line:col: error: message". Normalization outlines gpu.launch bodies
 * and makes synchronous gpu ops asynchronous where gpu-to-llvm needs it,
 * leaving code that is already asynchronous alone. The helpers for MLIR
 * that the frontend shares with lowering/ (ops, locations, pipelines) are
 * ir/ir.h's, included here. */
#ifndef GPUCC_FRONTEND_H
#define GPUCC_FRONTEND_H

#include "ir.h"
#include "program.h"

#include <mlir-c/IR.h>
#include <stddef.h>

/* The module behind a program (program.h), for lowering/. */
MlirModule program_mlir(const struct program *p);

MlirContext frontend_context(void);
void frontend_shutdown(void);

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

/* What normalization must know of the target kinds, from their rows
 * (lowering/targets.h), which the driver gives once, before any program
 * is normalized (frontend_set_kind_rows; at most FRONTEND_MAX_KIND_ROWS).
 * Any field may be NULL: the kind has no such thing.
 *   host_ops_prefix, host_ops_pipeline: ops of the kind's dialect that
 *     may sit in host code ("nvgpu."), and the pipeline that lowers them
 *     before outlining (frontend_prepare);
 *   carried_op, carried_prefix: the op that holds a program's own lowered
 *     kernels for the kind ("spirv.module"), beside gpu.module @m, named
 *     carried_prefix + "m" (carried_code.c). */
struct frontend_kind_row {
  const char *host_ops_prefix, *host_ops_pipeline;
  const char *carried_op, *carried_prefix;
};
#define FRONTEND_MAX_KIND_ROWS 8
void frontend_set_kind_rows(const struct frontend_kind_row *rows, size_t n);
/* The rows given, and how many (*n). */
const struct frontend_kind_row *frontend_kind_rows(size_t *n);

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

/* A program's own lowered kernels (carried_code.c): a top-level
 * spirv.module named as MLIR names the SPIR-V of a gpu.module
 * (`@__spv__<name>`), found before normalization renames anything, and
 * moved into that gpu.module at its end. Finding them drops one that
 * lowers no gpu.module, with a warning, where drop_strays says so. */
struct carried_code {
  struct {
    MlirOperation code, gpu_module;
  } *pairs;
  size_t len;
};
void frontend_find_carried_code(MlirModule module, struct carried_code *c, int drop_strays);
void frontend_carry_code(struct carried_code *c);
/* What a kernel parameter is made of, as the attribute KERNEL_ARGS_ATTR on
 * a kernel of a gpu.module that carries such code records it
 * (kernel_abi.c): pairs (argument as written, part). */
#define KERNEL_ARGS_ATTR "gpucc.kernel_args"
enum kernel_arg_part {
  KERNEL_ARG_WHOLE,   /* the argument itself */
  KERNEL_ARG_POINTER, /* a memref's aligned pointer */
  KERNEL_ARG_OFFSET,
  KERNEL_ARG_SIZE,
  KERNEL_ARG_STRIDE,
};
/* Whether op is a program's own lowered code, nested in its gpu.module. */
int frontend_is_carried_code(MlirOperation op);
/* The code that the gpu.module carries (once normalized); null if none. */
MlirOperation frontend_carried_code(MlirOperation gpu_module);

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

#endif
