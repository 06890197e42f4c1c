/* device_amd_assert.c: cf.assert in AMD kernels.
 *
 * LLVM 22's convert-gpu-to-rocdl cannot lower cf.assert (it makes the
 * message a global outside the gpu.module and fails: "'llvm.mlir.addressof'
 * op must reference a global"). What a GPU assertion does is simple enough
 * to write in the GPU dialect itself, as HIP's __assert_fail does it:
 *
 *   scf.if (!cond) {
 *     gpu.printf "<file>:<line>: <function> Device-side assertion
 *                 `<message>' failed.\n"
 *     llvm.intr.trap          // the kernel stops; the runtime reports it
 *   }
 *
 * The message is HIP's, so that checks written for ROCm match. <function>
 * is the name a name location gives the assertion, else "(unknown)", as
 * upstream's ROCm programs print it. */
#include "device_amd_assert.h"

#include "diag.h"
#include "ir.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The innermost name location on the callee path of loc, if any. */
static int location_name(MlirLocation loc, char *out, size_t size, int depth) {
  if (depth > 16 || mlirLocationIsNull(loc))
    return 0;
  if (mlirLocationIsACallSite(loc))
    return location_name(mlirLocationCallSiteGetCallee(loc), out, size, depth + 1);
  if (mlirLocationIsAName(loc)) {
    if (location_name(mlirLocationNameGetChildLoc(loc), out, size, depth + 1))
      return 1;
    MlirStringRef n = mlirIdentifierStr(mlirLocationNameGetName(loc));
    snprintf(out, size, "%.*s", (int)n.length, n.data);
    return 1;
  }
  return 0;
}

static void function_name(MlirOperation op, char *out, size_t size) {
  if (!location_name(mlirOperationGetLocation(op), out, size, 0))
    snprintf(out, size, "(unknown)");
}

static MlirOperation make(MlirBlock block, const char *name, MlirLocation loc, intptr_t nops,
                          const MlirValue *ops, intptr_t nres, const MlirType *res, intptr_t nattr,
                          const MlirNamedAttribute *attrs) {
  MlirOperationState st = mlirOperationStateGet(mlirStringRefCreateFromCString(name), loc);
  if (nops)
    mlirOperationStateAddOperands(&st, nops, ops);
  if (nres)
    mlirOperationStateAddResults(&st, nres, res);
  if (nattr)
    mlirOperationStateAddAttributes(&st, nattr, attrs);
  MlirOperation op = mlirOperationCreate(&st);
  mlirBlockAppendOwnedOperation(block, op);
  return op;
}

static MlirNamedAttribute named(MlirContext ctx, const char *name, MlirAttribute a) {
  return mlirNamedAttributeGet(mlirIdentifierGet(ctx, mlirStringRefCreateFromCString(name)), a);
}

/* Appends "%" to every "%" of s: the message and file go into a format. */
static void escape_percent(const char *s, char *out, size_t size) {
  size_t k = 0;
  for (; *s && k + 2 < size; s++) {
    out[k++] = *s;
    if (*s == '%')
      out[k++] = '%';
  }
  out[k] = '\0';
}

static int rewrite(MlirOperation op) {
  MlirContext ctx = mlirOperationGetContext(op);
  MlirLocation loc = mlirOperationGetLocation(op);
  MlirAttribute msg_attr = mlirOperationGetInherentAttributeByName(op, mlirStringRefCreateFromCString("msg"));
  MlirStringRef msg = mlirAttributeIsNull(msg_attr) ? mlirStringRefCreateFromCString("")
                                                    : mlirStringAttrGetValue(msg_attr);
  char file[1024] = "unknown", function[256], text[1500], efile[2100], emsg[3000];
  unsigned line = 0, col = 0;
  ir_location(loc, file, sizeof file, &line, &col);
  function_name(op, function, sizeof function);
  snprintf(text, sizeof text, "%.*s", (int)msg.length, msg.data);
  escape_percent(file, efile, sizeof efile);
  escape_percent(text, emsg, sizeof emsg);
  char format[6000];
  snprintf(format, sizeof format,
           "%s:%u: %s Device-side assertion `%s' failed.\n",
           efile, line, function, emsg);

  /* %failed = !cond, outside the if. */
  MlirBlock block = mlirOperationGetBlock(op);
  MlirType i1 = mlirIntegerTypeGet(ctx, 1);
  MlirNamedAttribute one = named(ctx, "value", mlirIntegerAttrGet(i1, 1));
  MlirOperationState cst = mlirOperationStateGet(mlirStringRefCreateFromCString("arith.constant"), loc);
  mlirOperationStateAddResults(&cst, 1, &i1);
  mlirOperationStateAddAttributes(&cst, 1, &one);
  MlirOperation t = mlirOperationCreate(&cst);
  mlirBlockInsertOwnedOperationBefore(block, op, t);
  MlirValue xor_ops[2] = {mlirOperationGetOperand(op, 0), mlirOperationGetResult(t, 0)};
  MlirOperationState nx = mlirOperationStateGet(mlirStringRefCreateFromCString("arith.xori"), loc);
  mlirOperationStateAddOperands(&nx, 2, xor_ops);
  mlirOperationStateAddResults(&nx, 1, &i1);
  MlirOperation failed = mlirOperationCreate(&nx);
  mlirBlockInsertOwnedOperationBefore(block, op, failed);

  /* The then-region: printf, trap, yield. */
  MlirRegion then_region = mlirRegionCreate(), else_region = mlirRegionCreate();
  MlirBlock body = mlirBlockCreate(0, NULL, NULL);
  mlirRegionAppendOwnedBlock(then_region, body);
  MlirNamedAttribute fmt = named(ctx, "format", mlirStringAttrGet(ctx, mlirStringRefCreateFromCString(format)));
  make(body, "gpu.printf", loc, 0, NULL, 0, NULL, 1, &fmt);
  make(body, "llvm.intr.trap", loc, 0, NULL, 0, NULL, 0, NULL);
  make(body, "scf.yield", loc, 0, NULL, 0, NULL, 0, NULL);

  MlirOperationState ifs = mlirOperationStateGet(mlirStringRefCreateFromCString("scf.if"), loc);
  MlirValue cond = mlirOperationGetResult(failed, 0);
  mlirOperationStateAddOperands(&ifs, 1, &cond);
  MlirRegion regions[2] = {then_region, else_region};
  mlirOperationStateAddOwnedRegions(&ifs, 2, regions);
  MlirOperation if_op = mlirOperationCreate(&ifs);
  if (mlirOperationIsNull(if_op))
    return diag_error("internal: cannot rewrite cf.assert for AMD");
  mlirBlockInsertOwnedOperationBefore(block, op, if_op);
  mlirOperationDestroy(op);
  return 0;
}

int lowering_amd_asserts(MlirOperation gpu_module) {
  static const char *const names[] = {"cf.assert", NULL};
  MlirOperation *found;
  size_t n = ir_find_ops(gpu_module, names, NULL, &found);
  int rc = 0;
  for (size_t i = 0; i < n && rc == 0; i++)
    rc = rewrite(found[i]);
  free(found);
  return rc;
}
