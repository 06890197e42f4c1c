/* minmax.c: arith.minimumf and arith.maximumf as LLVM's minimum/maximum.
 *
 * The pipelines run arith-expand for the arith ops that have no LLVM twin
 * (ceildivsi, floordivsi, ...). It also expands minimumf and maximumf, into
 * a compare and a select that keep NaN but not the order of signed zeros:
 * minimumf(-0.0, +0.0) came out +0.0 on every target (IEEE 754's minimum is
 * -0.0). Their twins, llvm.intr.minimum and llvm.intr.maximum, have exactly
 * the semantics of the arith ops, so they are written before the pipelines
 * run (normalize.c for the program; device.c again for what the device
 * rewrites make, such as reduction butterflies). Fast-math flags are
 * dropped: they only allow less exact results. */
#include "frontend.h"

#include <stdlib.h>

void frontend_minmax_to_llvm(MlirOperation root) {
  static const char *const names[] = {"arith.minimumf", "arith.maximumf", NULL};
  MlirOperation *ops;
  size_t n = ir_find_ops(root, names, NULL, &ops);
  for (size_t i = 0; i < n; i++) {
    const char *to = ir_op_is(ops[i], "arith.minimumf") ? "llvm.intr.minimum"
                                                               : "llvm.intr.maximum";
    MlirValue args[2] = {mlirOperationGetOperand(ops[i], 0), mlirOperationGetOperand(ops[i], 1)};
    MlirValue old = mlirOperationGetResult(ops[i], 0);
    MlirValue r = ir_op_before(ops[i], to, 2, args, mlirValueGetType(old), 0, NULL);
    mlirValueReplaceAllUsesOfWith(old, r);
    mlirOperationDestroy(ops[i]);
  }
  free(ops);
}
