/* contract_widen.c: mixed-precision vector.contract as a same-type one.
 *
 * vector.contract may multiply narrower operands into a wider accumulator
 * (f16 x f16 -> f32, i8 x i8 -> i32: the shapes tensor cores and dot
 * instructions have). Its semantics extend the operands to the
 * accumulator's element type first, floats exactly (arith.extf) and
 * integers as signed (arith.extsi). Upstream's lowerings to LLVM take only
 * contractions whose element types agree, and fail on the others on every
 * target; the extension is written here, before the pipelines run, so that
 * they see a same-type contraction. Operands wider than the accumulator, or
 * of another kind (an integer into a float), are left for the verifier and
 * the target check to report. */
#include "diag.h"
#include "frontend.h"

#include <mlir-c/BuiltinTypes.h>
#include <stdlib.h>

static MlirType element_type(MlirType t) {
  return mlirTypeIsAVector(t) ? mlirShapedTypeGetElementType(t) : t;
}

/* operand i of op extended to element type `to` (a float or an integer
 * wider than its own), or unchanged when there is nothing to do. */
static void widen_operand(MlirOperation op, intptr_t i, MlirType to) {
  MlirValue v = mlirOperationGetOperand(op, i);
  MlirType t = mlirValueGetType(v), from = element_type(t);
  int fp = mlirTypeIsAFloat(from) && mlirTypeIsAFloat(to);
  int in = mlirTypeIsAInteger(from) && mlirTypeIsAInteger(to);
  if (mlirTypeEqual(from, to) || !(fp || in))
    return;
  unsigned from_w = fp ? mlirFloatTypeGetWidth(from) : mlirIntegerTypeGetWidth(from);
  unsigned to_w = fp ? mlirFloatTypeGetWidth(to) : mlirIntegerTypeGetWidth(to);
  if (from_w >= to_w)
    return;
  MlirType wide = to;
  if (mlirTypeIsAVector(t)) {
    intptr_t rank = mlirShapedTypeGetRank(t);
    int64_t *shape = malloc((size_t)(rank ? rank : 1) * sizeof *shape);
    bool *scalable = malloc((size_t)(rank ? rank : 1) * sizeof *scalable);
    if (!shape || !scalable)
      BUG("out of memory");
    for (intptr_t d = 0; d < rank; d++) {
      shape[d] = mlirShapedTypeGetDimSize(t, d);
      scalable[d] = mlirVectorTypeIsDimScalable(t, d);
    }
    wide = mlirVectorTypeGetScalable(rank, shape, scalable, to);
    free(shape);
    free(scalable);
  }
  MlirValue ext = ir_op_before(op, fp ? "arith.extf" : "arith.extsi", 1, &v, wide, 0, NULL);
  mlirOperationSetOperand(op, i, ext);
}

void frontend_widen_contractions(MlirOperation root) {
  static const char *const names[] = {"vector.contract", NULL};
  MlirOperation *ops;
  size_t n = ir_find_ops(root, names, NULL, &ops);
  for (size_t i = 0; i < n; i++) {
    if (mlirOperationGetNumOperands(ops[i]) < 3)
      continue;
    MlirType acc = element_type(mlirValueGetType(mlirOperationGetOperand(ops[i], 2)));
    widen_operand(ops[i], 0, acc);
    widen_operand(ops[i], 1, acc);
  }
  free(ops);
}
