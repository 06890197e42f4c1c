/* alloc_checks.c: allocation sizes that cannot be, and gpu.dealloc sites.
 *
 * LLVM's lowering computes an allocation's byte size as the product of its
 * sizes and the element size in 64-bit arithmetic that wraps: a negative
 * dynamic size, or one whose product overflows, became a huge or a tiny
 * allocation, and the program crashed later (a SIGSEGV in the next memset)
 * or corrupted memory. So:
 *
 * - a static shape whose byte size does not fit in a signed 64-bit index
 *   (gpu.alloc, memref.alloc, memref.alloca, memref.global, a gpu.func's
 *   workgroup or private attribution, anywhere) is a located compile-time
 *   error: "memref<...> is too large: its size in bytes overflows 64 bits";
 * - in host code, each gpu.alloc, memref.alloc and memref.alloca with
 *   dynamic sizes first multiplies its sizes and element size with checks
 *   (arith.mului_extended: the high half and the sign of the low half) and
 *   on a negative size, or an overflow whose product is not 0 after all,
 *   calls the runtime's gpuccAllocSizeFailed(site, op, element bytes,
 *   sizes), which reports "file:line:col: gpu.alloc of a negative size (-4
 *   x 4 bytes)" and exits with status 1. The check costs a few integer ops
 *   per allocation; the call sits in a branch that is never taken;
 * - each gpu.dealloc in host code first tells the runtime where it is
 *   (gpuccOpSite(site)), so that freeing what gpu.alloc did not hand out,
 *   or freeing twice, is reported at that line (runtime/memory.c).
 *
 * Sites are constant strings "file:line:col", the file's name without its
 * folder: objects must not depend on how the input's path was spelled
 * (tests/driver/reproducible.sh). An op whose location has no file gets
 * none (NULL), and the runtime's message says less. Kernels'
 * allocations are left alone: a kernel has no runtime to call. */
#include "frontend.h"
#include "xstr.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SIZE_FAILED_FN "gpuccAllocSizeFailed"
#define SITE_FN "gpuccOpSite"

static MlirStringRef ref(const char *s) { return mlirStringRefCreateFromCString(s); }

/* ---- sizes ---- */

static int report_too_large(MlirOperation op, MlirType t) {
  char text[512];
  ir_type_text(t, text, sizeof text);
  return ir_error_at(op, "%s is too large: its size in bytes overflows 64 bits", text);
}

/* The static checks of one op: its results, a global's type, a gpu.func's
 * attributions. */
static int check_static(MlirOperation op) {
  if (ir_op_is(op, "memref.global")) {
    MlirAttribute t = mlirOperationGetInherentAttributeByName(op, ref("type"));
    if (!mlirAttributeIsNull(t) && ir_memref_bytes(mlirTypeAttrGetValue(t)) < 0)
      return report_too_large(op, mlirTypeAttrGetValue(t));
    return 0;
  }
  if (ir_op_is(op, "gpu.func")) {
    MlirAttribute ft = mlirOperationGetInherentAttributeByName(op, ref("function_type"));
    MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0));
    if (mlirAttributeIsNull(ft) || mlirBlockIsNull(entry))
      return 0;
    /* Attributions are the entry block's arguments after the inputs. */
    intptr_t nargs = mlirFunctionTypeGetNumInputs(mlirTypeAttrGetValue(ft));
    for (intptr_t i = nargs; i < mlirBlockGetNumArguments(entry); i++) {
      MlirType t = mlirValueGetType(mlirBlockGetArgument(entry, i));
      if (ir_memref_bytes(t) < 0)
        return report_too_large(op, t);
    }
    return 0;
  }
  MlirType t = mlirValueGetType(mlirOperationGetResult(op, 0));
  return ir_memref_bytes(t) < 0 ? report_too_large(op, t) : 0;
}

/* ---- building the checks ---- */

struct builder {
  MlirOperation module; /* the top-level module, where globals go */
  MlirContext ctx;
  MlirType i1, i64, ptr;
  size_t nsites;
  int declared_size_failed, declared_site;
};

static MlirValue constant(struct builder *b, MlirOperation at, MlirType t, int64_t v) {
  MlirNamedAttribute a = {mlirIdentifierGet(b->ctx, ref("value")), mlirIntegerAttrGet(t, v)};
  return ir_op_before(at, "arith.constant", 0, NULL, t, 1, &a);
}

static MlirValue binary(MlirOperation at, const char *name, MlirValue x, MlirValue y) {
  MlirValue xy[2] = {x, y};
  return ir_op_before(at, name, 2, xy, mlirValueGetType(x), 0, NULL);
}

/* arith.cmpi with predicate p (eq 0, ne 1, slt 2). */
static MlirValue compare(struct builder *b, MlirOperation at, int64_t p, MlirValue x, MlirValue y) {
  MlirNamedAttribute a = {mlirIdentifierGet(b->ctx, ref("predicate")),
                          mlirIntegerAttrGet(b->i64, p)};
  MlirValue xy[2] = {x, y};
  return ir_op_before(at, "arith.cmpi", 2, xy, b->i1, 1, &a);
}

/* x * y as i64: the low half, with *overflow set when the product does not
 * fit in a signed 64-bit value (x and y non-negative). */
static MlirValue checked_mul(struct builder *b, MlirOperation at, MlirValue x, MlirValue y,
                             MlirValue *overflow) {
  MlirOperationState st = mlirOperationStateGet(ref("arith.mului_extended"),
                                                mlirOperationGetLocation(at));
  MlirValue xy[2] = {x, y};
  MlirType two[2] = {b->i64, b->i64};
  mlirOperationStateAddOperands(&st, 2, xy);
  mlirOperationStateAddResults(&st, 2, two);
  MlirOperation mul = mlirOperationCreate(&st);
  mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(at), at, mul);
  MlirValue lo = mlirOperationGetResult(mul, 0), hi = mlirOperationGetResult(mul, 1);
  MlirValue zero = constant(b, at, b->i64, 0);
  *overflow = binary(at, "arith.ori", compare(b, at, 1, hi, zero), compare(b, at, 2, lo, zero));
  return lo;
}


/* A private constant global @name holding s, made unless it exists.
 * Returns 0 or -1. */
static int string_global(struct builder *b, const char *name, const char *s) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(b->module, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    if (ir_op_is(op, "llvm.mlir.global") &&
        ir_ref_is(ir_symbol_ref(op), name))
      return 0;
  char *body_text = ir_string_literal(mlirStringRefCreateFromCString(s));
  if (!body_text)
    return -1;
  char *text = xasprintf("llvm.mlir.global private constant @%s(\"%s\") {addr_space = 0 : i32}",
                         name, body_text);
  free(body_text);
  MlirOperation g = mlirOperationCreateParse(b->ctx, ref(text), ref("gpucc-generated"));
  free(text);
  if (mlirOperationIsNull(g))
    return -1;
  mlirBlockInsertOwnedOperation(body, 0, g);
  return 0;
}

static MlirValue address_of(struct builder *b, MlirOperation at, const char *name) {
  MlirNamedAttribute sym = {mlirIdentifierGet(b->ctx, ref("global_name")),
                            mlirFlatSymbolRefAttrGet(b->ctx, ref(name))};
  return ir_op_before(at, "llvm.mlir.addressof", 0, NULL, b->ptr, 1, &sym);
}

/* The address of the string "file:line:col" for op, before `at`; a null
 * pointer when op's location has no file. */
static MlirValue site(struct builder *b, MlirOperation op, MlirOperation at) {
  char file[1024], name[64];
  unsigned line = 0, col = 0;
  if (!ir_location(mlirOperationGetLocation(op), file, sizeof file, &line, &col))
    return ir_op_before(at, "llvm.mlir.zero", 0, NULL, b->ptr, 0, NULL);
  const char *slash = strrchr(file, '/');
  char *where = xasprintf("%s:%u:%u", slash ? slash + 1 : file, line, col);
  snprintf(name, sizeof name, "__gpucc_site_%zu", b->nsites++);
  int rc = string_global(b, name, where);
  free(where);
  return rc == 0 ? address_of(b, at, name) : (MlirValue){NULL};
}

static MlirValue op_name(struct builder *b, MlirOperation op, MlirOperation at) {
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
  char text[64], name[96];
  snprintf(text, sizeof text, "%.*s", (int)n.length, n.data);
  snprintf(name, sizeof name, "__gpucc_op_%s", text);
  for (char *c = name; *c; c++)
    if (*c == '.')
      *c = '_';
  return string_global(b, name, text) == 0 ? address_of(b, at, name) : (MlirValue){NULL};
}

/* The dynamic sizes among op's operands: gpu.alloc's follow its async
 * dependencies; memref.alloc(a)'s come first. */
static void dynamic_sizes(MlirOperation op, intptr_t *start, intptr_t *count) {
  MlirAttribute seg = mlirOperationGetInherentAttributeByName(op, ref("operandSegmentSizes"));
  int gpu = ir_op_is(op, "gpu.alloc");
  *start = gpu ? mlirDenseI32ArrayGetElement(seg, 0) : 0;
  *count = mlirDenseI32ArrayGetElement(seg, gpu ? 1 : 0);
}

/* Before op: the checked size computation and the call on failure. */
static int check_dynamic(struct builder *b, MlirOperation op) {
  MlirType t = mlirValueGetType(mlirOperationGetResult(op, 0));
  int64_t elt = ir_element_bytes(mlirShapedTypeGetElementType(t));
  intptr_t start, count;
  dynamic_sizes(op, &start, &count);
  intptr_t rank = mlirShapedTypeGetRank(t);
  if (elt <= 0 || count == 0)
    return 0;
  MlirType index = mlirIndexTypeGet(b->ctx);
  MlirValue acc = constant(b, op, b->i64, elt), zero = constant(b, op, b->i64, 0);
  MlirValue negative = constant(b, op, b->i1, 0), overflow = negative, empty = negative;
  MlirValue *dims = malloc((size_t)rank * sizeof *dims);
  if (!dims)
    return ir_error_at(op, "internal: out of memory");
  for (intptr_t i = 0, k = start; i < rank; i++) {
    if (mlirShapedTypeIsDynamicDim(t, i)) {
      MlirValue size = mlirOperationGetOperand(op, k++);
      dims[i] = ir_op_before(op, "arith.index_cast", 1, &size, b->i64, 0, NULL);
      negative = binary(op, "arith.ori", negative, compare(b, op, 2, dims[i], zero));
      empty = binary(op, "arith.ori", empty, compare(b, op, 0, dims[i], zero));
    } else {
      int64_t d = mlirShapedTypeGetDimSize(t, i);
      dims[i] = constant(b, op, b->i64, d);
      if (d == 0)
        empty = constant(b, op, b->i1, 1);
    }
    MlirValue o;
    acc = checked_mul(b, op, acc, dims[i], &o);
    overflow = binary(op, "arith.ori", overflow, o);
  }
  /* An overflow on the way to 0 bytes is no overflow. */
  MlirValue nonempty = binary(op, "arith.xori", empty, constant(b, op, b->i1, 1));
  MlirValue failed =
      binary(op, "arith.ori", negative, binary(op, "arith.andi", overflow, nonempty));
  MlirOperation yield, else_yield;
  ir_if_before(op, failed, (MlirType){NULL}, &yield, &else_yield);

  /* The sizes as memref<?xi64>, for the message. */
  char text[64];
  snprintf(text, sizeof text, "memref<%lldxi64>", (long long)rank);
  MlirType fixed = mlirTypeParseGet(b->ctx, ref(text));
  MlirNamedAttribute seg = {mlirIdentifierGet(b->ctx, ref("operandSegmentSizes")),
                            mlirDenseI32ArrayGet(b->ctx, 2, (const int32_t[]){0, 0})};
  MlirValue sizes = ir_op_before(yield, "memref.alloca", 0, NULL, fixed, 1, &seg);
  for (intptr_t i = 0; i < rank; i++) {
    MlirNamedAttribute v = {mlirIdentifierGet(b->ctx, ref("value")), mlirIntegerAttrGet(index, i)};
    MlirValue at[3] = {dims[i], sizes, ir_op_before(yield, "arith.constant", 0, NULL, index, 1, &v)};
    ir_op_before(yield, "memref.store", 3, at, (MlirType){NULL}, 0, NULL);
  }
  free(dims);
  MlirValue any = ir_op_before(yield, "memref.cast", 1, &sizes,
                                     mlirTypeParseGet(b->ctx, ref("memref<?xi64>")), 0, NULL);
  MlirValue args[4] = {site(b, op, yield), op_name(b, op, yield), constant(b, yield, b->i64, elt),
                       any};
  if (mlirValueIsNull(args[0]) || mlirValueIsNull(args[1]))
    return ir_error_at(op, "internal: cannot build the allocation's size check");
  ir_call_before(yield, SIZE_FAILED_FN, 4, args, 0, NULL);
  b->declared_size_failed = 1;
  return 0;
}

/* Before a gpu.dealloc: gpuccOpSite("file:line:col"). */
static int mark_dealloc(struct builder *b, MlirOperation op) {
  char file[1024];
  unsigned line, col;
  if (!ir_location(mlirOperationGetLocation(op), file, sizeof file, &line, &col))
    return 0;
  MlirValue where = site(b, op, op);
  if (mlirValueIsNull(where))
    return ir_error_at(op, "internal: cannot build the deallocation's site");
  ir_call_before(op, SITE_FN, 1, &where, 0, NULL);
  b->declared_site = 1;
  return 0;
}

static int in_host_code(MlirOperation op) { return !ir_in_device_code(op); }

int frontend_alloc_checks(MlirModule module) {
  static const char *const statics[] = {"gpu.alloc", "memref.alloc", "memref.alloca",
                                        "memref.global", "gpu.func", NULL};
  static const char *const dynamics[] = {"gpu.alloc", "memref.alloc", "memref.alloca", NULL};
  static const char *const deallocs[] = {"gpu.dealloc", NULL};
  MlirOperation top = mlirModuleGetOperation(module);
  MlirOperation *ops;
  size_t n = ir_find_ops(top, statics, NULL, &ops);
  int rc = 0;
  for (size_t i = 0; i < n; i++)
    rc |= check_static(ops[i]);
  free(ops);
  if (rc != 0)
    return -1;

  MlirContext ctx = mlirOperationGetContext(top);
  struct builder b = {.module = top,
                      .ctx = ctx,
                      .i1 = mlirIntegerTypeGet(ctx, 1),
                      .i64 = mlirIntegerTypeGet(ctx, 64),
                      .ptr = mlirTypeParseGet(ctx, ref("!llvm.ptr"))};
  n = ir_find_ops(top, dynamics, in_host_code, &ops);
  for (size_t i = 0; i < n && rc == 0; i++)
    rc = check_dynamic(&b, ops[i]);
  free(ops);
  n = ir_find_ops(top, deallocs, in_host_code, &ops);
  for (size_t i = 0; i < n && rc == 0; i++)
    rc = mark_dealloc(&b, ops[i]);
  free(ops);
  if (rc == 0 && b.declared_size_failed)
    rc = ir_add_function(top, SIZE_FAILED_FN,
                               "func.func private @" SIZE_FAILED_FN
                               "(!llvm.ptr, !llvm.ptr, i64, memref<?xi64>)");
  if (rc == 0 && b.declared_site)
    rc = ir_add_function(top, SITE_FN, "func.func private @" SITE_FN "(!llvm.ptr)");
  return rc;
}
