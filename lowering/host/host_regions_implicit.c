/* host_regions_implicit.c: implicit barriers in uniform loops, for the
 * region split.
 *
 * A loop that every thread runs the same number of times (its exits are
 * uniform, no divergent branch leads to it) and whose accesses go to
 * consecutive addresses in consecutive threads, or to one address for all,
 * runs faster with the loop over the threads inside it: `for k: for x:` is
 * a vector loop over x where `for x: for k:` is a scalar loop per thread (a
 * matrix product's dot products). A barrier at the top of the loop's header
 * does that, as PoCL's implicit loop barriers do: each iteration becomes a
 * round. A barrier that every thread reaches changes no result of a kernel
 * without data races. Left alone: loops that call anything (printf, whose
 * order would change), use atomics or private arrays, return, or have a
 * small constant bound (LLVM unrolls those into the loop over the threads
 * anyway), innermost loops only, and kernels not in lockstep. Blocks fewer
 * than IMPLICIT_MIN_X threads wide skip the barrier at run time (a uniform
 * branch): there a round per iteration costs more than the vector gains.
 *
 * It runs on the step before the split cuts it, so the barriers it adds are
 * cut like the kernel's own. Its own file because, like narrowing, it only
 * makes rounds faster: it needs uniformity, the graph helpers and the
 * effect test, and nothing in the split needs it. */
#include "host_regions_internal.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define IMPLICIT_MIN_X 16
#define IMPLICIT_MAX_LOOPS 4
#define NOT_AFFINE LONG_MIN

/* v(x + 1) - v(x) for threads x, x + 1 of a row: 0 for a uniform value or
 * one of tid.y, tid.z alone; NOT_AFFINE when not a known constant. */
static long x_stride(struct split *s, LLVMValueRef v, int depth) {
  if (!regions_divergent_operand(s, v))
    return 0;
  if (!LLVMIsAInstruction(v) || depth > 12)
    return NOT_AFFINE;
  const long big = 1L << 24;
  switch (LLVMGetInstructionOpcode(v)) {
  case LLVMLoad: {
    int d = regions_tid_load_dim(s, v);
    return d == 0 ? 1 : d > 0 ? 0 : NOT_AFFINE;
  }
  case LLVMSExt: case LLVMZExt: case LLVMTrunc:
    return x_stride(s, LLVMGetOperand(v, 0), depth + 1);
  case LLVMAdd: case LLVMSub: {
    long a = x_stride(s, LLVMGetOperand(v, 0), depth + 1), b = x_stride(s, LLVMGetOperand(v, 1), depth + 1);
    if (a == NOT_AFFINE || b == NOT_AFFINE)
      return NOT_AFFINE;
    long r = LLVMGetInstructionOpcode(v) == LLVMAdd ? a + b : a - b;
    return r > -big && r < big ? r : NOT_AFFINE;
  }
  case LLVMMul: case LLVMShl: {
    long a = x_stride(s, LLVMGetOperand(v, 0), depth + 1), b = x_stride(s, LLVMGetOperand(v, 1), depth + 1);
    if (a == NOT_AFFINE || b == NOT_AFFINE)
      return NOT_AFFINE;
    if (a == 0 && b == 0)
      return 0;
    LLVMValueRef c = LLVMGetOperand(v, a == 0 ? 0 : 1);
    if ((a != 0 && b != 0) || !LLVMIsAConstantInt(c))
      return NOT_AFFINE; /* times something unknown */
    long long k = LLVMConstIntGetSExtValue(c), x = a ? a : b;
    if (LLVMGetInstructionOpcode(v) == LLVMShl)
      k = a && k >= 0 && k < 24 ? 1LL << k : big;
    return k > -big && k < big && x * k > -big && x * k < big ? (long)(x * k) : NOT_AFFINE;
  }
  default:
    return NOT_AFFINE;
  }
}

/* An access through p that stays in one vector loop over x: one address
 * for all threads, or consecutive elements (*consecutive set). */
static int vector_access(struct split *s, LLVMValueRef p, int *consecutive) {
  if (!regions_divergent_operand(s, p))
    return 1;
  while (LLVMIsAAddrSpaceCastInst(p) || LLVMIsABitCastInst(p))
    p = LLVMGetOperand(p, 0);
  if (!LLVMIsAGetElementPtrInst(p) || LLVMGetNumOperands(p) != 2 || regions_divergent_operand(s, LLVMGetOperand(p, 0)))
    return 0;
  long st = x_stride(s, LLVMGetOperand(p, 1), 0);
  if (st == 1)
    *consecutive = 1;
  return st == 0 || st == 1;
}

/* Whether loop `body` (its blocks flagged) qualifies, header h. */
static int implicit_candidate(struct split *s, const unsigned char *body, size_t h, size_t **succ,
                              const size_t *nsucc) {
  if (s->apart[h])
    return 0;
  int consecutive = 0;
  for (size_t y = 0; y < s->nblocks; y++) {
    if (!body[y])
      continue;
    if (!nsucc[y])
      return 0; /* a return inside */
    for (size_t k = 0; k < nsucc[y]; k++) {
      if (body[succ[y][k]])
        continue;
      /* An exit: on a uniform condition, not a small constant bound. */
      LLVMValueRef term = LLVMGetBasicBlockTerminator(s->blocks[y]);
      if (LLVMGetInstructionOpcode(term) != LLVMBr || !LLVMIsConditional(term))
        return 0;
      LLVMValueRef c = LLVMGetCondition(term);
      if (regions_divergent_operand(s, c))
        return 0;
      if (LLVMIsAICmpInst(c))
        for (int j = 0; j < 2; j++) {
          LLVMValueRef o = LLVMGetOperand(c, j);
          if (LLVMIsAConstantInt(o) && LLVMConstIntGetSExtValue(o) >= -64 && LLVMConstIntGetSExtValue(o) <= 64 &&
              LLVMConstIntGetSExtValue(o) != 0)
            return 0;
        }
    }
    for (LLVMValueRef i = LLVMGetFirstInstruction(s->blocks[y]); i; i = LLVMGetNextInstruction(i)) {
      LLVMOpcode op = LLVMGetInstructionOpcode(i);
      if (op == LLVMLoad || op == LLVMStore) {
        if (LLVMGetVolatile(i) || LLVMGetOrdering(i) != LLVMAtomicOrderingNotAtomic ||
            !vector_access(s, LLVMGetOperand(i, op == LLVMLoad ? 0 : 1), &consecutive))
          return 0;
      } else if (regions_has_effect(i, 0)) {
        return 0; /* barriers */
      }
    }
  }
  return consecutive;
}

/* Before the split: puts the barriers in, at most IMPLICIT_MAX_LOOPS. */
void regions_implicit_barriers(struct split *s) {
  struct rewriter *rw = s->rw;
  /* Not with private arrays (they would move to scratch), shuffles (warps
   * are not in lockstep), nor anything whose order between threads shows:
   * a round per iteration would print, assert or count atomically in
   * another order than the kernel did so far. */
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(s->fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      int shuffle, sync = host_is_sync_call(i, &shuffle);
      if (LLVMIsAAllocaInst(i) || (sync && shuffle) ||
          (!sync && LLVMGetInstructionOpcode(i) != LLVMStore && regions_has_effect(i, 0)))
        return;
    }
  regions_index_blocks(s);
  regions_uniformity(s);
  size_t nb = s->nblocks, *npred;
  size_t **succ = xcalloc(nb, sizeof *succ), *nsucc = xcalloc(nb, sizeof *nsucc);
  for (size_t b = 0; b < nb; b++)
    succ[b] = regions_successors(s, b, &nsucc[b]);
  size_t **pred = regions_predecessors(nb, succ, nsucc, 0, &npred);
  size_t *idom = regions_idom_tree(nb, 0, succ, nsucc, pred, npred);
  /* A kernel whose barriers some divergent branch controls is not in
   * lockstep: a barrier per iteration would go through gpuccHostRound. */
  int ok = 1;
  for (size_t b = 0; b < nb && ok; b++)
    for (LLVMValueRef i = LLVMGetFirstInstruction(s->blocks[b]); i && ok; i = LLVMGetNextInstruction(i)) {
      int shuffle;
      if (host_is_sync_call(i, &shuffle) && s->apart[b])
        ok = 0;
    }
  /* Natural loops: a back edge x -> h, h dominating x. */
  unsigned char *header = xcalloc(nb, 1), *body = xcalloc(nb, 1);
  size_t *queue = xcalloc(nb, sizeof *queue), *chosen = xcalloc(IMPLICIT_MAX_LOOPS, sizeof *chosen);
  size_t nchosen = 0;
  for (size_t x = 0; x < nb; x++)
    for (size_t k = 0; k < nsucc[x]; k++)
      for (size_t d = x; d != NONE; d = idom[d])
        if (d == succ[x][k]) {
          header[d] = 1;
          break;
        }
  for (size_t h = 0; h < nb && ok && nchosen < IMPLICIT_MAX_LOOPS; h++) {
    if (!header[h])
      continue;
    /* The loop: h and what reaches a back edge into it without h. */
    memset(body, 0, nb);
    body[h] = 1;
    size_t nq = 0;
    for (size_t j = 0; j < npred[h]; j++) {
      size_t x = pred[h][j];
      int back = 0;
      for (size_t d = x; d != NONE && !back; d = idom[d])
        back = d == h;
      if (back && !body[x]) {
        body[x] = 1;
        queue[nq++] = x;
      }
    }
    while (nq) {
      size_t x = queue[--nq];
      for (size_t j = 0; j < npred[x]; j++)
        if (!body[pred[x][j]]) {
          body[pred[x][j]] = 1;
          queue[nq++] = pred[x][j];
        }
    }
    int inner = 1;
    for (size_t y = 0; y < nb && inner; y++)
      inner = !(body[y] && header[y] && y != h);
    if (inner && implicit_candidate(s, body, h, succ, nsucc))
      chosen[nchosen++] = h;
  }
  LLVMBasicBlockRef *heads = xcalloc(nchosen + 1, sizeof *heads);
  for (size_t k = 0; k < nchosen; k++)
    heads[k] = s->blocks[chosen[k]];
  for (size_t b = 0; b < nb; b++)
    free(succ[b]), free(pred[b]);
  free(succ), free(nsucc), free(pred), free(npred), free(idom), free(header), free(body), free(queue);
  free(chosen);
  pm_free(&s->dix), free(s->div), free(s->apart), free(s->blocks), pm_free(&s->bix);
  s->div = s->apart = NULL;
  s->blocks = NULL;
  s->nblocks = 0;

  /* h: phis, then `if (ntid.x >= IMPLICIT_MIN_X) barrier;`, then the rest. */
  LLVMBuilderRef b = LLVMCreateBuilderInContext(rw->c);
  LLVMTypeRef bp = rw->ptr;
  LLVMValueRef bfn = host_declare(rw, "gpuccHostBarrier", LLVMVoidTypeInContext(rw->c), &bp, 1);
  LLVMValueRef ctx = LLVMGetParam(s->fn, 0);
  for (size_t k = 0; k < nchosen; k++) {
    LLVMBasicBlockRef h = heads[k];
    LLVMValueRef first = LLVMGetFirstInstruction(h);
    while (LLVMIsAPHINode(first))
      first = LLVMGetNextInstruction(first);
    LLVMBasicBlockRef rest = LLVMAppendBasicBlockInContext(rw->c, s->fn, "implicit.rest");
    LLVMBasicBlockRef bar = LLVMAppendBasicBlockInContext(rw->c, s->fn, "implicit.barrier");
    regions_move_tail(s, first, rest);
    LLVMPositionBuilderAtEnd(b, h);
    LLVMValueRef wide = LLVMBuildICmp(b, LLVMIntUGE, host_ctx_field(rw, b, ctx, CTX_NTID, 0),
                                      LLVMConstInt(rw->i32, IMPLICIT_MIN_X, 0), "wide");
    LLVMBuildCondBr(b, wide, bar, rest);
    LLVMPositionBuilderAtEnd(b, bar);
    LLVMBuildCall2(b, LLVMGlobalGetValueType(bfn), bfn, &ctx, 1, "");
    LLVMBuildBr(b, rest);
  }
  LLVMDisposeBuilder(b);
  free(heads);
}
