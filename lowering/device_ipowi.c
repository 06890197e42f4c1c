/* device_ipowi.c: math.ipowi in device code.
 *
 * No vendor library has an integer power, and upstream's software version
 * (convert-math-to-funcs) is a builtin.module pass that puts its functions
 * outside the gpu.module, where kernels cannot call them. So each
 * gpu.module that uses math.ipowi on a scalar integer type gets its own
 * private function, written here in MLIR and lowered with the rest:
 *
 *   e < 0:  b == 1 -> 1, b == -1 -> (e odd ? -1 : 1), otherwise 0
 *           (the integer part of 1 / b^|e|);
 *   e >= 0: square and multiply over the bits of e (wrapping, like muli). */
#include "device_ipowi.h"

#include "diag.h"
#include "ir.h"
#include "xstr.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* %1$s: the function's name, %2$s: the integer type. */
static const char ipowi_template[] =
    "func.func private @%1$s(%%b: %2$s, %%e: %2$s) -> %2$s {\n"
    "  %%zero = arith.constant 0 : %2$s\n"
    "  %%one = arith.constant 1 : %2$s\n"
    "  %%minus_one = arith.constant -1 : %2$s\n"
    "  %%negative = arith.cmpi slt, %%e, %%zero : %2$s\n"
    "  %%r = scf.if %%negative -> %2$s {\n"
    "    %%is_one = arith.cmpi eq, %%b, %%one : %2$s\n"
    "    %%is_minus_one = arith.cmpi eq, %%b, %%minus_one : %2$s\n"
    "    %%low = arith.andi %%e, %%one : %2$s\n"
    "    %%odd = arith.cmpi ne, %%low, %%zero : %2$s\n"
    "    %%sign = arith.select %%odd, %%minus_one, %%one : %2$s\n"
    "    %%m1 = arith.select %%is_minus_one, %%sign, %%zero : %2$s\n"
    "    %%v = arith.select %%is_one, %%one, %%m1 : %2$s\n"
    "    scf.yield %%v : %2$s\n"
    "  } else {\n"
    "    %%res:3 = scf.while (%%acc = %%one, %%base = %%b, %%n = %%e) : (%2$s, %2$s, %2$s) -> (%2$s, %2$s, %2$s) {\n"
    "      %%more = arith.cmpi ne, %%n, %%zero : %2$s\n"
    "      scf.condition(%%more) %%acc, %%base, %%n : %2$s, %2$s, %2$s\n"
    "    } do {\n"
    "    ^bb0(%%acc: %2$s, %%base: %2$s, %%n: %2$s):\n"
    "      %%bit = arith.andi %%n, %%one : %2$s\n"
    "      %%set = arith.cmpi ne, %%bit, %%zero : %2$s\n"
    "      %%times = arith.muli %%acc, %%base : %2$s\n"
    "      %%acc2 = arith.select %%set, %%times, %%acc : %2$s\n"
    "      %%square = arith.muli %%base, %%base : %2$s\n"
    "      %%n2 = arith.shrui %%n, %%one : %2$s\n"
    "      scf.yield %%acc2, %%square, %%n2 : %2$s, %2$s, %2$s\n"
    "    }\n"
    "    scf.yield %%res#0 : %2$s\n"
    "  }\n"
    "  return %%r : %2$s\n"
    "}\n";

/* Scalar integer powers only: vectors are left for the leftover check. */
static int is_scalar_ipowi(MlirOperation op) {
  MlirType t = mlirValueGetType(mlirOperationGetResult(op, 0));
  return mlirTypeIsAInteger(t) || mlirTypeIsAIndex(t);
}

/* The function for type t in gpu_module, made on first use. */
static int function_for(MlirOperation gpu_module, MlirType t, char *name, size_t size) {
  char type[64];
  ir_type_text(t, type, sizeof type);
  snprintf(name, size, "__gpucc_ipowi_%s", type);
  /* Sized to fit: the type is written some thirty times. */
  char *text = xasprintf(ipowi_template, name, type);
  int rc = ir_add_function(gpu_module, name, text);
  free(text);
  return rc;
}

int lowering_expand_ipowi(MlirOperation gpu_module) {
  static const char *const names[] = {"math.ipowi", NULL};
  MlirOperation *found;
  size_t n = ir_find_ops(gpu_module, names, is_scalar_ipowi, &found);
  int rc = 0;
  for (size_t i = 0; i < n && rc == 0; i++) {
    MlirOperation op = found[i];
    MlirType t = mlirValueGetType(mlirOperationGetResult(op, 0));
    char name[128];
    if ((rc = function_for(gpu_module, t, name, sizeof name)) != 0)
      break;
    MlirValue args[2] = {mlirOperationGetOperand(op, 0), mlirOperationGetOperand(op, 1)};
    MlirOperation call = ir_call_before(op, name, 2, args, 1, &t);
    mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(op, 0), mlirOperationGetResult(call, 0));
    mlirOperationDestroy(op);
  }
  free(found);
  return rc;
}
