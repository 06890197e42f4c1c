/* atomic_bits.c: memref.generic_atomic_rmw on floats, done on their bits.
 *
 * LLVM 22 lowers memref.generic_atomic_rmw to a compare-and-swap loop whose
 * llvm.cmpxchg takes the element type as it is; cmpxchg takes integers and
 * pointers only, so on a float memref the lowering builds an invalid op
 * (every target, host code too). The update itself is fine on floats; only
 * the exchange must be on the bits. So each such op is turned, in place,
 * into the same op on an integer view of the memref:
 *
 *   %r = memref.generic_atomic_rmw %m[%i] : memref<4xf32> {
 *   ^bb0(%cur: f32): ... memref.atomic_yield %new : f32 }
 *
 * becomes
 *
 *   %mi = builtin.unrealized_conversion_cast %m : memref<4xf32> to memref<4xi32>
 *   %ri = memref.generic_atomic_rmw %mi[%i] : memref<4xi32> {
 *   ^bb0(%bits: i32):
 *     %cur = arith.bitcast %bits : i32 to f32
 *     ... %nbits = arith.bitcast %new : f32 to i32
 *     memref.atomic_yield %nbits : i32 }
 *   %r = arith.bitcast %ri : i32 to f32
 *
 * Both memref types lower to the same LLVM descriptor, so the cast pair
 * the memref lowering adds around it cancels out (reconcile-unrealized-
 * casts). Comparing bits rather than values is what the exchange must do
 * anyway: a NaN never equals itself, and -0.0 equals 0.0.
 *
 * memref.atomic_rmw mulf and muli, which have no LLVM atomicrmw either
 * (the lowering refuses them), become such generic ops first. */
#include "frontend.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <stdint.h>
#include <stdlib.h>

/* The integer type of a float's width, or a null type for anything else,
 * and for widths no target exchanges (tf32's 19 bits, x87's 80). */
static MlirType bits_type(MlirType t) {
  if (!mlirTypeIsAFloat(t))
    return (MlirType){NULL};
  unsigned w = mlirFloatTypeGetWidth(t);
  if (w != 8 && w != 16 && w != 32 && w != 64 && w != 128)
    return (MlirType){NULL};
  return mlirIntegerTypeGet(mlirTypeGetContext(t), w);
}

/* memref<... x F> as memref<... x iN>: same shape, layout and memory space. */
static MlirType integer_memref(MlirType m, MlirType bits) {
  return ir_memref_like(m, bits, mlirAttributeGetNull());
}

/* `%out = arith.bitcast %v : from to `to`` before `at`. */
static MlirValue bitcast_before(MlirOperation at, MlirValue v, MlirType to) {
  return ir_op_before(at, "arith.bitcast", 1, &v, to, 0, NULL);
}

static int has_float_memref(MlirOperation op) {
  MlirType m = mlirValueGetType(mlirOperationGetOperand(op, 0));
  return mlirTypeIsAMemRef(m) && !mlirTypeIsNull(bits_type(mlirShapedTypeGetElementType(m)));
}

static void rewrite(MlirOperation op) {
  MlirValue memref = mlirOperationGetOperand(op, 0);
  MlirType mtype = mlirValueGetType(memref);
  MlirType ftype = mlirShapedTypeGetElementType(mtype);
  MlirType itype = bits_type(ftype);
  MlirType imtype = integer_memref(mtype, itype);
  if (mlirTypeIsNull(imtype))
    return; /* out of memory: left as it was, the lowering reports it */

  MlirValue view = ir_op_before(op, "builtin.unrealized_conversion_cast", 1, &memref,
                                      imtype, 0, NULL);
  mlirOperationSetOperand(op, 0, view);

  /* The body: its argument becomes the bits, read back as the float. */
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0));
  MlirValue arg = mlirBlockGetArgument(body, 0);
  mlirValueSetType(arg, itype);
  MlirValue cur = bitcast_before(mlirBlockGetFirstOperation(body), arg, ftype);
  MlirOperation cur_op = mlirOpResultGetOwner(cur);
  mlirValueReplaceAllUsesExcept(arg, cur, 1, &cur_op);

  /* What the body yields goes back as bits. */
  MlirOperation yield = mlirBlockGetTerminator(body);
  MlirValue yielded = bitcast_before(yield, mlirOperationGetOperand(yield, 0), itype);
  mlirOperationSetOperand(yield, 0, yielded);

  /* The result: the old value's bits, read as the float after the op. */
  MlirValue result = mlirOperationGetResult(op, 0);
  mlirValueSetType(result, itype);
  MlirOperation next = mlirOperationGetNextInBlock(op);
  MlirValue value = bitcast_before(next, result, ftype);
  MlirOperation value_op = mlirOpResultGetOwner(value);
  mlirValueReplaceAllUsesExcept(result, value, 1, &value_op);
}

/* memref.atomic_rmw kinds LLVM has no atomicrmw for (its memref lowering
 * refuses them): mulf = 12 and muli = 13 in MLIR 22's AtomicRMWKind. */
static const char *product_op(MlirOperation op) {
  MlirAttribute kind = mlirOperationGetInherentAttributeByName(op, mlirStringRefCreateFromCString("kind"));
  if (mlirAttributeIsNull(kind) || !mlirAttributeIsAInteger(kind))
    return NULL;
  int64_t k = mlirIntegerAttrGetValueInt(kind);
  return k == 12 ? "arith.mulf" : k == 13 ? "arith.muli" : NULL;
}

static int is_product(MlirOperation op) { return product_op(op) != NULL; }

/* `%old = memref.atomic_rmw mulf %v, %m[%i]` as
 * `%old = memref.generic_atomic_rmw %m[%i] { ^bb0(%cur): %n = arith.mulf
 * %cur, %v; memref.atomic_yield %n }`, a compare-and-swap loop. */
static void product_to_generic(MlirOperation op) {
  MlirLocation loc = mlirOperationGetLocation(op);
  MlirValue value = mlirOperationGetOperand(op, 0);
  MlirType t = mlirValueGetType(value);
  MlirBlock body = mlirBlockCreate(1, &t, &loc);
  MlirOperationState ys = mlirOperationStateGet(mlirStringRefCreateFromCString("memref.atomic_yield"), loc);
  MlirOperation yield = mlirOperationCreate(&ys);
  mlirBlockAppendOwnedOperation(body, yield);
  MlirValue args[2] = {mlirBlockGetArgument(body, 0), value};
  MlirValue n = ir_op_before(yield, product_op(op), 2, args, t, 0, NULL);
  mlirOperationSetOperands(yield, 1, &n);
  MlirRegion region = mlirRegionCreate();
  mlirRegionAppendOwnedBlock(region, body);
  MlirOperationState st =
      mlirOperationStateGet(mlirStringRefCreateFromCString("memref.generic_atomic_rmw"), loc);
  intptr_t nops = mlirOperationGetNumOperands(op);
  for (intptr_t i = 1; i < nops; i++) { /* the memref, then the indices */
    MlirValue v = mlirOperationGetOperand(op, i);
    mlirOperationStateAddOperands(&st, 1, &v);
  }
  mlirOperationStateAddResults(&st, 1, &t);
  mlirOperationStateAddOwnedRegions(&st, 1, &region);
  MlirOperation generic = mlirOperationCreate(&st);
  mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(op), op, generic);
  mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(op, 0), mlirOperationGetResult(generic, 0));
  mlirOperationDestroy(op);
}

void frontend_rewrite_atomics(MlirModule module) {
  static const char *const rmw[] = {"memref.atomic_rmw", NULL};
  MlirOperation *products;
  size_t np = ir_find_ops(mlirModuleGetOperation(module), rmw, is_product, &products);
  for (size_t i = 0; i < np; i++)
    product_to_generic(products[i]);
  free(products);
  static const char *const names[] = {"memref.generic_atomic_rmw", NULL};
  MlirOperation *ops;
  size_t n = ir_find_ops(mlirModuleGetOperation(module), names, has_float_memref, &ops);
  for (size_t i = 0; i < n; i++)
    rewrite(ops[i]);
  free(ops);
}
