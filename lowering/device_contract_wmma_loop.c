/* device_contract_wmma_loop.c: a matmul's k-loop of warp-uniform
 * contractions as wmma, the accumulator a fragment across iterations.
 *
 * The usual form of a tiled matmul
 *
 *   %r = scf.for %k = %lb to %ub step %s iter_args(%acc = %init) {
 *     %a = transfer_read A tile, %b = transfer_read B tile (at %k)
 *     %p = vector.contract %a, %b, %acc
 *     scf.yield %p
 *   }
 *   transfer_write %r, D tile
 *
 * becomes, when device_contract_wmma.c's conditions hold for the
 * contraction (types, maps, uniform tiles), the loop carries nothing else,
 * the body writes no memory between the tiles' reads and the contraction
 * (it may stage the tiles in workgroup memory before them), and the init
 * is a splat or a tile read before the loop:
 *
 *   scf.if (tiles aligned for every %k && whole warp) {
 *     %f = scf.for ... iter_args(%acc = C fragment) { load A, B; compute }
 *     store %f to D once
 *   } else { the loop and the write as written }
 *
 * The condition is decided before the loop, so the A and B tiles' indices
 * must be loop-invariant, %k, or %k plus an invariant: then a tile's
 * address moves by step times the dimension's stride per iteration, and
 * checking the first iteration's address and that move covers all. D's
 * memref and indices must be defined before the loop. */
#include "device_contract_wmma_internal.h"

#include "ir.h"

#include <mlir-c/BuiltinTypes.h>

#define MAX_RANK 16

/* Whether v is defined outside `loop` (not in its body or nested in it). */
static int outside(MlirValue v, MlirOperation loop) {
  MlirOperation op = mlirValueIsABlockArgument(v) ? mlirBlockGetParentOperation(mlirBlockArgumentGetOwner(v))
                                                  : mlirOpResultGetOwner(v);
  if (mlirValueIsABlockArgument(v) && mlirOperationEqual(op, loop))
    return 0;
  for (; !mlirOperationIsNull(op); op = mlirOperationGetParentOperation(op))
    if (mlirOperationEqual(mlirOperationGetParentOperation(op), loop))
      return 0;
  return 1;
}

/* Whether v, used after `loop` in its block, is defined before it. */
static int before_loop(MlirValue v, MlirOperation loop) {
  if (mlirValueIsABlockArgument(v))
    return outside(v, loop);
  MlirOperation def = mlirOpResultGetOwner(v);
  if (mlirBlockEqual(mlirOperationGetBlock(def), mlirOperationGetBlock(loop)))
    return mlirOperationIsBeforeInBlock(def, loop);
  return outside(v, loop);
}

/* How index v of an A or B tile moves with the induction variable iv:
 * 0 invariant, 1 iv or iv + an invariant; -1 otherwise. */
static int index_form(MlirValue v, MlirValue iv, MlirOperation loop) {
  if (mlirValueEqual(v, iv))
    return 1;
  if (outside(v, loop))
    return 0;
  if (mlirValueIsAOpResult(v) && ir_op_is(mlirOpResultGetOwner(v), "arith.addi")) {
    MlirOperation add = mlirOpResultGetOwner(v);
    MlirValue x = mlirOperationGetOperand(add, 0), y = mlirOperationGetOperand(add, 1);
    if ((mlirValueEqual(x, iv) && outside(y, loop)) || (mlirValueEqual(y, iv) && outside(x, loop)))
      return 1;
  }
  return -1;
}

/* The tile read that operand i of contract is, past its extension. */
static MlirOperation read_of(MlirOperation contract, int i) {
  MlirValue v = mlirOperationGetOperand(contract, i);
  MlirOperation def = mlirOpResultGetOwner(v);
  if (!ir_op_is(def, "vector.transfer_read"))
    def = mlirOpResultGetOwner(mlirOperationGetOperand(def, 0));
  return def;
}

/* Whether tile t (A or B) is read in the loop's body at indices that are
 * invariant or move with iv along a dimension of static stride. */
static int loop_tile(const struct match *m, const struct tile *t, MlirValue iv) {
  int64_t strides[MAX_RANK], offset;
  if (!mlirBlockEqual(mlirOperationGetBlock(t->op), mlirOperationGetBlock(m->contract)) ||
      !outside(t->memref, m->loop) || t->rank > MAX_RANK ||
      mlirLogicalResultIsFailure(mlirMemRefTypeGetStridesAndOffset(mlirValueGetType(t->memref), strides, &offset)))
    return 0;
  for (intptr_t d = 0; d < t->rank; d++) {
    int f = index_form(mlirOperationGetOperand(t->op, t->first_index + d), iv, m->loop);
    if (f < 0 || (f == 1 && mlirShapedTypeIsDynamicStrideOrOffset(strides[d])))
      return 0;
  }
  return 1;
}

int wmma_match_loop(struct match *m) {
  MlirValue r = mlirOperationGetResult(m->contract, 0);
  MlirOpOperand use = mlirValueGetFirstUse(r);
  MlirOperation yield = mlirOpOperandGetOwner(use);
  MlirBlock body = mlirOperationGetBlock(m->contract);
  MlirOperation loop = mlirOperationGetParentOperation(yield);
  if (!ir_op_is(loop, "scf.for") || !mlirBlockEqual(mlirOperationGetBlock(yield), body) ||
      mlirOperationGetNumResults(loop) != 1 || mlirOpOperandGetOperandNumber(use) != 0)
    return 0;
  m->loop = loop;
  /* the accumulator: the loop's one iter_arg, used by the contraction only */
  MlirValue iv = mlirBlockGetArgument(body, 0), acc = mlirBlockGetArgument(body, 1);
  MlirOpOperand au = mlirValueGetFirstUse(acc);
  if (!mlirValueEqual(mlirOperationGetOperand(m->contract, 2), acc) ||
      !mlirOpOperandIsNull(mlirOpOperandGetNextUse(au)))
    return 0;
  for (int i = A; i <= B; i++) {
    if (!loop_tile(m, &m->t[i], iv))
      return 0;
    if (!mlirOperationIsNull(m->ext[i]) &&
        !mlirBlockEqual(mlirOperationGetBlock(m->ext[i]), body))
      return 0;
  }
  /* no memory written from the tiles' reads to the contraction, where
   * the warp loads them (the body may stage them before: it runs as
   * written in both versions) */
  MlirOperation first = m->t[A].op;
  if (mlirOperationIsBeforeInBlock(m->t[B].op, first))
    first = m->t[B].op;
  for (MlirOperation op = first; !mlirOperationEqual(op, m->contract); op = mlirOperationGetNextInBlock(op))
    if (!wmma_writes_nothing(op))
      return 0;
  /* the init: a splat or a tile read before the loop, in its block */
  if (!wmma_match_accumulator(m, mlirOperationGetOperand(loop, 3)))
    return 0;
  MlirBlock outer = mlirOperationGetBlock(loop);
  first = loop;
  if (!mlirOperationIsNull(m->t[C].op)) {
    if (!mlirBlockEqual(mlirOperationGetBlock(m->t[C].op), outer))
      return 0;
    first = m->t[C].op;
  }
  /* the result: one use, a tile write after the loop whose operands are
   * there before it */
  MlirValue res = mlirOperationGetResult(loop, 0);
  MlirOpOperand ru = mlirValueGetFirstUse(res);
  if (mlirOpOperandIsNull(ru) || !mlirOpOperandIsNull(mlirOpOperandGetNextUse(ru)) ||
      mlirOpOperandGetOperandNumber(ru) != 0 || !wmma_tile_access(mlirOpOperandGetOwner(ru), 1, m->acc, &m->t[D]) ||
      !mlirBlockEqual(mlirOperationGetBlock(m->t[D].op), outer))
    return 0;
  for (intptr_t i = 1; i < mlirOperationGetNumOperands(m->t[D].op); i++)
    if (!before_loop(mlirOperationGetOperand(m->t[D].op, i), loop))
      return 0;
  /* no memory written from the init's read to the write but by the loop */
  for (MlirOperation op = first; !mlirOperationEqual(op, m->t[D].op); op = mlirOperationGetNextInBlock(op))
    if (!mlirOperationEqual(op, loop) && !wmma_writes_nothing(op))
      return 0;
  return 1;
}

/* i1 before the loop: tile t (A or B, in the body) starts on 32 bytes in
 * every iteration. */
static MlirValue loop_tile_aligned(const struct match *m, const struct tile *t) {
  MlirOperation at = m->loop;
  MlirBlock body = mlirOperationGetBlock(m->contract);
  MlirValue iv = mlirBlockGetArgument(body, 0);
  MlirValue lb = mlirOperationGetOperand(at, 0), step = mlirOperationGetOperand(at, 2);
  MlirValue index[MAX_RANK];
  int64_t strides[MAX_RANK], offset, bytes = ir_element_bytes(t->elem);
  /* loop_tile checked the rank and the strides */
  mlirMemRefTypeGetStridesAndOffset(mlirValueGetType(t->memref), strides, &offset);
  MlirValue cond = {NULL};
  for (intptr_t d = 0; d < t->rank; d++) {
    MlirValue v = mlirOperationGetOperand(t->op, t->first_index + d);
    if (index_form(v, iv, m->loop) == 0) {
      index[d] = v;
      continue;
    }
    /* iv or iv + x: at the first iteration lb or lb + x */
    if (mlirValueEqual(v, iv)) {
      index[d] = lb;
    } else {
      MlirOperation add = mlirOpResultGetOwner(v);
      MlirValue x = mlirOperationGetOperand(add, 0);
      if (mlirValueEqual(x, iv))
        x = mlirOperationGetOperand(add, 1);
      index[d] = wmma_binary(at, "arith.addi", lb, x);
    }
    /* and it moves by step * stride elements */
    MlirValue move = wmma_binary(at, "arith.muli", step, wmma_index_const(at, strides[d] * bytes));
    cond = wmma_and(at, cond, wmma_multiple_of(at, move, WMMA_ALIGN));
  }
  return wmma_and(at, cond, wmma_tile_aligned(at, t, index));
}

/* The warp's loop: a clone of the loop whose iter_arg is the fragment. */
static int build_loop(const struct match *m, MlirOperation then_yield) {
  MlirType frag = wmma_acc_type(m);
  MlirValue init = wmma_load_acc(then_yield, m, &m->t[C]);
  MlirOperation loop = mlirOperationClone(m->loop);
  mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(then_yield), then_yield, loop);
  mlirOperationSetOperand(loop, 3, init);
  mlirValueSetType(mlirOperationGetResult(loop, 0), frag);
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(loop, 0));
  MlirValue acc = mlirBlockGetArgument(body, 1);
  mlirValueSetType(acc, frag);
  MlirOperation contract = mlirOpOperandGetOwner(mlirValueGetFirstUse(acc));
  struct tile t[2] = {m->t[A], m->t[B]};
  MlirOperation dead[4];
  int ndead = 0;
  for (int i = A; i <= B; i++) {
    MlirOperation read = read_of(contract, i);
    MlirOperation ext = mlirOpResultGetOwner(mlirOperationGetOperand(contract, i));
    if (!mlirOperationEqual(ext, read))
      dead[ndead++] = ext;
    dead[ndead++] = read;
    t[i].op = read;
    t[i].memref = mlirOperationGetOperand(read, 0);
  }
  MlirValue d = wmma_multiply(contract, m, &t[A], &t[B], acc);
  if (mlirValueIsNull(d))
    return ir_error_at(m->contract, "internal: cannot build the warp's multiply");
  mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(contract, 0), d);
  mlirOperationDestroy(contract);
  for (int i = 0; i < ndead; i++)
    if (mlirOpOperandIsNull(mlirValueGetFirstUse(mlirOperationGetResult(dead[i], 0))))
      mlirOperationDestroy(dead[i]);
  wmma_store(then_yield, &m->t[D], mlirOperationGetResult(loop, 0));
  return 0;
}

int wmma_rewrite_loop(const struct match *m) {
  MlirOperation at = m->loop;
  MlirValue cond = {NULL};
  for (int i = A; i <= B; i++) {
    cond = wmma_and(at, cond, loop_tile_aligned(m, &m->t[i]));
  }
  for (int i = C; i <= D; i++)
    if (!mlirOperationIsNull(m->t[i].op))
      cond = wmma_and(at, cond, wmma_tile_aligned(at, &m->t[i], NULL));
  cond = wmma_and(at, cond, wmma_whole_warp(at, m->kernel));
  MlirOperation then_yield, else_yield;
  ir_if_before(at, cond, (MlirType){NULL}, &then_yield, &else_yield);
  if (build_loop(m, then_yield) != 0)
    return -1;
  /* the per-thread version: the C read (unless used elsewhere), the loop
   * and the write */
  MlirOperation moved[3];
  size_t k = 0;
  if (!mlirOperationIsNull(m->t[C].op) && wmma_used_only_by(m->t[C].op, &m->loop, 1))
    moved[k++] = m->t[C].op;
  moved[k++] = m->loop;
  moved[k++] = m->t[D].op;
  for (size_t i = 0; i < k; i++)
    mlirOperationMoveBefore(moved[i], else_yield);
  return 0;
}
