/* microscale.c: conversions of the microscaling floats, in every target.
 *
 * arith.extf and arith.truncf from or to f4E2M1FN and f8E8M0FNU have no
 * LLVM type to lower to; arith-expand writes them as integer code when
 * asked (include-f4e2m1, include-f8e8m0). The host pipeline asks, the
 * device pipelines do not, so a program that uses them gets the expansion
 * here, once, for host code and kernels alike. Programs without them are
 * left alone: the expansion of everything else happens in the pipelines as
 * before. */
#include "frontend.h"

#include <stdlib.h>
#include <string.h>

static int microscale_type(MlirType t) {
  char text[128];
  ir_type_text(t, text, sizeof text);
  return strstr(text, "f4E2M1FN") || strstr(text, "f8E8M0FNU");
}

static int converts_microscale(MlirOperation op) {
  return microscale_type(mlirValueGetType(mlirOperationGetOperand(op, 0))) ||
         microscale_type(mlirValueGetType(mlirOperationGetResult(op, 0)));
}

int frontend_expand_microscale(MlirModule module) {
  static const char *const names[] = {"arith.extf", "arith.truncf", NULL};
  MlirOperation *ops;
  size_t n = ir_find_ops(mlirModuleGetOperation(module), names, converts_microscale, &ops);
  free(ops);
  if (n == 0)
    return 0;
  return ir_run_pipeline(module,
                               "builtin.module(arith-expand{include-f4e2m1=1 include-f8e8m0=1})");
}
