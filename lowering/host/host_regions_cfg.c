/* host_regions_cfg.c: the control-flow graph, for the region split.
 *
 * The split's analyses (liveness in host_regions.c, uniformity, guards,
 * implicit barriers) all walk the step function's blocks as a graph of
 * indices; this file builds that graph once per question (blocks,
 * successors, predecessors, dominators, post-dominators) and makes the one
 * CFG edit the C API lacks, moving a phi's incoming edge. Kept apart so
 * that each analysis reads as what it decides, not how it walks. */
#include "host_regions_internal.h"

#include <stdlib.h>

/* Moves `first` and what follows it in its block to the end of `to`; the
 * successors of the moved terminator get `to` as their predecessor. */
void regions_move_tail(struct split *s, LLVMValueRef first, LLVMBasicBlockRef to) {
  LLVMBasicBlockRef from = LLVMGetInstructionParent(first);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(s->rw->c);
  LLVMPositionBuilderAtEnd(b, to);
  for (LLVMValueRef i = first, next; i; i = next) {
    next = LLVMGetNextInstruction(i);
    LLVMInstructionRemoveFromParent(i);
    LLVMInsertIntoBuilder(b, i);
  }
  LLVMDisposeBuilder(b);
  LLVMValueRef term = LLVMGetBasicBlockTerminator(to);
  for (unsigned k = 0, n = term ? LLVMGetNumSuccessors(term) : 0; k < n; k++) {
    LLVMBasicBlockRef succ = LLVMGetSuccessor(term, k);
    int seen = 0;
    for (unsigned j = 0; j < k; j++)
      seen |= LLVMGetSuccessor(term, j) == succ;
    if (!seen)
      regions_retarget_phis(s, succ, from, to);
  }
}

/* Phis of succ that name `from` as a predecessor name `to` instead (the C
 * API cannot set a phi's incoming block: the phi is rebuilt). */
void regions_retarget_phis(struct split *s, LLVMBasicBlockRef succ, LLVMBasicBlockRef from,
                           LLVMBasicBlockRef to) {
  LLVMBuilderRef b = LLVMCreateBuilderInContext(s->rw->c);
  for (LLVMValueRef phi = LLVMGetFirstInstruction(succ), next; phi && LLVMIsAPHINode(phi); phi = next) {
    next = LLVMGetNextInstruction(phi);
    unsigned n = LLVMCountIncoming(phi);
    int hit = 0;
    for (unsigned k = 0; k < n; k++)
      hit |= LLVMGetIncomingBlock(phi, k) == from;
    if (!hit)
      continue;
    LLVMPositionBuilderBefore(b, phi);
    LLVMValueRef np = LLVMBuildPhi(b, LLVMTypeOf(phi), "");
    for (unsigned k = 0; k < n; k++) {
      LLVMValueRef v = LLVMGetIncomingValue(phi, k);
      LLVMBasicBlockRef in = LLVMGetIncomingBlock(phi, k);
      if (in == from)
        in = to;
      LLVMAddIncoming(np, &v, &in, 1);
    }
    LLVMReplaceAllUsesWith(phi, np);
    LLVMInstructionEraseFromParent(phi);
  }
  LLVMDisposeBuilder(b);
}

/* s->blocks and s->bix: the blocks of fn, in order. */
void regions_index_blocks(struct split *s) {
  size_t nb = 0;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(s->fn); bb; bb = LLVMGetNextBasicBlock(bb))
    nb++;
  s->blocks = xcalloc(nb, sizeof *s->blocks);
  pm_init(&s->bix, nb);
  s->nblocks = 0;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(s->fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
    pm_put(&s->bix, bb, s->nblocks);
    s->blocks[s->nblocks++] = bb;
  }
}

/* Successor indices of block bi (into s->blocks); *n of them. */
size_t *regions_successors(struct split *s, size_t bi, size_t *n) {
  LLVMValueRef term = LLVMGetBasicBlockTerminator(s->blocks[bi]);
  unsigned k = term ? LLVMGetNumSuccessors(term) : 0;
  size_t *out = xcalloc(k, sizeof *out);
  *n = 0;
  for (unsigned j = 0; j < k; j++) {
    long si = pm_get(&s->bix, LLVMGetSuccessor(term, j));
    if (si >= 0)
      out[(*n)++] = (size_t)si;
  }
  return out;
}

/* Immediate dominators (Cooper, Harvey and Kennedy's iteration) of a graph
 * of n nodes: fwd[x] (nfwd[x] of them) are the edges out of x, back[x] the
 * edges into it. NONE for the root's own and for nodes it does not reach. */
size_t *regions_idom_tree(size_t n, size_t root, size_t **fwd, const size_t *nfwd, size_t **back,
                          const size_t *nback) {
  /* Postorder from the root. */
  size_t *po = xcalloc(n, sizeof *po), *order = xcalloc(n, sizeof *order), norder = 0;
  size_t *stack = xcalloc(n, sizeof *stack), *next = xcalloc(n, sizeof *next);
  unsigned char *seen = xcalloc(n, 1);
  size_t sp = 0;
  stack[sp++] = root;
  seen[root] = 1;
  while (sp) {
    size_t x = stack[sp - 1];
    if (next[x] < nfwd[x]) {
      size_t y = fwd[x][next[x]++];
      if (!seen[y]) {
        seen[y] = 1;
        stack[sp++] = y;
      }
      continue;
    }
    sp--;
    po[x] = norder;
    order[norder++] = x;
  }
  size_t *idom = xcalloc(n, sizeof *idom);
  for (size_t b = 0; b < n; b++)
    idom[b] = NONE;
  idom[root] = root;
  for (int changed = 1; changed;) {
    changed = 0;
    for (size_t i = norder; i-- > 0;) {
      size_t x = order[i];
      if (x == root)
        continue;
      size_t nd = NONE;
      for (size_t k = 0; k < nback[x]; k++) {
        size_t y = back[x][k];
        if (idom[y] == NONE)
          continue;
        if (nd == NONE) {
          nd = y;
          continue;
        }
        size_t a = y, c = nd;
        while (a != c) {
          while (po[a] < po[c])
            a = idom[a];
          while (po[c] < po[a])
            c = idom[c];
        }
        nd = a;
      }
      if (nd != idom[x]) {
        idom[x] = nd;
        changed = 1;
      }
    }
  }
  idom[root] = NONE;
  free(po), free(order), free(stack), free(next), free(seen);
  return idom;
}

/* The predecessors of each block, from succ: *npred_out gets their counts.
 * With `exit`, node nb is a virtual exit that every block without
 * successors leads to (its predecessors are those blocks). */
size_t **regions_predecessors(size_t nb, size_t **succ, const size_t *nsucc, int exit,
                              size_t **npred_out) {
  size_t n = nb + (exit ? 1 : 0);
  size_t *npred = xcalloc(n, sizeof *npred), **pred = xcalloc(n, sizeof *pred);
  for (int pass = 0; pass < 2; pass++) {
    for (size_t b = 0; b < n; b++) {
      if (pass == 0)
        continue;
      pred[b] = xcalloc(npred[b], sizeof **pred);
      npred[b] = 0;
    }
    for (size_t b = 0; b < nb; b++) {
      for (size_t k = 0; k < nsucc[b]; k++) {
        if (pass)
          pred[succ[b][k]][npred[succ[b][k]]] = b;
        npred[succ[b][k]]++;
      }
      if (exit && !nsucc[b]) {
        if (pass)
          pred[nb][npred[nb]] = b;
        npred[nb]++;
      }
    }
  }
  *npred_out = npred;
  return pred;
}

/* Immediate post-dominators: node nb is a virtual exit after every block
 * without successors; NONE for a block from which no exit is reachable,
 * nb for one whose only post-dominator is that exit. */
size_t *regions_post_dominators(struct split *s, size_t **succ, size_t *nsucc) {
  size_t nb = s->nblocks, *npred;
  size_t **pred = regions_predecessors(nb, succ, nsucc, 1, &npred);
  /* On the reversed graph: into a block come its successors, and the exit
   * into the blocks that end the function. */
  size_t **into = xcalloc(nb + 1, sizeof *into), *ninto = xcalloc(nb + 1, sizeof *ninto);
  size_t exit = nb;
  for (size_t b = 0; b < nb; b++) {
    into[b] = nsucc[b] ? succ[b] : &exit;
    ninto[b] = nsucc[b] ? nsucc[b] : 1;
  }
  size_t *ipdom = regions_idom_tree(nb + 1, nb, pred, npred, into, ninto);
  for (size_t b = 0; b <= nb; b++)
    free(pred[b]);
  free(pred), free(npred), free(into), free(ninto);
  return ipdom;
}
