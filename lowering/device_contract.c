/* device_contract.c: floating-point contraction, as gcc's -ffp-contract.
 *
 * LLVM fuses a multiply into an add (fma) only where both carry the
 * `contract` fast-math flag (or the target machine is told to fuse
 * everything, which MLIR's serialization does not do). Without it NVPTX even
 * prints `add.rn.f32` / `mul.rn.f32`, whose rounding mode forbids ptxas to
 * fuse them later; nvcc (-fmad=true) and clang's CUDA and HIP modes contract
 * by default. So, on the lowered LLVM dialect:
 *
 *   fast  every fadd, fsub and fmul without flags gets `contract`: any
 *         multiply may fuse into any add it feeds (nvcc's default);
 *   on    only a multiply whose single use is an add or subtract in the same
 *         block, and that add: what C calls one expression (clang's default
 *         for C, and what llvm.fmuladd allows);
 *   off   nothing changes.
 *
 * Operations that already carry fast-math flags keep them: what the program
 * says wins. */
#include "device_contract.h"

#include "ir.h"

#include <mlir-c/BuiltinAttributes.h>
#include <string.h>

struct contract {
  enum fp_contract mode;
  MlirAttribute none, contract;
};

static MlirStringRef ref(const char *s) { return mlirStringRefCreateFromCString(s); }

static int is_add(MlirOperation op) {
  return ir_op_is(op, "llvm.fadd") || ir_op_is(op, "llvm.fsub");
}

static int is_mul(MlirOperation op) { return ir_op_is(op, "llvm.fmul"); }

/* No flags: the attribute is absent or #llvm.fastmath<none>. */
static int flagless(const struct contract *c, MlirOperation op) {
  MlirAttribute a = mlirOperationGetInherentAttributeByName(op, ref("fastmathFlags"));
  return mlirAttributeIsNull(a) || mlirAttributeEqual(a, c->none);
}

static void mark(const struct contract *c, MlirOperation op) {
  mlirOperationSetInherentAttributeByName(op, ref("fastmathFlags"), c->contract);
}

/* The add or subtract that is the single use of a multiply, in its block;
 * a null operation otherwise. */
static MlirOperation sole_add_user(MlirOperation mul) {
  MlirOperation none = {NULL};
  MlirOpOperand use = mlirValueGetFirstUse(mlirOperationGetResult(mul, 0));
  if (mlirOpOperandIsNull(use) || !mlirOpOperandIsNull(mlirOpOperandGetNextUse(use)))
    return none;
  MlirOperation user = mlirOpOperandGetOwner(use);
  if (!is_add(user) || !mlirBlockEqual(mlirOperationGetBlock(user), mlirOperationGetBlock(mul)))
    return none;
  return user;
}

static MlirWalkResult contract_op(MlirOperation op, void *ud) {
  const struct contract *c = ud;
  if (c->mode == FP_CONTRACT_FAST) {
    if ((is_add(op) || is_mul(op)) && flagless(c, op))
      mark(c, op);
    return MlirWalkResultAdvance;
  }
  if (!is_mul(op) || !flagless(c, op))
    return MlirWalkResultAdvance;
  MlirOperation add = sole_add_user(op);
  if (!mlirOperationIsNull(add) && flagless(c, add)) {
    mark(c, op);
    mark(c, add);
  }
  return MlirWalkResultAdvance;
}

void lowering_contract_fp(MlirOperation root, enum fp_contract mode) {
  if (mode == FP_CONTRACT_OFF)
    return;
  MlirContext ctx = mlirOperationGetContext(root);
  struct contract c = {mode, mlirAttributeParseGet(ctx, ref("#llvm.fastmath<none>")),
                       mlirAttributeParseGet(ctx, ref("#llvm.fastmath<contract>"))};
  if (mlirAttributeIsNull(c.none) || mlirAttributeIsNull(c.contract))
    return; /* the LLVM dialect is always loaded where this runs */
  mlirOperationWalk(root, contract_op, &c, MlirWalkPreOrder);
}
