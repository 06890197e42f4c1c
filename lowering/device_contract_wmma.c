/* device_contract_wmma.c: warp-uniform vector.contract as wmma on NVIDIA.
 *
 * In a kernel each thread computes a vector.contract on its own. A 16x16x16
 * matmul contraction whose tiles every lane of a warp reads from the same
 * addresses and writes to the same address is the same computation as one
 * tensor-core multiply that the warp does together (gpu.subgroup_mma_*,
 * which LLVM lowers to wmma): each element of the result is written once
 * instead of 32 times with one value. Upstream's convert-vector-to-gpu does
 * this rewrite for every contraction it can, assuming the warp-level
 * meaning; gpucc's contractions have the per-thread one, so the rewrite is
 * done here only where that changes nothing:
 *
 * - the shape: iterators parallel, parallel, reduction, kind add, 16x16
 *   tiles, maps (m,k), (k,n), (m,n), or A as (k,m) or B as (n,k); A and B
 *   read as they are or transposed (permutation_map (d1, d0)): an operand
 *   transposed once is loaded column-major (the loads' `transpose`);
 * - the types (the operands read as they are, or extended to the
 *   accumulator's type as contract_widen.c writes a mixed contraction; a
 *   mixed one not yet widened extends as that does, integers signed), on
 *   chips that have them:
 *     f16 x f16 -> f16 or f32 (extf)               sm_70
 *     si8 x si8 -> i32 (extsi), ui8 x ui8 (extui)   sm_72
 *     bf16 x bf16 -> f32 (extf)                    sm_80
 *   (device_wmma_build.c: bf16 goes to LLVM's intrinsics, as LLVM 22's
 *   gpu.subgroup_mma takes no bf16). Anything else keeps the per-thread
 *   path: f32 or f64 operands, bf16 into bf16, 8-bit operands of mixed
 *   signs, other chips (correct, without tensor cores). The chip is the
 *   gpu.module's #nvvm.target; none: sm_70's f16 only;
 * - the accumulator: a tile read, a splat constant or a broadcast
 *   warp-uniform scalar, the result used only by one transfer_write; or
 *   the k-loop of a matmul, the accumulator an scf.for iter_arg
 *   (device_contract_wmma_loop.c);
 * - the accesses: transfer_read/write in bounds, unmasked, of the last two
 *   dimensions of a global or workgroup memref with unit last stride and a
 *   static row stride that wmma takes (a multiple of 16 bytes, at least a
 *   row);
 * - uniformity (device_warp_uniform.c): memrefs and indices the same in
 *   every lane, the ops in uniform control flow of the kernel;
 * - nothing between the first read and the write writes memory (the wmma
 *   loads happen at the write), all in one block.
 *
 * At run time the tiles must start on 32 bytes, as wmma requires, and the
 * warp must be whole: a warp of a block whose size is not a multiple of 32
 * lacks lanes (all lanes active: nvvm activemask is all ones; a kernel's
 * known_block_size can prove it instead). The rewrite is
 *
 *   scf.if (aligned && whole warp) { gpu.subgroup_mma_load_matrix ...,
 *     gpu.subgroup_mma_compute, gpu.subgroup_mma_store_matrix }
 *   else { the transfers and the contraction, per thread, as written }
 *
 * whose condition is itself the same in every lane. Results may differ in
 * the last bits: the tensor core sums in its own order and precision, as
 * any reassociation of the sum (-ffp-contract=fast) may; integer sums wrap
 * alike. */
#include "device_contract_wmma.h"

#include "device_contract_wmma_internal.h"
#include "device_warp_uniform.h"
#include "ir.h"

#include <mlir-c/AffineExpr.h>
#include <mlir-c/AffineMap.h>
#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The chip assumed without a target: the first with wmma (f16). */
#define BASE_CHIP 70


/* The ops of the match in its block (the write last), *n of them. */
static void match_ops(const struct match *m, MlirOperation *ops, size_t *n) {
  size_t k = 0;
  for (int i = A; i <= C; i++)
    if (!mlirOperationIsNull(m->t[i].op))
      ops[k++] = m->t[i].op;
  for (int i = 0; i < 2; i++)
    if (!mlirOperationIsNull(m->ext[i]))
      ops[k++] = m->ext[i];
  ops[k++] = m->contract;
  ops[k++] = m->t[D].op;
  /* in block order (a handful: insertion sort) */
  for (size_t i = 1; i < k; i++)
    for (size_t j = i; j > 0 && mlirOperationIsBeforeInBlock(ops[j], ops[j - 1]); j--) {
      MlirOperation x = ops[j];
      ops[j] = ops[j - 1];
      ops[j - 1] = x;
    }
  *n = k;
}

/* All of the match in one block, and no memory written from its first op
 * to the write. */
static int one_quiet_block(const struct match *m) {
  MlirOperation ops[7];
  size_t n;
  MlirBlock block = mlirOperationGetBlock(m->contract);
  for (int i = A; i <= D; i++)
    if (!mlirOperationIsNull(m->t[i].op) && !mlirBlockEqual(mlirOperationGetBlock(m->t[i].op), block))
      return 0;
  for (int i = 0; i < 2; i++)
    if (!mlirOperationIsNull(m->ext[i]) && !mlirBlockEqual(mlirOperationGetBlock(m->ext[i]), block))
      return 0;
  match_ops(m, ops, &n);
  if (!mlirOperationEqual(ops[n - 1], m->t[D].op))
    return 0;
  for (MlirOperation op = ops[0]; !mlirOperationEqual(op, m->t[D].op); op = mlirOperationGetNextInBlock(op))
    if (!wmma_writes_nothing(op))
      return 0;
  return 1;
}

/* The indexing maps: A (m,k) or (k,m), B (k,n) or (n,k), C (m,n); sets
 * the operands' transpose. */
static int match_maps(struct match *m) {
  static const char *const a_maps[] = {"(d0, d2)", "(d2, d0)"}, *const b_maps[] = {"(d2, d1)", "(d1, d2)"};
  for (int ta = 0; ta < 2; ta++)
    for (int tb = 0; tb < 2; tb++) {
      char want[256];
      snprintf(want, sizeof want,
               "[affine_map<(d0, d1, d2) -> %s>, affine_map<(d0, d1, d2) -> %s>, "
               "affine_map<(d0, d1, d2) -> (d0, d1)>]",
               a_maps[ta], b_maps[tb]);
      if (wmma_attr_is(m->contract, "indexing_maps", want)) {
        m->t[A].transpose = ta;
        m->t[B].transpose = tb;
        return 1;
      }
    }
  return 0;
}

static int match_contract(MlirOperation op, int chip, struct match *m) {
  memset(m, 0, sizeof *m);
  m->contract = op;
  if (mlirOperationGetNumOperands(op) != 3 || mlirOperationGetNumResults(op) != 1 ||
      !wmma_attr_is(op, "kind", "#vector.kind<add>") || !match_maps(m) ||
      !wmma_attr_is(op, "iterator_types",
                    "[#vector.iterator_type<parallel>, #vector.iterator_type<parallel>, "
                    "#vector.iterator_type<reduction>]"))
    return 0;
  if (!wmma_match_operands(m, chip))
    return 0;
  /* the result: one use, the value a transfer_write stores or the k-loop
   * yields */
  MlirValue r = mlirOperationGetResult(op, 0);
  MlirOpOperand use = mlirValueGetFirstUse(r);
  if (mlirOpOperandIsNull(use) || !mlirOpOperandIsNull(mlirOpOperandGetNextUse(use)))
    return 0;
  m->kernel = warp_uniform_kernel_of(op);
  if (mlirOperationIsNull(m->kernel))
    return 0;
  if (ir_op_is(mlirOpOperandGetOwner(use), "scf.yield"))
    return wmma_match_loop(m);
  if (mlirOpOperandGetOperandNumber(use) != 0 ||
      !wmma_match_accumulator(m, mlirOperationGetOperand(op, 2)) ||
      !wmma_tile_access(mlirOpOperandGetOwner(use), 1, m->acc, &m->t[D]))
    return 0;
  return one_quiet_block(m);
}

/* The per-thread version: the write and the contraction into the else
 * branch, with the reads and extensions that nothing else uses. */
static void move_per_thread(const struct match *m, MlirOperation else_yield) {
  MlirOperation ops[7], moved[7];
  size_t n, k = 0;
  match_ops(m, ops, &n);
  /* from the write backwards: an op moves when only moved ops use it */
  for (size_t i = n; i-- > 0;)
    if (mlirOperationEqual(ops[i], m->t[D].op) || wmma_used_only_by(ops[i], moved, k))
      moved[k++] = ops[i];
  for (size_t i = k; i-- > 0;)
    mlirOperationMoveBefore(moved[i], else_yield);
}

static int rewrite(const struct match *m) {
  MlirOperation at = m->t[D].op;
  MlirValue cond = {NULL};
  for (int i = A; i <= D; i++)
    if (!mlirOperationIsNull(m->t[i].op))
      cond = wmma_and(at, cond, wmma_tile_aligned(at, &m->t[i], NULL));
  cond = wmma_and(at, cond, wmma_whole_warp(at, m->kernel));
  MlirOperation then_yield, else_yield;
  ir_if_before(at, cond, (MlirType){NULL}, &then_yield, &else_yield);
  MlirValue c = wmma_load_acc(then_yield, m, &m->t[C]);
  MlirValue d = wmma_multiply(then_yield, m, &m->t[A], &m->t[B], c);
  if (mlirValueIsNull(d))
    return ir_error_at(at, "internal: cannot build the warp's multiply");
  wmma_store(then_yield, &m->t[D], d);
  move_per_thread(m, else_yield);
  return 0;
}

/* The gpu.module's chip (sm_XX as XX) from its #nvvm.target. */
static int module_chip(MlirOperation gpu_module) {
  MlirAttribute targets = mlirOperationGetAttributeByName(gpu_module, mlirStringRefCreateFromCString("targets"));
  if (mlirAttributeIsNull(targets))
    return BASE_CHIP;
  char text[512];
  ir_attr_text(targets, text, sizeof text);
  const char *chip = strstr(text, "chip = \"sm_");
  return chip ? atoi(chip + strlen("chip = \"sm_")) : BASE_CHIP;
}

int lowering_contract_to_wmma(MlirOperation gpu_module) {
  static const char *const names[] = {"vector.contract", NULL};
  MlirOperation *ops;
  size_t n = ir_find_ops(gpu_module, names, NULL, &ops);
  int done = 0, rc = 0, chip = module_chip(gpu_module);
  for (size_t i = 0; i < n; i++) {
    struct match m;
    if (rc == 0 && match_contract(ops[i], chip, &m)) {
      rc = mlirOperationIsNull(m.loop) ? rewrite(&m) : wmma_rewrite_loop(&m);
      done++;
    }
  }
  free(ops);
  return rc < 0 ? -1 : done;
}
