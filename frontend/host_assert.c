/* host_assert.c: cf.assert in host code reports on stderr, where it is.
 *
 * LLVM's cf-to-llvm lowers a failed cf.assert to puts(message) and abort():
 * the message goes to stdout's buffer, which abort() never flushes, so with
 * stdout on a pipe or a file the message and everything printed before it
 * were lost. Host code's asserts (not kernels': the targets lower those to
 * their own assert calls) become
 *
 *   scf.if (not %cond) { gpuccAssertFailed(message, file, line) }
 *
 * with message and file as constant strings; the runtime flushes stdout,
 * prints "file:line: Assertion failed: message" on stderr and aborts, as
 * C's assert does. */
#include "frontend.h"
#include "xstr.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ASSERT_FN "gpuccAssertFailed"

static MlirStringRef ref(const char *s) { return mlirStringRefCreateFromCString(s); }

static int host_assert(MlirOperation op) { return !ir_in_device_code(op); }


/* A private constant global holding `s` (made once per name), and its
 * address before `at`. */
static MlirValue string_constant(MlirOperation module, MlirOperation at, const char *name,
                                 MlirStringRef s) {
  MlirContext ctx = mlirOperationGetContext(at);
  char *body = ir_string_literal(s);
  if (!body)
    return (MlirValue){NULL};
  char *text = xasprintf("llvm.mlir.global private constant @%s(\"%s\") {addr_space = 0 : i32}",
                         name, body);
  free(body);
  MlirOperation g = mlirOperationCreateParse(ctx, ref(text), ref("gpucc-generated"));
  free(text);
  if (mlirOperationIsNull(g))
    return (MlirValue){NULL};
  mlirBlockInsertOwnedOperation(mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0)), 0, g);
  MlirNamedAttribute sym = {mlirIdentifierGet(ctx, ref("global_name")),
                            mlirFlatSymbolRefAttrGet(ctx, ref(name))};
  return ir_op_before(at, "llvm.mlir.addressof", 0, NULL, mlirTypeParseGet(ctx, ref("!llvm.ptr")), 1, &sym);
}

static int rewrite(MlirOperation module, MlirOperation op, size_t n) {
  MlirContext ctx = mlirOperationGetContext(op);
  MlirLocation loc = mlirOperationGetLocation(op);
  char file[1024] = "<unknown>", name[64];
  unsigned line = 0, col = 0;
  ir_location(loc, file, sizeof file, &line, &col);
  MlirAttribute msg = mlirOperationGetInherentAttributeByName(op, ref("msg"));
  MlirStringRef message = mlirAttributeIsNull(msg) ? ref("") : mlirStringAttrGetValue(msg);

  /* if (!cond) */
  MlirType i1 = mlirIntegerTypeGet(ctx, 1);
  MlirNamedAttribute one = {mlirIdentifierGet(ctx, ref("value")), mlirIntegerAttrGet(i1, 1)};
  MlirValue t = ir_op_before(op, "arith.constant", 0, NULL, i1, 1, &one);
  MlirValue xs[2] = {mlirOperationGetOperand(op, 0), t};
  MlirValue failed = ir_op_before(op, "arith.xori", 2, xs, i1, 0, NULL);
  MlirOperation yield, else_yield;
  ir_if_before(op, failed, (MlirType){NULL}, &yield, &else_yield);

  /* gpuccAssertFailed(message, file, line) */
  snprintf(name, sizeof name, "__gpucc_assert_message_%zu", n);
  MlirValue m = string_constant(module, yield, name, message);
  snprintf(name, sizeof name, "__gpucc_assert_file_%zu", n);
  MlirValue f = string_constant(module, yield, name, ref(file));
  if (mlirValueIsNull(m) || mlirValueIsNull(f))
    return ir_error_at(op, "internal: cannot build the assertion's message");
  MlirType i32 = mlirIntegerTypeGet(ctx, 32);
  MlirNamedAttribute lv = {mlirIdentifierGet(ctx, ref("value")), mlirIntegerAttrGet(i32, line)};
  MlirValue l = ir_op_before(yield, "arith.constant", 0, NULL, i32, 1, &lv);
  MlirValue args[3] = {m, f, l};
  ir_call_before(yield, ASSERT_FN, 3, args, 0, NULL);
  mlirOperationDestroy(op);
  return 0;
}

int frontend_host_asserts(MlirModule module) {
  static const char *const names[] = {"cf.assert", NULL};
  MlirOperation top = mlirModuleGetOperation(module);
  MlirOperation *ops;
  size_t n = ir_find_ops(top, names, host_assert, &ops);
  int rc = 0;
  if (n)
    rc = ir_add_function(top, ASSERT_FN,
                               "func.func private @" ASSERT_FN "(!llvm.ptr, !llvm.ptr, i32)");
  for (size_t i = 0; i < n && rc == 0; i++)
    rc = rewrite(top, ops[i], i);
  free(ops);
  return rc;
}
