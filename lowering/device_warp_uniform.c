/* device_warp_uniform.c: warp-uniform values and warp-uniform control flow
 * in a gpu.func before lowering.
 *
 * device_contract_wmma.c replaces a contraction that each thread computes
 * on its own by one that the 32 lanes of a warp compute together. That is
 * the same computation only when every lane would have computed the same
 * thing, and every lane gets there. This file proves those two facts from
 * the ops alone, and answers "not proven" for anything it does not know:
 *
 * - uniform values: constants, the kernel's arguments and workgroup
 *   attributions (one per block), block, grid and cluster ids and sizes,
 *   the subgroup id and count (a warp is 32 consecutive linear thread ids),
 *   the induction variable of an scf.for whose bounds and step are uniform,
 *   and ops without side effects or thread state (arith, index, math,
 *   affine.apply, memref views, the LLVM struct ops that the kernel ABI
 *   rebuilds memrefs with) of uniform operands. Not: thread and lane ids,
 *   loaded values, results of region ops (scf.if, iter_args), private
 *   attributions, allocas, a device function's arguments.
 * - uniform control flow: the op is in the kernel's entry block, nested
 *   only in scf.for with uniform bounds and scf.if with a uniform
 *   condition. Structured regions cannot exit early, so each lane that
 *   enters the kernel reaches the op as often as any other. */
#include "device_warp_uniform.h"

#include "ir.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <string.h>

/* Values looked at per question: an expression DAG may share operands, so
 * a walk without a bound could take exponential time; past it, "not
 * proven". */
#define WALK_BUDGET 4096

/* Ops that read neither memory nor thread state and have no regions: their
 * result is uniform when their operands are. */
static int pure_op(MlirOperation op) {
  static const char *const prefixes[] = {"arith.", "index.", "math.", NULL};
  static const char *const names[] = {
      "affine.apply", "affine.min", "affine.max", "memref.subview", "memref.cast",
      "memref.reinterpret_cast", "memref.expand_shape", "memref.collapse_shape", "memref.dim",
      "memref.assume_alignment", "memref.get_global", "memref.extract_strided_metadata",
      "memref.extract_aligned_pointer_as_index", "builtin.unrealized_conversion_cast",
      "llvm.mlir.constant", "llvm.mlir.poison", "llvm.mlir.undef", "llvm.mlir.zero",
      "llvm.insertvalue", "llvm.extractvalue", "llvm.getelementptr", "llvm.addrspacecast",
      "llvm.bitcast",
      /* one value per block, grid or cluster; per warp for the subgroup id */
      "gpu.block_id", "gpu.block_dim", "gpu.grid_dim", "gpu.cluster_id", "gpu.cluster_dim",
      "gpu.cluster_block_id", "gpu.cluster_dim_blocks", "gpu.subgroup_id", "gpu.num_subgroups",
      "gpu.subgroup_size", NULL};
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  if (mlirOperationGetNumRegions(op) != 0)
    return 0;
  for (size_t i = 0; prefixes[i]; i++)
    if (ir_ref_starts(name, prefixes[i]))
      return 1;
  for (size_t i = 0; names[i]; i++)
    if (ir_ref_is(name, names[i]))
      return 1;
  return 0;
}

static int uniform(MlirValue v, int *budget);

static int operands_uniform(MlirOperation op, intptr_t first, intptr_t count, int *budget) {
  for (intptr_t i = first; i < first + count; i++)
    if (!uniform(mlirOperationGetOperand(op, i), budget))
      return 0;
  return 1;
}

/* A kernel's entry-block argument: its parameters, then its workgroup
 * attributions (uniform), then its private ones (per thread). */
static int uniform_kernel_arg(MlirOperation fn, MlirBlock block, intptr_t n) {
  if (!ir_is_kernel(fn) || !mlirBlockEqual(block, mlirRegionGetFirstBlock(mlirOperationGetRegion(fn, 0))))
    return 0;
  MlirAttribute ft = mlirOperationGetAttributeByName(fn, mlirStringRefCreateFromCString("function_type"));
  if (mlirAttributeIsNull(ft) || !mlirAttributeIsAType(ft))
    return 0;
  intptr_t inputs = mlirFunctionTypeGetNumInputs(mlirTypeAttrGetValue(ft));
  MlirAttribute wg = mlirOperationGetAttributeByName(fn, mlirStringRefCreateFromCString("workgroup_attributions"));
  intptr_t workgroup = !mlirAttributeIsNull(wg) && mlirAttributeIsAInteger(wg) ? mlirIntegerAttrGetValueInt(wg) : 0;
  return n < inputs + workgroup;
}

static int uniform(MlirValue v, int *budget) {
  if (--*budget < 0)
    return 0;
  if (mlirValueIsABlockArgument(v)) {
    MlirBlock block = mlirBlockArgumentGetOwner(v);
    MlirOperation owner = mlirBlockGetParentOperation(block);
    intptr_t n = mlirBlockArgumentGetArgNumber(v);
    if (ir_op_is(owner, "gpu.func"))
      return uniform_kernel_arg(owner, block, n);
    /* scf.for's induction variable (lower bound, upper bound, step) */
    if (ir_op_is(owner, "scf.for") && n == 0)
      return operands_uniform(owner, 0, 3, budget);
    return 0;
  }
  MlirOperation def = mlirOpResultGetOwner(v);
  return pure_op(def) && operands_uniform(def, 0, mlirOperationGetNumOperands(def), budget);
}

int warp_uniform_value(MlirValue v) {
  int budget = WALK_BUDGET;
  return uniform(v, &budget);
}

MlirOperation warp_uniform_kernel_of(MlirOperation op) {
  MlirOperation none = {NULL};
  MlirBlock block = mlirOperationGetBlock(op);
  while (!mlirBlockIsNull(block)) {
    MlirOperation parent = mlirBlockGetParentOperation(block);
    if (mlirOperationIsNull(parent))
      return none;
    int budget = WALK_BUDGET;
    if (ir_op_is(parent, "gpu.func"))
      return ir_is_kernel(parent) &&
                     mlirBlockEqual(block, mlirRegionGetFirstBlock(mlirOperationGetRegion(parent, 0)))
                 ? parent
                 : none;
    if (ir_op_is(parent, "scf.for")) {
      if (!operands_uniform(parent, 0, 3, &budget))
        return none;
    } else if (ir_op_is(parent, "scf.if")) {
      if (!operands_uniform(parent, 0, 1, &budget))
        return none;
    } else {
      return none;
    }
    block = mlirOperationGetBlock(parent);
  }
  return none;
}
