/* host_regions_narrowing.c: narrowing the loop over the threads, for the
 * region split.
 *
 * A tree reduction's `if (tid < s)` leaves most threads of its rounds idle,
 * and a loop over all of them that tests each costs more than the work
 * (LLVM does not split a loop at such a test). In lockstep the block entry
 * runs, in each row of the block, threads x = 0 .. B-1 only, where B is the
 * bound of a guard: a branch on `tid.x < U` with U uniform (also <=, signed,
 * and `tid.x == 0`) whose idle side does nothing a later round could see:
 * no side effect up to the next stop or return, and at that stop no
 * per-thread value that the round computed (a thread skipped would not
 * store it; one loaded at the resume and stored back is the same).
 *
 * B comes from running the step in probe mode (STEP_PROBE) once before the
 * loop, at the round's resume point: it returns B at a guard, and "the whole
 * row" (PROBE_ALL) at anything else it meets first: a side effect, a stop, a
 * return, a divergent branch. So the probe has taken the path that every
 * thread takes to the guard (its branches were uniform), and what it
 * computed on the way did nothing. Inlined with the flag constant, the
 * checks vanish from the real steps and the probe is the guard's prefix
 * alone. At least one thread runs per row, so uniform values reach uout.
 *
 * Here: finding the guards (after liveness and uniformity) and giving the
 * step its probe mode (after the rebuild); the lockstep entry
 * (host_regions_entries.c) runs the probe and loops up to its bound. Its
 * own file because the split is correct without it: with no guard found,
 * the step has no probe mode and every round runs whole rows. */
#include "host_regions_internal.h"

#include <stdlib.h>
#include <string.h>

/* A branch on `offset + tid.x < bound` (see above). */
enum guard_kind { GUARD_ULT, GUARD_SLT, GUARD_ULE, GUARD_SLE, GUARD_EQ0 };
struct guard {
  LLVMValueRef br, cond;
  unsigned bound_op;   /* the operand of cond that is the bound */
  LLVMValueRef add;    /* offset + tid.x, or NULL for tid.x alone */
  unsigned offset_op;  /* the operand of add that is the offset */
  enum guard_kind kind;
  unsigned idle;       /* the successor the threads at or past the bound take */
};

/* The dimension of a load of ctx->tid[d], or -1. */
int regions_tid_load_dim(struct split *s, LLVMValueRef v) {
  if (!LLVMIsALoadInst(v) || LLVMGetVolatile(v))
    return -1;
  LLVMValueRef p = LLVMGetOperand(v, 0);
  if (!LLVMIsAGetElementPtrInst(p) || LLVMGetOperand(p, 0) != LLVMGetParam(s->fn, 0) ||
      LLVMGetGEPSourceElementType(p) != s->rw->ctx_ty || LLVMGetNumOperands(p) != 4)
    return -1;
  LLVMValueRef idx[3] = {LLVMGetOperand(p, 1), LLVMGetOperand(p, 2), LLVMGetOperand(p, 3)};
  for (int k = 0; k < 3; k++)
    if (!LLVMIsAConstantInt(idx[k]))
      return -1;
  if (LLVMConstIntGetZExtValue(idx[0]) != 0 || LLVMConstIntGetZExtValue(idx[1]) != CTX_TID ||
      LLVMConstIntGetZExtValue(idx[2]) > 2)
    return -1;
  return (int)LLVMConstIntGetZExtValue(idx[2]);
}

static int is_tid_x(struct split *s, LLVMValueRef v) {
  while (LLVMIsASExtInst(v) || LLVMIsAZExtInst(v) ||
         (LLVMIsATruncInst(v) && LLVMGetIntTypeWidth(LLVMTypeOf(v)) >= 16)) /* ids < 1024 */
    v = LLVMGetOperand(v, 0);
  return regions_tid_load_dim(s, v) == 0;
}

/* tid.x, or offset + tid.x with a uniform offset (a global index: the
 * bounds check of an elementwise kernel): sets *add and *offset_op for the
 * latter. */
static int is_tid_x_index(struct split *s, LLVMValueRef v, LLVMValueRef *add, unsigned *offset_op) {
  *add = NULL;
  if (is_tid_x(s, v))
    return 1;
  if (!LLVMIsAInstruction(v) || LLVMGetInstructionOpcode(v) != LLVMAdd)
    return 0;
  for (unsigned k = 0; k < 2; k++)
    if (is_tid_x(s, LLVMGetOperand(v, k)) && !regions_divergent_operand(s, LLVMGetOperand(v, 1 - k))) {
      *add = v;
      *offset_op = 1 - k;
      return 1;
    }
  return 0;
}

/* Fills *g for a conditional branch that tests tid.x (plus a uniform
 * offset) against a uniform bound; returns 0 for any other. */
static int guard_of(struct split *s, LLVMValueRef br, struct guard *g) {
  if (!LLVMIsABranchInst(br) || !LLVMIsConditional(br))
    return 0;
  LLVMValueRef c = LLVMGetCondition(br);
  if (!LLVMIsAICmpInst(c))
    return 0;
  LLVMIntPredicate p = LLVMGetICmpPredicate(c);
  unsigned bop, oop = 0;
  LLVMValueRef add;
  if (is_tid_x_index(s, LLVMGetOperand(c, 0), &add, &oop) && !regions_divergent_operand(s, LLVMGetOperand(c, 1))) {
    bop = 1;
  } else if (is_tid_x_index(s, LLVMGetOperand(c, 1), &add, &oop) &&
             !regions_divergent_operand(s, LLVMGetOperand(c, 0))) {
    bop = 0; /* U op x: turn it around */
    static const LLVMIntPredicate swapped[] = {
        [LLVMIntEQ] = LLVMIntEQ,   [LLVMIntNE] = LLVMIntNE,   [LLVMIntUGT] = LLVMIntULT,
        [LLVMIntUGE] = LLVMIntULE, [LLVMIntULT] = LLVMIntUGT, [LLVMIntULE] = LLVMIntUGE,
        [LLVMIntSGT] = LLVMIntSLT, [LLVMIntSGE] = LLVMIntSLE, [LLVMIntSLT] = LLVMIntSGT,
        [LLVMIntSLE] = LLVMIntSGE};
    p = swapped[p];
  } else {
    return 0;
  }
  *g = (struct guard){br, c, bop, add, oop, GUARD_ULT, 1};
  switch (p) {
  case LLVMIntULT: g->kind = GUARD_ULT; break;
  case LLVMIntULE: g->kind = GUARD_ULE; break;
  case LLVMIntSLT: g->kind = GUARD_SLT; break;
  case LLVMIntSLE: g->kind = GUARD_SLE; break;
  /* x >= U is x < U with the sides swapped, and so on */
  case LLVMIntUGE: g->kind = GUARD_ULT, g->idle = 0; break;
  case LLVMIntUGT: g->kind = GUARD_ULE, g->idle = 0; break;
  case LLVMIntSGE: g->kind = GUARD_SLT, g->idle = 0; break;
  case LLVMIntSGT: g->kind = GUARD_SLE, g->idle = 0; break;
  case LLVMIntEQ: case LLVMIntNE: {
    LLVMValueRef u = LLVMGetOperand(c, bop);
    if (add || !LLVMIsAConstantInt(u) || LLVMConstIntGetZExtValue(u) != 0)
      return 0;
    g->kind = GUARD_EQ0;
    g->idle = p == LLVMIntEQ ? 1 : 0;
    break;
  }
  default:
    return 0;
  }
  return 1;
}

/* What a thread may do in a probe or on a guard's idle side: no stores
 * (but to the step's own allocas, when allow_local), no calls but pure
 * ones, no atomics or fences. */
int regions_has_effect(LLVMValueRef i, int allow_local) {
  switch (LLVMGetInstructionOpcode(i)) {
  case LLVMStore: {
    if (!allow_local)
      return 1;
    LLVMValueRef p = LLVMGetOperand(i, 1);
    while (LLVMIsAGetElementPtrInst(p))
      p = LLVMGetOperand(p, 0);
    return !LLVMIsAAllocaInst(p) || LLVMGetVolatile(i);
  }
  case LLVMCall: {
    LLVMValueRef callee = LLVMGetCalledValue(i);
    size_t len;
    if (LLVMIsAFunction(callee) && starts_with(LLVMGetValueName2(callee, &len), "llvm.dbg."))
      return 0;
    return !regions_pure_call(i);
  }
  case LLVMLoad:
    return LLVMGetVolatile(i) || LLVMGetOrdering(i) != LLVMAtomicOrderingNotAtomic;
  case LLVMAtomicRMW: case LLVMAtomicCmpXchg: case LLVMFence: case LLVMInvoke: case LLVMCallBr:
  case LLVMVAArg:
    return 1;
  default:
    return 0;
  }
}

/* Finds the guards (before rebuild, with liveness and uniformity known)
 * and the blocks that end in a divergent branch. */
void regions_find_guards(struct split *s) {
  size_t nb = s->nblocks, w = s->words;
  pm_init(&s->divbr, nb);
  if (!s->lockstep)
    return;
  size_t **succ = xcalloc(nb, sizeof *succ), *nsucc = xcalloc(nb, sizeof *nsucc);
  for (size_t b = 0; b < nb; b++)
    succ[b] = regions_successors(s, b, &nsucc[b]);
  long *head_of = xcalloc(nb, sizeof *head_of); /* block -> the stop it is the head of */
  for (size_t b = 0; b < nb; b++)
    head_of[b] = -1;
  for (size_t k = 0; k < s->nstops; k++)
    head_of[pm_get(&s->bix, s->stops[k].head)] = (long)k;
  /* Region k: what a thread may run from resume point k to its next stop. */
  size_t nr = s->nstops + 1;
  unsigned char *region = xcalloc(nr * nb, 1), *seen = xcalloc(nb, 1);
  size_t *queue = xcalloc(nb, sizeof *queue);
  for (size_t k = 0; k < nr; k++) {
    LLVMBasicBlockRef e = k ? s->stops[k - 1].cont : LLVMGetNextBasicBlock(s->pre);
    unsigned char *r = region + k * nb;
    size_t nq = 0, e0 = (size_t)pm_get(&s->bix, e);
    r[e0] = 1;
    queue[nq++] = e0;
    while (nq) {
      size_t x = queue[--nq];
      if (head_of[x] >= 0)
        continue;
      for (size_t j = 0; j < nsucc[x]; j++)
        if (!r[succ[x][j]]) {
          r[succ[x][j]] = 1;
          queue[nq++] = succ[x][j];
        }
    }
  }
  for (size_t x = 0; x < nb; x++) {
    LLVMValueRef term = LLVMGetBasicBlockTerminator(s->blocks[x]);
    if (!term || nsucc[x] < 2)
      continue;
    LLVMOpcode op = LLVMGetInstructionOpcode(term);
    LLVMValueRef cond = op == LLVMBr ? LLVMGetCondition(term) : op == LLVMSwitch ? LLVMGetOperand(term, 0) : NULL;
    if (!cond || regions_divergent_operand(s, cond))
      pm_put(&s->divbr, s->blocks[x], 1);
    struct guard g;
    if (!guard_of(s, term, &g))
      continue;
    /* The idle side, up to the stops and returns it reaches. */
    long f = pm_get(&s->bix, LLVMGetSuccessor(term, g.idle));
    if (f < 0)
      continue;
    int ok = 1;
    size_t nq = 0;
    memset(seen, 0, nb);
    seen[f] = 1;
    queue[nq++] = (size_t)f;
    while (nq && ok) {
      size_t y = queue[--nq];
      for (LLVMValueRef i = LLVMGetFirstInstruction(s->blocks[y]); i && ok; i = LLVMGetNextInstruction(i))
        ok = !regions_has_effect(i, 0);
      if (head_of[y] >= 0) {
        /* Per-thread values stored at this stop must not be new in the
         * round: for each region the guard is in, none defined there. */
        const uint64_t *live = s->in + (size_t)pm_get(&s->bix, s->stops[head_of[y]].cont) * w;
        for (size_t v = 0; v < s->nvals && ok; v++) {
          if (!BIT_TEST(live, v) || LLVMIsAAllocaInst(s->vals[v]) || !regions_is_divergent(s, s->vals[v]))
            continue;
          size_t d = (size_t)pm_get(&s->bix, LLVMGetInstructionParent(s->vals[v]));
          for (size_t k = 0; k < nr && ok; k++)
            if (region[k * nb + x] && region[k * nb + d])
              ok = 0;
        }
        continue;
      }
      for (size_t j = 0; j < nsucc[y]; j++)
        if (!seen[succ[y][j]]) {
          seen[succ[y][j]] = 1;
          queue[nq++] = succ[y][j];
        }
    }
    if (!ok)
      continue;
    s->guards = realloc(s->guards, (s->nguards + 1) * sizeof *s->guards);
    if (!s->guards)
      BUG("out of memory");
    s->guards[s->nguards++] = g;
  }
  for (size_t b = 0; b < nb; b++)
    free(succ[b]);
  free(succ), free(nsucc), free(head_of), free(region), free(seen), free(queue);
}

/* B for guard g, computed before its branch: the number of leading x that
 * may take the busy side, clamped below 2^31; PROBE_ALL where offset + x
 * might wrap around. With U1 the bound and U0 the offset (or 0), some x is
 * busy iff U1 > U0 (>= for <=), and then B = U1 - U0 (+ 1), which as an
 * unsigned difference is exact, signed or not. */
static LLVMValueRef guard_bound(struct split *s, LLVMBuilderRef b, const struct guard *g) {
  struct rewriter *rw = s->rw;
  LLVMValueRef u1 = LLVMGetOperand(g->cond, g->bound_op);
  LLVMTypeRef ty = LLVMTypeOf(u1);
  unsigned width = LLVMGetIntTypeWidth(ty);
  if (g->kind == GUARD_EQ0)
    return LLVMConstInt(rw->i32, 1, 0);
  if (width > 64 || width < 16)
    return LLVMConstInt(rw->i32, PROBE_ALL, 0);
  LLVMValueRef u0 = g->add ? LLVMGetOperand(g->add, g->offset_op) : LLVMConstInt(ty, 0, 0);
  int sgn = g->kind == GUARD_SLT || g->kind == GUARD_SLE;
  int le = g->kind == GUARD_ULE || g->kind == GUARD_SLE;
  unsigned long long top = width == 64 ? ~0ull : (1ull << width) - 1; /* all ones */
  /* Leaves room for the + 1, below PROBE_ALL, in every width. */
  unsigned long long maxb = (width >= 32 ? 0x7fffffffull : top >> 1) - 1;
  LLVMValueRef any = LLVMBuildICmp(b, le ? (sgn ? LLVMIntSGE : LLVMIntUGE) : (sgn ? LLVMIntSGT : LLVMIntUGT),
                                   u1, u0, "");
  LLVMValueRef d = LLVMBuildSub(b, u1, u0, "");
  LLVMValueRef hi = LLVMConstInt(ty, maxb, 0);
  d = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntUGT, d, hi, ""), hi, d, "");
  if (le)
    d = LLVMBuildAdd(b, d, LLVMConstInt(ty, 1, 0), "");
  d = LLVMBuildSelect(b, any, d, LLVMConstInt(ty, 0, 0), "");
  if (width > 32)
    d = LLVMBuildTrunc(b, d, rw->i32, "");
  else if (width < 32)
    d = LLVMBuildZExt(b, d, rw->i32, "");
  if (g->add) {
    /* offset + x does not wrap for any thread id (< 1024) */
    unsigned long long lim = (sgn ? top >> 1 : top) - 1024;
    LLVMValueRef ok = LLVMBuildICmp(b, sgn ? LLVMIntSLE : LLVMIntULE, u0, LLVMConstInt(ty, lim, 0), "");
    d = LLVMBuildSelect(b, ok, d, LLVMConstInt(rw->i32, PROBE_ALL, 0), "");
  }
  return d;
}

/* Makes `at` start a block of its own, entered only when not probing; a
 * probe returns `value` (PROBE_ALL when NULL; g's bound when g) instead. */
static void probe_exit(struct split *s, LLVMValueRef at, const struct guard *g) {
  struct rewriter *rw = s->rw;
  LLVMBasicBlockRef x = LLVMGetInstructionParent(at);
  LLVMBasicBlockRef cont = LLVMAppendBasicBlockInContext(rw->c, s->fn, "probe.no");
  LLVMBasicBlockRef out = LLVMAppendBasicBlockInContext(rw->c, s->fn, "probe.yes");
  regions_move_tail(s, at, cont);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(rw->c);
  LLVMPositionBuilderAtEnd(b, out);
  LLVMBuildRet(b, g ? guard_bound(s, b, g) : LLVMConstInt(rw->i32, PROBE_ALL, 0));
  LLVMPositionBuilderAtEnd(b, x);
  LLVMBuildCondBr(b, step_param(s->fn, STEP_PROBE), out, cont);
  LLVMDisposeBuilder(b);
}

/* The probe checks, after rebuild: at each guard, and before the first
 * effect, return or divergent branch of every other block. */
void regions_add_probe(struct split *s) {
  if (!s->nguards)
    return;
  size_t n = 0, cap = 16;
  LLVMValueRef *at = xcalloc(cap, sizeof *at);
  const struct guard **gs = xcalloc(cap, sizeof *gs);
  for (LLVMBasicBlockRef bb = LLVMGetNextBasicBlock(s->pre); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      const struct guard *g = NULL;
      for (size_t k = 0; k < s->nguards && !g; k++)
        if (s->guards[k].br == i)
          g = &s->guards[k];
      int term = LLVMIsATerminatorInst(i) != NULL;
      if (!g && !regions_has_effect(i, 1) && !LLVMIsAReturnInst(i) && !(term && pm_get(&s->divbr, bb) >= 0))
        continue;
      if (n == cap) {
        at = realloc(at, (cap *= 2) * sizeof *at);
        gs = realloc(gs, cap * sizeof *gs);
        if (!at || !gs)
          BUG("out of memory");
      }
      at[n] = i;
      gs[n++] = g;
      break;
    }
  for (size_t k = 0; k < n; k++)
    probe_exit(s, at[k], gs[k]);
  /* A guard that is a thread's first check point in every round it is in
   * is where the probe stopped, if the probe stopped at a guard: there the
   * threads the loop runs are all busy (STEP_BUSY), and with that flag
   * invariant in the loop LLVM drops the test. Not so for one reachable
   * after another check point (or itself) before the round ends. */
  struct ptrmap after; /* blocks a thread may reach past a check point */
  size_t nblocks = 0;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(s->fn); bb; bb = LLVMGetNextBasicBlock(bb))
    nblocks++;
  pm_init(&after, nblocks);
  size_t cap2 = 64, nq = 0;
  LLVMBasicBlockRef *queue = xcalloc(cap2, sizeof *queue);
  for (size_t k = 0; k < n; k++) {
    LLVMBasicBlockRef bb = LLVMGetInstructionParent(at[k]);
    LLVMValueRef term = LLVMGetBasicBlockTerminator(bb);
    unsigned ns = gs[k] ? LLVMGetNumSuccessors(term) : 1;
    for (unsigned j = 0; j < ns; j++) {
      if (nq == cap2 && !(queue = realloc(queue, (cap2 *= 2) * sizeof *queue)))
        BUG("out of memory");
      queue[nq++] = gs[k] ? LLVMGetSuccessor(term, j) : bb;
    }
  }
  while (nq) {
    LLVMBasicBlockRef bb = queue[--nq];
    if (pm_get(&after, bb) >= 0)
      continue;
    pm_put(&after, bb, 1);
    LLVMValueRef term = LLVMGetBasicBlockTerminator(bb);
    for (unsigned j = 0, ns = term ? LLVMGetNumSuccessors(term) : 0; j < ns; j++) {
      if (nq == cap2 && !(queue = realloc(queue, (cap2 *= 2) * sizeof *queue)))
        BUG("out of memory");
      queue[nq++] = LLVMGetSuccessor(term, j);
    }
  }
  LLVMBuilderRef b = LLVMCreateBuilderInContext(s->rw->c);
  for (size_t k = 0; k < n; k++) {
    if (!gs[k] || pm_get(&after, LLVMGetInstructionParent(at[k])) >= 0)
      continue;
    LLVMValueRef br = at[k], busy = step_param(s->fn, STEP_BUSY);
    LLVMPositionBuilderBefore(b, br);
    LLVMValueRef c = LLVMGetCondition(br);
    LLVMSetCondition(br, gs[k]->idle ? LLVMBuildOr(b, c, busy, "")
                                     : LLVMBuildAnd(b, c, LLVMBuildNot(b, busy, ""), ""));
  }
  LLVMDisposeBuilder(b);
  free(queue);
  pm_free(&after);
  free(at);
  free(gs);
}
