/* device_spirv_views.c: buffer views as the SPIR-V conversion takes
 * them: none. MLIR's memref conversion to SPIR-V lowers no
 * reinterpret_cast of a buffer but the trivial one, and flatten-memref
 * leaves one per buffer view (and N-d ones where it leaves accesses, as
 * it leaves atomics): their accesses become accesses of the 1-D buffer at
 * the linear index. */
#include "device_spirv.h"

#include "diag.h"
#include "ir.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static MlirStringRef str(const char *s) { return mlirStringRefCreateFromCString(s); }


/* An index operand of a view op: its static value as a constant before
 * `at`, or its dynamic operand. */
static MlirValue view_index(MlirOperation view, MlirOperation at, const char *statics, intptr_t dyn_first,
                            intptr_t k) {
  MlirAttribute a = mlirOperationGetAttributeByName(view, str(statics));
  int64_t v = mlirDenseI64ArrayGetElement(a, k);
  if (v != mlirShapedTypeGetDynamicStrideOrOffset()) {
    char text[96];
    snprintf(text, sizeof text, "%%c = arith.constant %lld : index", (long long)v);
    return mlirOperationGetResult(ir_parse_before(at, text), 0);
  }
  intptr_t dyn = 0;
  for (intptr_t i = 0; i < k; i++)
    dyn += mlirDenseI64ArrayGetElement(a, i) == mlirShapedTypeGetDynamicStrideOrOffset();
  return mlirOperationGetOperand(view, dyn_first + dyn);
}

static MlirValue binary(MlirOperation at, const char *name, MlirValue x, MlirValue y) {
  MlirOperationState st = mlirOperationStateGet(str(name), mlirOperationGetLocation(at));
  MlirValue ops[2] = {x, y};
  MlirType index = mlirIndexTypeGet(mlirOperationGetContext(at));
  mlirOperationStateAddOperands(&st, 2, ops);
  mlirOperationStateAddResults(&st, 1, &index);
  MlirOperation op = mlirOperationCreate(&st);
  mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(at), at, op);
  return mlirOperationGetResult(op, 0);
}

static int64_t dense_count(MlirOperation op, const char *name, int dynamic) {
  MlirAttribute a = mlirOperationGetAttributeByName(op, str(name));
  int64_t n = 0, sentinel = !strcmp(name, "static_sizes") ? mlirShapedTypeGetDynamicSize()
                                                           : mlirShapedTypeGetDynamicStrideOrOffset();
  for (intptr_t i = 0; i < mlirDenseArrayGetNumElements(a); i++)
    n += !dynamic || mlirDenseI64ArrayGetElement(a, i) == sentinel;
  return n;
}

/* What flatten-memref leaves of a buffer's views: a reinterpret_cast of
 * the 1-D buffer (offset o, strides s), which the conversion does not
 * take (N-d where flatten-memref left the accesses, as it leaves atomics);
 * its loads, stores and atomics at indices i become accesses of the buffer
 * at o + sum(i_k * s_k). */
void spirv_fold_views(MlirOperation gpu_module) {
  MlirOperation *ops;
  size_t n = ir_find_ops(gpu_module, (const char *const[]){"memref.reinterpret_cast", NULL}, NULL, &ops);
  for (size_t i = 0; i < n; i++) {
    MlirOperation view = ops[i];
    MlirValue src = mlirOperationGetOperand(view, 0);
    MlirValue res = mlirOperationGetResult(view, 0);
    MlirType st = mlirValueGetType(src), rt = mlirValueGetType(res);
    int64_t soffset, sstride;
    intptr_t rank = mlirShapedTypeGetRank(rt);
    if (mlirShapedTypeGetRank(st) != 1 || rank < 1 || rank > 8 ||
        mlirLogicalResultIsFailure(mlirMemRefTypeGetStridesAndOffset(st, &sstride, &soffset)) ||
        soffset != 0 || sstride != 1)
      continue;
    int plain = 1;
    for (MlirOpOperand u = mlirValueGetFirstUse(res); !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u)) {
      MlirOperation user = mlirOpOperandGetOwner(u);
      int load = ir_op_is(user, "memref.load"), store = ir_op_is(user, "memref.store"),
          atomic = ir_op_is(user, "memref.atomic_rmw");
      if (!(load && mlirOpOperandGetOperandNumber(u) == 0) &&
          !((store || atomic) && mlirOpOperandGetOperandNumber(u) == 1))
        plain = 0;
    }
    if (!plain)
      continue;
    intptr_t dyn_offsets = 1, dyn_strides = 1 + dense_count(view, "static_offsets", 1) +
                                          dense_count(view, "static_sizes", 1);
    MlirOpOperand u;
    while (!mlirOpOperandIsNull(u = mlirValueGetFirstUse(res))) {
      MlirOperation user = mlirOpOperandGetOwner(u);
      intptr_t at = ir_op_is(user, "memref.load") ? 1 : 2; /* the first index */
      MlirValue idx = view_index(view, user, "static_offsets", dyn_offsets, 0);
      for (intptr_t k = 0; k < rank; k++) {
        MlirValue s = view_index(view, user, "static_strides", dyn_strides, k);
        idx = binary(user, "arith.addi", idx,
                     binary(user, "arith.muli", mlirOperationGetOperand(user, at + k), s));
      }
      MlirValue operands[3] = {mlirOperationGetOperand(user, 0), src, idx};
      if (at == 1)
        operands[0] = src, operands[1] = idx;
      mlirOperationSetOperands(user, at + 1, operands);
    }
    mlirOperationDestroy(view);
  }
  free(ops);
}
