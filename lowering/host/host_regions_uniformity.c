/* host_regions_uniformity.c: what is the same in every thread of a block,
 * for the region split.
 *
 * Which values are the same in every thread of a block (uniform) and which
 * may differ (divergent): the usual divergence analysis. The thread id is
 * divergent, and so is whatever memory holds, except the ctx fields no
 * kernel writes and every thread sees alike (block ids and sizes, the
 * workgroup base); an instruction with a divergent operand is divergent;
 * and a phi is divergent where control flow that diverged joins: in the
 * blocks reachable from a divergent branch before its immediate
 * post-dominator, and at that post-dominator. A loop with a divergent exit
 * thus makes its header's phis divergent, and with them all that varies
 * from one iteration to the next.
 *
 * A kernel is in lockstep when it has no shuffle and no divergent branch
 * reaches a barrier before its post-dominator: then every thread that has
 * not returned stops at the same barrier in each round, and a divergent
 * return ends every thread in that same round. That is the case in which
 * the block entry needs no stop codes and no gpuccHostRound, and in which a
 * uniform value live across a barrier can be kept once per block instead
 * of once per thread (rebuild in host_regions.c, the lockstep entry in
 * host_regions_entries.c).
 *
 * Its own file because three parts decide by it: the rebuild (lockstep,
 * uniform values), narrowing (uniform bounds) and implicit barriers
 * (uniform loops), and because it runs twice: on the step before the
 * implicit barriers go in, and on the split function. */
#include "host_regions_internal.h"

#include <stdlib.h>
#include <string.h>

/* Calls whose result depends on their operands alone. */
int regions_pure_call(LLVMValueRef call) {
  LLVMValueRef callee = LLVMGetCalledValue(call);
  if (!LLVMIsAFunction(callee))
    return 0;
  size_t len;
  const char *name = LLVMGetValueName2(callee, &len);
  static const char *const pure[] = {
      "__nv_", /* libdevice: math */
      "llvm.smax.", "llvm.smin.", "llvm.umax.", "llvm.umin.", "llvm.abs.", "llvm.fabs.",
      "llvm.sqrt.", "llvm.fma.", "llvm.fmuladd.", "llvm.minnum.", "llvm.maxnum.",
      "llvm.minimum.", "llvm.maximum.", "llvm.copysign.", "llvm.floor.", "llvm.ceil.",
      "llvm.trunc.", "llvm.rint.", "llvm.nearbyint.", "llvm.round.", "llvm.roundeven.",
      "llvm.ctlz.", "llvm.cttz.", "llvm.ctpop.", "llvm.fshl.", "llvm.fshr.", "llvm.bswap.",
      "llvm.bitreverse.", "llvm.sadd.with.overflow.", "llvm.uadd.with.overflow.",
      "llvm.ssub.with.overflow.", "llvm.usub.with.overflow.", "llvm.smul.with.overflow.",
      "llvm.umul.with.overflow.", "llvm.powi.",
  };
  for (size_t i = 0; i < sizeof pure / sizeof pure[0]; i++)
    if (starts_with(name, pure[i]))
      return 1;
  return 0;
}

/* A load of a ctx field that is the same in every thread of the block. */
static int uniform_ctx_load(struct split *s, LLVMValueRef load) {
  if (LLVMGetVolatile(load) || LLVMGetOrdering(load) != LLVMAtomicOrderingNotAtomic)
    return 0;
  LLVMValueRef p = LLVMGetOperand(load, 0);
  if (!LLVMIsAGetElementPtrInst(p) || LLVMGetOperand(p, 0) != LLVMGetParam(s->fn, 0) ||
      LLVMGetGEPSourceElementType(p) != s->rw->ctx_ty || LLVMGetNumOperands(p) < 3)
    return 0;
  LLVMValueRef i0 = LLVMGetOperand(p, 1), field = LLVMGetOperand(p, 2);
  if (!LLVMIsAConstantInt(i0) || LLVMConstIntGetZExtValue(i0) != 0 || !LLVMIsAConstantInt(field))
    return 0;
  switch (LLVMConstIntGetZExtValue(field)) {
  case CTX_CTAID: case CTX_NTID: case CTX_NCTAID: case CTX_SHARED:
    return 1;
  default:
    return 0;
  }
}

int regions_divergent_operand(struct split *s, LLVMValueRef op) {
  if (LLVMIsAInstruction(op)) {
    long d = pm_get(&s->dix, op);
    return d < 0 || s->div[d];
  }
  return op == step_param(s->fn, STEP_T);
}

static int divergent(struct split *s, LLVMValueRef i, const unsigned char *joins) {
  switch (LLVMGetInstructionOpcode(i)) {
  case LLVMPHI: {
    if (joins[pm_get(&s->bix, LLVMGetInstructionParent(i))])
      return 1;
    for (unsigned k = 0, n = LLVMCountIncoming(i); k < n; k++)
      if (regions_divergent_operand(s, LLVMGetIncomingValue(i, k)))
        return 1;
    return 0;
  }
  case LLVMLoad:
    return !uniform_ctx_load(s, i);
  case LLVMCall:
    if (!regions_pure_call(i))
      return 1;
    break;
  case LLVMAlloca: case LLVMAtomicRMW: case LLVMAtomicCmpXchg: case LLVMInvoke: case LLVMVAArg:
  case LLVMLandingPad: case LLVMCallBr:
    return 1;
  default:
    break;
  }
  for (int k = 0, n = LLVMGetNumOperands(i); k < n; k++) {
    LLVMValueRef op = LLVMGetOperand(i, k);
    if (!LLVMIsABasicBlock(op) && regions_divergent_operand(s, op))
      return 1;
  }
  return 0;
}

/* Fills s->div and s->lockstep; the function is split, its stops known. */
void regions_uniformity(struct split *s) {
  size_t nb = s->nblocks, ni = 0;
  for (size_t b = 0; b < nb; b++)
    for (LLVMValueRef i = LLVMGetFirstInstruction(s->blocks[b]); i; i = LLVMGetNextInstruction(i))
      ni++;
  pm_init(&s->dix, ni);
  s->div = xcalloc(ni, 1);
  s->apart = xcalloc(nb, 1);
  ni = 0;
  for (size_t b = 0; b < nb; b++)
    for (LLVMValueRef i = LLVMGetFirstInstruction(s->blocks[b]); i; i = LLVMGetNextInstruction(i))
      pm_put(&s->dix, i, ni++);
  size_t **succ = xcalloc(nb, sizeof *succ), *nsucc = xcalloc(nb, sizeof *nsucc);
  for (size_t b = 0; b < nb; b++)
    succ[b] = regions_successors(s, b, &nsucc[b]);
  size_t *ipdom = regions_post_dominators(s, succ, nsucc);
  unsigned char *joins = xcalloc(nb, 1), *branched = xcalloc(nb, 1), *region = xcalloc(nb, 1);
  unsigned char *heads = xcalloc(nb, 1);
  size_t *queue = xcalloc(nb, sizeof *queue);
  s->lockstep = 1;
  for (size_t k = 0; k < s->nstops; k++) {
    heads[pm_get(&s->bix, s->stops[k].head)] = 1;
    if (s->stops[k].shuffle)
      s->lockstep = 0; /* warps go their own ways between barriers */
  }
  for (int changed = 1; changed;) {
    changed = 0;
    for (size_t b = 0; b < nb; b++)
      for (LLVMValueRef i = LLVMGetFirstInstruction(s->blocks[b]); i; i = LLVMGetNextInstruction(i)) {
        size_t d = (size_t)pm_get(&s->dix, i);
        if (!s->div[d] && LLVMGetTypeKind(LLVMTypeOf(i)) != LLVMVoidTypeKind && divergent(s, i, joins)) {
          s->div[d] = 1;
          changed = 1;
        }
      }
    for (size_t b = 0; b < nb; b++) {
      LLVMValueRef term = LLVMGetBasicBlockTerminator(s->blocks[b]);
      if (branched[b] || !term || nsucc[b] < 2)
        continue;
      LLVMOpcode op = LLVMGetInstructionOpcode(term);
      LLVMValueRef cond = op == LLVMBr ? LLVMGetCondition(term)
                          : op == LLVMSwitch ? LLVMGetOperand(term, 0) : NULL;
      if (cond && !regions_divergent_operand(s, cond))
        continue;
      /* A divergent branch: what it reaches before its post-dominator is
       * where threads may be apart. */
      branched[b] = 1;
      changed = 1;
      size_t stop = ipdom[b], nq = 0;
      memset(region, 0, nb);
      for (size_t k = 0; k < nsucc[b]; k++)
        if (succ[b][k] != stop && !region[succ[b][k]]) {
          region[succ[b][k]] = 1;
          queue[nq++] = succ[b][k];
        }
      while (nq) {
        size_t x = queue[--nq];
        joins[x] = 1;
        s->apart[x] = 1;
        if (heads[x])
          s->lockstep = 0;
        for (size_t k = 0; k < nsucc[x]; k++)
          if (succ[x][k] != stop && !region[succ[x][k]]) {
            region[succ[x][k]] = 1;
            queue[nq++] = succ[x][k];
          }
      }
      if (stop != NONE && stop < nb)
        joins[stop] = 1;
    }
  }
  for (size_t b = 0; b < nb; b++)
    free(succ[b]);
  free(succ), free(nsucc), free(ipdom), free(joins), free(branched), free(region), free(heads);
  free(queue);
}

int regions_is_divergent(struct split *s, LLVMValueRef v) {
  long d = pm_get(&s->dix, v);
  return d < 0 || s->div[d];
}
