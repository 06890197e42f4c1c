/* host_regions.c: barriers and shuffles by compilation (host target).
 *
 * A kernel whose threads synchronize would otherwise run each GPU thread on
 * a fiber and switch stacks at every gpuccHostBarrier / gpuccHostShuffle.
 * Here, as in PoCL's work-group functions and AdaptiveCpp's CBS, the kernel
 * is cut at those calls instead. It becomes a step function
 *
 *   i32 step(ctx, args..., i32 t, i32 n, ptr scratch, i32 resume,
 *            ptr uin, ptr uout, i1 probe, i1 busy)
 *
 * that runs thread t (of n) from resume point `resume` (0: the start, k: just
 * after sync point k) until it reaches its next sync point or returns, and
 * returns where it stopped: 0 when it returned, else (k << 1) | is_shuffle.
 * The block entry runs rounds: every thread that may go on runs one step;
 * when all threads start a round at the same point the round is a loop with
 * a constant resume point, so the step inlines to that region alone and the
 * loop over the threads can be vectorized. Between rounds, a barrier at which
 * every thread stopped completes in the generated code; anything else (a
 * shuffle, threads at different points, threads that returned) goes to
 * gpuccHostRound, which applies the same counting rules as the fibers.
 *
 * What crosses a sync point lives in ctx->scratch, per thread, laid out as
 * arrays (field i of thread t at scratch + n * off_i + t * size_i, so the
 * threads of a round touch consecutive addresses):
 *
 *   - values live across a sync point (liveness on the CFG): each gets a
 *     local alloca (stored after its definition, loaded at its uses), so
 *     that mem2reg rebuilds SSA form; a stop copies it to scratch, a resume
 *     back;
 *   - private arrays (allocas) whose memory is used on both sides of a sync
 *     point: they are moved to scratch outright;
 *   - values computed from the ctx and the arguments alone (ids, sizes,
 *     workgroup-memory addresses, arithmetic on them) are recomputed at each
 *     step instead: they are hoisted to the step's entry.
 *
 * Scratch starts with the per-thread stop codes (u32) and the shuffle lane
 * records (struct gpucc_host_lane), which gpuccHostRound reads and writes.
 *
 * Most kernels need less, and get more speed (each in a file of its own):
 *
 *   - uniformity (host_regions_uniformity.c): a kernel whose barriers no
 *     divergent branch controls, and that does not shuffle, is in
 *     lockstep: all threads stop at the same barrier in every round. Its
 *     block entry has no stop codes and no gpuccHostRound, and its uniform
 *     values live across a barrier (loop counters, tile offsets) are kept
 *     once per block (uin/uout), where LLVM sees them as invariant in the
 *     loop over the threads;
 *   - narrowing (host_regions_narrowing.c): in lockstep, a round whose
 *     threads mostly skip their work (`if (tid < s)` in a tree reduction,
 *     `if (i < n)` in an elementwise kernel) loops over the busy threads
 *     only, the bound found by a probe;
 *   - implicit barriers (host_regions_implicit.c): a uniform loop with
 *     consecutive accesses gets a barrier, so the loop over the threads
 *     moves inside it and vectorizes;
 *   - alias scopes (host_regions_alias.c) tell LLVM that scratch slots,
 *     workgroup memory and the kernel's arguments do not overlap.
 *
 * Kernels without any sync point come here too (host_kernels.c): one round
 * with no stop, for the narrowing and the implicit barriers.
 *
 * Requires: the kernel's NVVM intrinsics already rewritten (host_kernels.c),
 * its workgroup memory placed, and no calls to functions that synchronize
 * (host_calls.c inlined them; a kernel still calling one keeps its fibers
 * without coming here). Lifetime markers are dropped first: inlining adds
 * them, and a private array moved to scratch is no alloca they may name.
 * What this cannot express (a dynamically sized private array) keeps the
 * fibers, and the reason is recorded.
 *
 * This file is the split itself: the step function, the cuts at the sync
 * points, liveness, the rebuild around the stops, and host_regions_split,
 * which runs the parts in order. The graph helpers are in
 * host_regions_cfg.c, the block and thread entries that run the step in
 * host_regions_entries.c, the state all of them share in
 * host_regions_internal.h. */
#include "host_regions.h"
#include "host_regions_internal.h"

#include "diag.h"
#include "xstr.h"

#include <stdlib.h>
#include <string.h>

/* --- scratch addresses and sync calls ----------------------------------- */

static LLVMValueRef byte_gep(struct split *s, LLVMBuilderRef b, LLVMValueRef base, LLVMValueRef off) {
  return LLVMBuildGEP2(b, LLVMInt8TypeInContext(s->rw->c), base, &off, 1, "");
}

/* scratch + n * off + t * stride: field `off` of this thread. */
static LLVMValueRef scratch_field(struct split *s, LLVMBuilderRef b, uint64_t off, uint64_t stride) {
  struct rewriter *rw = s->rw;
  LLVMValueRef a = LLVMBuildMul(b, s->n64, LLVMConstInt(rw->i64, off, 0), "");
  LLVMValueRef c = LLVMBuildMul(b, s->t64, LLVMConstInt(rw->i64, stride, 0), "");
  return byte_gep(s, b, s->scratch, LLVMBuildAdd(b, a, c, ""));
}

/* --- moving the body into the step function ------------------------------ */

static LLVMValueRef make_step(struct split *s, LLVMValueRef impl, const char *kname) {
  struct rewriter *rw = s->rw;
  LLVMTypeRef fty = LLVMGlobalGetValueType(impl);
  unsigned n = LLVMCountParamTypes(fty);
  LLVMTypeRef *params = xcalloc(n + STEP_EXTRA, sizeof *params);
  LLVMGetParamTypes(fty, params);
  params[n + STEP_T] = rw->i32;
  params[n + STEP_N] = rw->i32;
  params[n + STEP_SCRATCH] = rw->ptr;
  params[n + STEP_RESUME] = rw->i32;
  params[n + STEP_UIN] = rw->ptr;
  params[n + STEP_UOUT] = rw->ptr;
  params[n + STEP_PROBE] = LLVMInt1TypeInContext(rw->c);
  params[n + STEP_BUSY] = LLVMInt1TypeInContext(rw->c);
  char *name = xasprintf("__gpucc_step.%s", kname);
  LLVMValueRef f = LLVMAddFunction(rw->mod, name, LLVMFunctionType(rw->i32, params, n + STEP_EXTRA, 0));
  free(name);
  free(params);
  LLVMSetLinkage(f, LLVMInternalLinkage);
  s->pre = LLVMAppendBasicBlockInContext(rw->c, f, "step.entry");
  LLVMBasicBlockRef bb;
  while ((bb = LLVMGetFirstBasicBlock(impl))) {
    LLVMRemoveBasicBlockFromParent(bb);
    LLVMAppendExistingBasicBlock(f, bb);
  }
  for (unsigned i = 0; i < n; i++)
    LLVMReplaceAllUsesWith(LLVMGetParam(impl, i), LLVMGetParam(f, i));
  LLVMDeleteFunction(impl);
  return f;
}

/* True for an instruction that may be recomputed at the step's entry: no
 * side effect, no trap, operands available there; loads only from the ctx,
 * which no kernel writes. */
static int recomputable(struct split *s, LLVMValueRef i) {
  switch (LLVMGetInstructionOpcode(i)) {
  case LLVMLoad: {
    if (LLVMGetVolatile(i) || LLVMGetOrdering(i) != LLVMAtomicOrderingNotAtomic)
      return 0;
    LLVMValueRef p = LLVMGetOperand(i, 0);
    while (LLVMIsAGetElementPtrInst(p) || LLVMIsAAddrSpaceCastInst(p))
      p = LLVMGetOperand(p, 0);
    if (p != LLVMGetParam(s->fn, 0))
      return 0;
    break;
  }
  case LLVMGetElementPtr: case LLVMBitCast: case LLVMAddrSpaceCast: case LLVMPtrToInt:
  case LLVMAdd: case LLVMSub: case LLVMMul: case LLVMShl: case LLVMLShr: case LLVMAShr:
  case LLVMAnd: case LLVMOr: case LLVMXor: case LLVMZExt: case LLVMSExt: case LLVMTrunc:
  case LLVMICmp: case LLVMSelect:
    break;
  default:
    return 0;
  }
  for (int k = 0, n = LLVMGetNumOperands(i); k < n; k++) {
    LLVMValueRef op = LLVMGetOperand(i, k);
    if (LLVMIsAInstruction(op)) {
      if (LLVMGetInstructionParent(op) != s->pre)
        return 0;
    } else if (!LLVMIsAConstant(op) && !LLVMIsAArgument(op)) {
      return 0;
    }
  }
  return 1;
}

static void hoist_recomputable(struct split *s) {
  LLVMBuilderRef b = LLVMCreateBuilderInContext(s->rw->c);
  for (int changed = 1; changed;) {
    changed = 0;
    for (LLVMBasicBlockRef bb = LLVMGetNextBasicBlock(s->pre); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb), next; i; i = next) {
        next = LLVMGetNextInstruction(i);
        if (recomputable(s, i)) {
          LLVMInstructionRemoveFromParent(i);
          LLVMPositionBuilderBefore(b, LLVMGetBasicBlockTerminator(s->pre));
          LLVMInsertIntoBuilder(b, i);
          changed = 1;
        }
      }
  }
  LLVMDisposeBuilder(b);
}

/* Cuts the block of sync call `call` after it; the call becomes its effect
 * on the lane record (a shuffle) or nothing (a barrier). */
static void split_at(struct split *s, LLVMValueRef call, int shuffle) {
  struct rewriter *rw = s->rw;
  LLVMBasicBlockRef head = LLVMGetInstructionParent(call);
  LLVMBasicBlockRef cont = LLVMAppendBasicBlockInContext(rw->c, s->fn, "sync.cont");
  regions_move_tail(s, LLVMGetNextInstruction(call), cont);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(rw->c);
  if (shuffle) {
    /* gpuccHostShuffle(ctx, mode, value, b, c): the operands go to the lane
     * record; the result comes back from it when the thread resumes. */
    LLVMPositionBuilderBefore(b, call);
    for (unsigned k = 0; k < 4; k++) {
      LLVMValueRef off = LLVMConstInt(rw->i64, 4 * k, 0);
      LLVMBuildStore(b, LLVMGetOperand(call, k + 1), byte_gep(s, b, s->lane, off));
    }
    LLVMValueRef first = LLVMGetFirstInstruction(cont);
    if (first)
      LLVMPositionBuilderBefore(b, first);
    else
      LLVMPositionBuilderAtEnd(b, cont);
    LLVMValueRef res = LLVMBuildLoad2(
        b, rw->i64, byte_gep(s, b, s->lane, LLVMConstInt(rw->i64, LANE_RESULT_OFFSET, 0)), "shfl");
    LLVMReplaceAllUsesWith(call, res);
  }
  LLVMInstructionEraseFromParent(call);
  LLVMPositionBuilderAtEnd(b, head);
  LLVMBuildBr(b, cont);
  LLVMDisposeBuilder(b);
  s->stops = realloc(s->stops, (s->nstops + 1) * sizeof *s->stops);
  if (!s->stops)
    BUG("out of memory");
  s->stops[s->nstops++] = (struct stop){head, cont, shuffle};
}

/* --- liveness ------------------------------------------------------------ */

static void number(struct split *s) {
  size_t nv = 0;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(s->fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
      nv++;
  s->vals = xcalloc(nv, sizeof *s->vals);
  pm_init(&s->vix, nv);
  regions_index_blocks(s);
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(s->fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
    if (bb == s->pre)
      continue;
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
      if (LLVMGetTypeKind(LLVMTypeOf(i)) != LLVMVoidTypeKind) {
        pm_put(&s->vix, i, s->nvals);
        s->vals[s->nvals++] = i;
      }
  }
  /* Which allocas each value may point into: memory reached through a
   * pointer is live wherever the pointer is used. 63 allocas are told
   * apart; the others share one bit (a pointer into one of them counts as
   * pointing into each). */
  s->roots = xcalloc(s->nvals, sizeof *s->roots);
  s->allocas = xcalloc(s->nvals, sizeof *s->allocas);
  for (size_t v = 0; v < s->nvals; v++)
    if (LLVMIsAAllocaInst(s->vals[v])) {
      s->roots[v] = 1ull << (s->nallocas < 63 ? s->nallocas : 63);
      s->allocas[s->nallocas++] = v;
    }
  for (int changed = 1; changed;) {
    changed = 0;
    for (size_t v = 0; v < s->nvals; v++) {
      LLVMValueRef i = s->vals[v];
      LLVMOpcode op = LLVMGetInstructionOpcode(i);
      if (op != LLVMGetElementPtr && op != LLVMBitCast && op != LLVMAddrSpaceCast &&
          op != LLVMPHI && op != LLVMSelect && op != LLVMPtrToInt && op != LLVMIntToPtr)
        continue;
      uint64_t r = s->roots[v];
      for (int k = 0, n = LLVMGetNumOperands(i); k < n; k++) {
        long o = pm_get(&s->vix, LLVMGetOperand(i, k));
        if (o >= 0)
          r |= s->roots[o];
      }
      if (r != s->roots[v]) {
        s->roots[v] = r;
        changed = 1;
      }
    }
  }
}

/* Marks operand op as used in set (unless defined before in the block): the
 * value and the allocas it points into. */
static void mark_use(struct split *s, uint64_t *set, const uint64_t *defined, LLVMValueRef op) {
  long o = pm_get(&s->vix, op);
  if (o < 0)
    return;
  if (!defined || !BIT_TEST(defined, (size_t)o))
    BIT_SET(set, (size_t)o);
  uint64_t r = s->roots[o];
  for (size_t a = 0; r && a < s->nallocas; a++) {
    size_t v = s->allocas[a];
    if ((r >> (a < 63 ? a : 63)) & 1)
      if (!defined || !BIT_TEST(defined, v))
        BIT_SET(set, v);
  }
}

static void liveness(struct split *s) {
  size_t w = s->words = (s->nvals + 63) / 64 + 1, nb = s->nblocks;
  s->use = xcalloc(nb * w, 8);
  s->def = xcalloc(nb * w, 8);
  s->in = xcalloc(nb * w, 8);
  s->out = xcalloc(nb * w, 8);
  uint64_t *phiuse = xcalloc(nb * w, 8); /* phi operands: used at the end of a predecessor */
  for (size_t bi = 0; bi < nb; bi++) {
    LLVMBasicBlockRef bb = s->blocks[bi];
    uint64_t *use = s->use + bi * w, *def = s->def + bi * w;
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      if (LLVMIsAPHINode(i)) {
        for (unsigned k = 0, n = LLVMCountIncoming(i); k < n; k++) {
          long p = pm_get(&s->bix, LLVMGetIncomingBlock(i, k));
          if (p >= 0)
            mark_use(s, phiuse + (size_t)p * w, NULL, LLVMGetIncomingValue(i, k));
        }
      } else {
        for (int k = 0, n = LLVMGetNumOperands(i); k < n; k++)
          mark_use(s, use, def, LLVMGetOperand(i, k));
      }
      long v = pm_get(&s->vix, i);
      if (v >= 0)
        BIT_SET(def, (size_t)v);
    }
  }
  for (int changed = 1; changed;) {
    changed = 0;
    for (size_t bi = nb; bi-- > 0;) {
      uint64_t *in = s->in + bi * w, *out = s->out + bi * w;
      LLVMValueRef term = LLVMGetBasicBlockTerminator(s->blocks[bi]);
      for (size_t k = 0; k < w; k++)
        out[k] |= phiuse[bi * w + k];
      for (unsigned k = 0, n = term ? LLVMGetNumSuccessors(term) : 0; k < n; k++) {
        long si = pm_get(&s->bix, LLVMGetSuccessor(term, k));
        for (size_t j = 0; si >= 0 && j < w; j++)
          out[j] |= s->in[(size_t)si * w + j];
      }
      for (size_t k = 0; k < w; k++) {
        uint64_t nin = s->use[bi * w + k] | (out[k] & ~s->def[bi * w + k]);
        if (nin != in[k]) {
          in[k] = nin;
          changed = 1;
        }
      }
    }
  }
  free(phiuse);
}

/* --- rebuilding the function around the stops ---------------------------- */

/* Every use of v reads the local alloca a instead; v is stored to it right
 * after its definition. */
static void demote(struct split *s, LLVMValueRef v, LLVMValueRef a) {
  struct rewriter *rw = s->rw;
  LLVMTypeRef ty = LLVMTypeOf(v);
  size_t n = 0, cap = 8;
  LLVMValueRef *users = xcalloc(cap, sizeof *users);
  for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    int dup = 0;
    for (size_t k = 0; k < n; k++)
      dup |= users[k] == user;
    if (dup)
      continue;
    if (n == cap) {
      users = realloc(users, (cap *= 2) * sizeof *users);
      if (!users)
        BUG("out of memory");
    }
    users[n++] = user;
  }
  LLVMBuilderRef b = LLVMCreateBuilderInContext(rw->c);
  for (size_t k = 0; k < n; k++) {
    LLVMValueRef user = users[k];
    if (LLVMIsAPHINode(user)) {
      for (unsigned j = 0, m = LLVMCountIncoming(user); j < m; j++)
        if (LLVMGetIncomingValue(user, j) == v) {
          LLVMBasicBlockRef from = LLVMGetIncomingBlock(user, j);
          LLVMPositionBuilderBefore(b, LLVMGetBasicBlockTerminator(from));
          LLVMSetOperand(user, j, LLVMBuildLoad2(b, ty, a, ""));
        }
    } else {
      LLVMPositionBuilderBefore(b, user);
      LLVMValueRef l = LLVMBuildLoad2(b, ty, a, "");
      for (int j = 0, m = LLVMGetNumOperands(user); j < m; j++)
        if (LLVMGetOperand(user, j) == v)
          LLVMSetOperand(user, (unsigned)j, l);
    }
  }
  free(users);
  LLVMValueRef after = LLVMGetNextInstruction(v);
  while (after && LLVMIsAPHINode(after))
    after = LLVMGetNextInstruction(after);
  LLVMPositionBuilderBefore(b, after);
  LLVMBuildStore(b, v, a);
  LLVMDisposeBuilder(b);
}

static void fix_returns(struct split *s) {
  LLVMBuilderRef b = LLVMCreateBuilderInContext(s->rw->c);
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(s->fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
    LLVMValueRef term = LLVMGetBasicBlockTerminator(bb);
    if (term && LLVMGetInstructionOpcode(term) == LLVMRet && LLVMGetNumOperands(term) == 0) {
      LLVMPositionBuilderBefore(b, term);
      LLVMBuildRet(b, LLVMConstInt(s->rw->i32, 0, 0));
      LLVMInstructionEraseFromParent(term);
    }
  }
  LLVMDisposeBuilder(b);
}

static uint64_t round_up(uint64_t x, uint64_t a) { return (x + a - 1) / a * a; }

/* Rebuilds s->fn as the step function; returns the per-thread scratch bytes
 * and sets *ubytes to the size of the block-uniform area.
 *
 * In lockstep (host_regions_uniformity.c) a uniform value live across a
 * stop is kept once per block rather than per thread: every thread that
 * reaches the stop stores the same value to uout, every thread resuming
 * loads it from uin, and the block entry copies uout to uin between rounds.
 * Two areas, since in one round thread 0 stops before thread 1 resumes.
 * Loaded from memory that does not change during the round, such a value
 * (a loop counter, a tile offset) is invariant in the loop over the
 * threads: LLVM hoists it and the branches on it out of that loop. */
static uint64_t rebuild(struct split *s, uint64_t *ubytes, const char *kname) {
  struct rewriter *rw = s->rw;
  size_t w = s->words;
  uint64_t *across = xcalloc(w, 8);
  for (size_t k = 0; k < s->nstops; k++) {
    const uint64_t *in = s->in + (size_t)pm_get(&s->bix, s->stops[k].cont) * w;
    for (size_t j = 0; j < w; j++)
      across[j] |= in[j];
  }
  /* Scratch layout: stop codes, lane records, then what crosses stops. */
  uint64_t bytes = 8 + sizeof(struct gpucc_host_lane);
  uint64_t *off = xcalloc(s->nvals, 8), *stride = xcalloc(s->nvals, 8);
  LLVMValueRef *slot = xcalloc(s->nvals, sizeof *slot), *local = xcalloc(s->nvals, sizeof *local);
  LLVMValueRef *uslot = xcalloc(s->nvals, sizeof *uslot); /* uin's; slot is uout's */
  *ubytes = 0;
  LLVMBuilderRef b = LLVMCreateBuilderInContext(rw->c);
  LLVMBasicBlockRef first = LLVMGetNextBasicBlock(s->pre);
  for (size_t v = 0; v < s->nvals; v++) {
    LLVMValueRef i = s->vals[v];
    int alloca = LLVMIsAAllocaInst(i) != NULL;
    if (!BIT_TEST(across, v)) {
      /* A private array used on one side of the stops only: keep it local,
       * in the entry block where SROA and mem2reg look for it. */
      if (alloca && LLVMGetInstructionParent(i) == first) {
        LLVMInstructionRemoveFromParent(i);
        LLVMPositionBuilderBefore(b, LLVMGetFirstInstruction(s->pre));
        LLVMInsertIntoBuilder(b, i);
      }
      continue;
    }
    LLVMTypeRef ty = alloca ? LLVMGetAllocatedType(i) : LLVMTypeOf(i);
    uint64_t size = LLVMABISizeOfType(rw->td, ty), align = LLVMABIAlignmentOfType(rw->td, ty);
    if (alloca) {
      size *= LLVMConstIntGetZExtValue(LLVMGetOperand(i, 0));
      if (LLVMGetAlignment(i) > align)
        align = LLVMGetAlignment(i);
      if (align < 16)
        align = 16; /* arrays: room for vector accesses */
    }
    if (align < 1)
      align = 1;
    LLVMPositionBuilderBefore(b, LLVMGetBasicBlockTerminator(s->pre));
    if (!alloca && s->lockstep && !regions_is_divergent(s, i)) {
      uint64_t uoff = *ubytes = round_up(*ubytes, align);
      *ubytes += size;
      LLVMValueRef o = LLVMConstInt(rw->i64, uoff, 0);
      uslot[v] = byte_gep(s, b, step_param(s->fn, STEP_UIN), o);
      slot[v] = byte_gep(s, b, step_param(s->fn, STEP_UOUT), o);
    } else {
      stride[v] = round_up(size ? size : 1, align);
      off[v] = bytes = round_up(bytes, align);
      bytes += stride[v];
      slot[v] = scratch_field(s, b, off[v], stride[v]);
    }
    if (alloca) {
      LLVMValueRef p = slot[v];
      if (LLVMTypeOf(i) != LLVMTypeOf(p))
        p = LLVMBuildAddrSpaceCast(b, p, LLVMTypeOf(i), "");
      LLVMReplaceAllUsesWith(i, p);
      LLVMInstructionEraseFromParent(i);
      s->vals[v] = NULL;
    } else {
      LLVMPositionBuilderBefore(b, LLVMGetFirstInstruction(s->pre));
      local[v] = LLVMBuildAlloca(b, ty, "live");
      demote(s, i, local[v]);
    }
  }
  LLVMValueRef pre_term = LLVMGetBasicBlockTerminator(s->pre);
  LLVMPositionBuilderBefore(b, pre_term);
  LLVMValueRef sw = LLVMBuildSwitch(b, step_param(s->fn, STEP_RESUME), first,
                                    (unsigned)s->nstops);
  LLVMInstructionEraseFromParent(pre_term);
  for (size_t k = 0; k < s->nstops; k++) {
    const struct stop *st = &s->stops[k];
    const uint64_t *live = s->in + (size_t)pm_get(&s->bix, st->cont) * w;
    /* The stop: save what the rest of the thread needs, say where it is. */
    LLVMInstructionEraseFromParent(LLVMGetBasicBlockTerminator(st->head));
    LLVMPositionBuilderAtEnd(b, st->head);
    for (size_t v = 0; v < s->nvals; v++)
      if (BIT_TEST(live, v) && local[v]) {
        LLVMTypeRef ty = LLVMGetAllocatedType(local[v]);
        LLVMBuildStore(b, LLVMBuildLoad2(b, ty, local[v], ""), slot[v]);
      }
    LLVMBuildRet(b, LLVMConstInt(rw->i32, ((k + 1) << 1) | (unsigned)st->shuffle, 0));
    /* The resume: load it back. */
    LLVMBasicBlockRef resume = LLVMAppendBasicBlockInContext(rw->c, s->fn, "resume");
    LLVMPositionBuilderAtEnd(b, resume);
    for (size_t v = 0; v < s->nvals; v++)
      if (BIT_TEST(live, v) && local[v]) {
        LLVMTypeRef ty = LLVMGetAllocatedType(local[v]);
        LLVMBuildStore(b, LLVMBuildLoad2(b, ty, uslot[v] ? uslot[v] : slot[v], ""), local[v]);
      }
    LLVMBuildBr(b, st->cont);
    LLVMAddCase(sw, LLVMConstInt(rw->i32, k + 1, 0), resume);
  }
  fix_returns(s);
  regions_tag_memory(s, slot, uslot, kname);
  LLVMDisposeBuilder(b);
  free(across), free(off), free(stride), free(slot), free(local), free(uslot);
  return round_up(bytes, 8);
}

/* --- the whole split ----------------------------------------------------- */

int host_regions_split(struct rewriter *rw, LLVMValueRef impl, const char *kname,
                       const char **why) {
  /* What the scheme cannot express is found before anything changes. */
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(impl); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
      if (LLVMIsAAllocaInst(i) && !LLVMIsAConstantInt(LLVMGetOperand(i, 0))) {
        *why = "its threads synchronize and it has a dynamically sized private array";
        return 0;
      }
  /* Markers only (they bound a private array's life for the optimizer):
   * one naming an alloca that moves to scratch would be invalid IR, and
   * one on each side of a sync point would keep the array live across it. */
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(impl); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb), next; i; i = next) {
      next = LLVMGetNextInstruction(i);
      if (!LLVMIsACallInst(i) || !LLVMIsAFunction(LLVMGetCalledValue(i)))
        continue;
      size_t len;
      const char *callee = LLVMGetValueName2(LLVMGetCalledValue(i), &len);
      if (!strncmp(callee, "llvm.lifetime.", 14))
        LLVMInstructionEraseFromParent(i);
    }
  struct split s = {0};
  s.rw = rw;
  s.fn = make_step(&s, impl, kname);
  LLVMValueRef fn = s.fn;
  LLVMBuilderRef b = LLVMCreateBuilderInContext(rw->c);
  LLVMPositionBuilderAtEnd(b, s.pre);
  s.t64 = LLVMBuildZExt(b, step_param(fn, STEP_T), rw->i64, "t");
  s.n64 = LLVMBuildZExt(b, step_param(fn, STEP_N), rw->i64, "n");
  s.scratch = step_param(fn, STEP_SCRATCH);
  s.lane = scratch_field(&s, b, 8, sizeof(struct gpucc_host_lane));
  LLVMBuildBr(b, LLVMGetNextBasicBlock(s.pre));
  LLVMDisposeBuilder(b);
  hoist_recomputable(&s);
  regions_implicit_barriers(&s);

  size_t ncalls = 0, cap = 16;
  LLVMValueRef *calls = xcalloc(cap, sizeof *calls);
  int *kinds = xcalloc(cap, sizeof *kinds);
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      int shuffle;
      if (!host_is_sync_call(i, &shuffle))
        continue;
      if (ncalls == cap) {
        calls = realloc(calls, (cap *= 2) * sizeof *calls);
        kinds = realloc(kinds, cap * sizeof *kinds);
        if (!calls || !kinds)
          BUG("out of memory");
      }
      kinds[ncalls] = shuffle;
      calls[ncalls++] = i;
    }
  for (size_t k = 0; k < ncalls; k++)
    split_at(&s, calls[k], kinds[k]);
  free(calls);
  free(kinds);

  number(&s);
  liveness(&s);
  regions_uniformity(&s);
  regions_find_guards(&s);
  uint64_t ubytes;
  uint64_t bytes = rebuild(&s, &ubytes, kname);
  regions_add_probe(&s);
  LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex,
                          LLVMCreateEnumAttribute(rw->c, LLVMGetEnumAttributeKindForName("alwaysinline", 12), 0));

  if (s.lockstep)
    regions_emit_lockstep_entry(rw, fn, kname, s.nstops, ubytes, s.nguards > 0);
  else
    regions_emit_block_entry(rw, fn, kname, s.nstops);
  /* At full length: the runtime looks this up by the kernel's whole name. */
  char *name = xasprintf("%s" GPUCC_HOST_SCRATCH_SUFFIX, kname);
  LLVMValueRef g = LLVMAddGlobal(rw->mod, rw->i64, name);
  free(name);
  LLVMSetInitializer(g, LLVMConstInt(rw->i64, bytes, 0));
  LLVMSetGlobalConstant(g, 1);
  LLVMSetLinkage(g, LLVMExternalLinkage);

  free(s.stops);
  free(s.vals);
  free(s.roots);
  free(s.allocas);
  free(s.blocks);
  pm_free(&s.vix);
  pm_free(&s.bix);
  free(s.use), free(s.def), free(s.in), free(s.out);
  pm_free(&s.dix);
  free(s.div);
  free(s.apart);
  pm_free(&s.divbr);
  free(s.guards);
  return 1;
}
