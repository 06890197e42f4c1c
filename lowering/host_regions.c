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
 * Most kernels need less, and get more speed (see each section below):
 *
 *   - uniformity: a kernel whose barriers no divergent branch controls, and
 *     that does not shuffle, is in lockstep: all threads stop at the same
 *     barrier in every round. Its block entry has no stop codes and no
 *     gpuccHostRound, and its uniform values live across a barrier (loop
 *     counters, tile offsets) are kept once per block (uin/uout), where LLVM
 *     sees them as invariant in the loop over the threads;
 *   - narrowing: in lockstep, a round whose threads mostly skip their work
 *     (`if (tid < s)` in a tree reduction, `if (i < n)` in an elementwise
 *     kernel) loops over the busy threads only, the bound found by a probe;
 *   - implicit barriers: a uniform loop with consecutive accesses gets a
 *     barrier, so the loop over the threads moves inside it and vectorizes;
 *   - alias scopes tell LLVM that scratch slots, workgroup memory and the
 *     kernel's arguments do not overlap.
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
 * fibers, and the reason is recorded. */
#include "host_regions.h"

#include "diag.h"
#include "xstr.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LANE_RESULT_OFFSET 16 /* offsetof(struct gpucc_host_lane, result) */

/* --- small containers ---------------------------------------------------- */

/* Pointer to index, open addressing: LLVM values and blocks by identity. */
struct ptrmap {
  const void **keys;
  size_t *vals;
  size_t cap;
};

static void pm_init(struct ptrmap *m, size_t n) {
  m->cap = 64;
  while (m->cap < 2 * n + 16)
    m->cap *= 2;
  m->keys = calloc(m->cap, sizeof *m->keys);
  m->vals = calloc(m->cap, sizeof *m->vals);
  if (!m->keys || !m->vals)
    BUG("out of memory");
}

static size_t pm_slot(const struct ptrmap *m, const void *key) {
  size_t i = (size_t)(((uintptr_t)key >> 4) * 0x9E3779B97F4A7C15ull) & (m->cap - 1);
  while (m->keys[i] && m->keys[i] != key)
    i = (i + 1) & (m->cap - 1);
  return i;
}

static void pm_put(struct ptrmap *m, const void *key, size_t v) {
  size_t i = pm_slot(m, key);
  m->keys[i] = key;
  m->vals[i] = v;
}

static long pm_get(const struct ptrmap *m, const void *key) {
  size_t i = pm_slot(m, key);
  return m->keys[i] ? (long)m->vals[i] : -1;
}

static void pm_free(struct ptrmap *m) {
  free(m->keys);
  free(m->vals);
}

static void *xcalloc(size_t n, size_t size) {
  void *p = calloc(n ? n : 1, size);
  if (!p)
    BUG("out of memory");
  return p;
}

#define BIT_SET(s, i) ((s)[(i) / 64] |= 1ull << ((i) % 64))
#define BIT_TEST(s, i) (((s)[(i) / 64] >> ((i) % 64)) & 1)

/* --- the split state ----------------------------------------------------- */

struct stop {
  LLVMBasicBlockRef head, cont; /* head ends at the sync point, cont follows */
  int shuffle;
};

/* A branch on `offset + tid.x < bound` (see narrowing). */
enum guard_kind { GUARD_ULT, GUARD_SLT, GUARD_ULE, GUARD_SLE, GUARD_EQ0 };
struct guard {
  LLVMValueRef br, cond;
  unsigned bound_op;   /* the operand of cond that is the bound */
  LLVMValueRef add;    /* offset + tid.x, or NULL for tid.x alone */
  unsigned offset_op;  /* the operand of add that is the offset */
  enum guard_kind kind;
  unsigned idle;       /* the successor the threads at or past the bound take */
};

struct split {
  struct rewriter *rw;
  LLVMValueRef fn;
  LLVMBasicBlockRef pre; /* entry: recomputed values, scratch addresses */
  LLVMValueRef t64, n64, scratch, lane;
  struct stop *stops;
  size_t nstops;
  /* tracked values: the instructions outside pre that produce a value */
  LLVMValueRef *vals;
  size_t nvals;
  struct ptrmap vix;
  uint64_t *roots; /* per value: the allocas (bit i: alloca i) it points into */
  size_t *allocas; /* value index of alloca i */
  size_t nallocas;
  LLVMBasicBlockRef *blocks;
  size_t nblocks;
  struct ptrmap bix;
  size_t words;
  uint64_t *use, *def, *in, *out;
  /* uniformity (see below) */
  struct ptrmap dix;  /* every instruction of fn -> its index in div */
  unsigned char *div; /* may differ between the threads of a block */
  unsigned char *apart; /* per block: threads may be apart there */
  int lockstep;       /* every round is uniform, by construction */
  /* narrowing (see below) */
  struct guard *guards;
  size_t nguards;
  struct ptrmap divbr; /* blocks ending in a divergent branch */
};

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

static int is_sync_call(LLVMValueRef i, int *shuffle) {
  if (!LLVMIsACallInst(i))
    return 0;
  LLVMValueRef callee = LLVMGetCalledValue(i);
  if (!LLVMIsAFunction(callee))
    return 0;
  size_t len;
  const char *name = LLVMGetValueName2(callee, &len);
  if (!strcmp(name, "gpuccHostBarrier")) {
    *shuffle = 0;
    return 1;
  }
  if (!strcmp(name, "gpuccHostShuffle")) {
    *shuffle = 1;
    return 1;
  }
  return 0;
}

/* --- moving the body into the step function ------------------------------ */

/* The step's parameters after the kernel's own (ctx, args...). */
enum {
  STEP_T,       /* i32: the thread (linearized id) */
  STEP_N,       /* i32: threads in the block */
  STEP_SCRATCH, /* ptr: the per-thread arrays */
  STEP_RESUME,  /* i32: the resume point */
  STEP_UIN,     /* ptr: block-uniform values, as the last stop left them */
  STEP_UOUT,    /* ptr: where this stop leaves them (see rebuild) */
  STEP_PROBE,   /* i1: only say how many threads the round needs (narrowing) */
  STEP_BUSY,    /* i1: the probe's guard lets every thread of this loop through */
  STEP_EXTRA
};

static LLVMValueRef step_param(LLVMValueRef step, unsigned which) {
  return LLVMGetParam(step, LLVMCountParams(step) - STEP_EXTRA + which);
}

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

/* Phis of succ that name `from` as a predecessor name `to` instead (the C
 * API cannot set a phi's incoming block: the phi is rebuilt). */
static void retarget_phis(struct split *s, LLVMBasicBlockRef succ, LLVMBasicBlockRef from,
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

/* Cuts the block of sync call `call` after it; the call becomes its effect
 * on the lane record (a shuffle) or nothing (a barrier). */
static void split_at(struct split *s, LLVMValueRef call, int shuffle) {
  struct rewriter *rw = s->rw;
  LLVMBasicBlockRef head = LLVMGetInstructionParent(call);
  LLVMBasicBlockRef cont = LLVMAppendBasicBlockInContext(rw->c, s->fn, "sync.cont");
  LLVMBuilderRef b = LLVMCreateBuilderInContext(rw->c);
  LLVMPositionBuilderAtEnd(b, cont);
  for (LLVMValueRef i = LLVMGetNextInstruction(call), next; i; i = next) {
    next = LLVMGetNextInstruction(i);
    LLVMInstructionRemoveFromParent(i);
    LLVMInsertIntoBuilder(b, i);
  }
  LLVMValueRef term = LLVMGetBasicBlockTerminator(cont);
  for (unsigned k = 0, n = term ? LLVMGetNumSuccessors(term) : 0; k < n; k++) {
    LLVMBasicBlockRef succ = LLVMGetSuccessor(term, k);
    int seen = 0;
    for (unsigned j = 0; j < k; j++)
      seen |= LLVMGetSuccessor(term, j) == succ;
    if (!seen)
      retarget_phis(s, succ, head, cont);
  }
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

/* s->blocks and s->bix: the blocks of fn, in order. */
static void index_blocks(struct split *s) {
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

static void number(struct split *s) {
  size_t nv = 0;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(s->fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
      nv++;
  s->vals = xcalloc(nv, sizeof *s->vals);
  pm_init(&s->vix, nv);
  index_blocks(s);
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

/* --- uniformity -----------------------------------------------------------
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
 * of once per thread (rebuild, emit_lockstep_entry). */

#define NONE ((size_t)-1)

/* Successor indices of block bi (into s->blocks); *n of them. */
static size_t *successors(struct split *s, size_t bi, size_t *n) {
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
static size_t *idom_tree(size_t n, size_t root, size_t **fwd, const size_t *nfwd, size_t **back,
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
static size_t **predecessors(size_t nb, size_t **succ, const size_t *nsucc, int exit,
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
static size_t *post_dominators(struct split *s, size_t **succ, size_t *nsucc) {
  size_t nb = s->nblocks, *npred;
  size_t **pred = predecessors(nb, succ, nsucc, 1, &npred);
  /* On the reversed graph: into a block come its successors, and the exit
   * into the blocks that end the function. */
  size_t **into = xcalloc(nb + 1, sizeof *into), *ninto = xcalloc(nb + 1, sizeof *ninto);
  size_t exit = nb;
  for (size_t b = 0; b < nb; b++) {
    into[b] = nsucc[b] ? succ[b] : &exit;
    ninto[b] = nsucc[b] ? nsucc[b] : 1;
  }
  size_t *ipdom = idom_tree(nb + 1, nb, pred, npred, into, ninto);
  for (size_t b = 0; b <= nb; b++)
    free(pred[b]);
  free(pred), free(npred), free(into), free(ninto);
  return ipdom;
}

static int starts_with(const char *str, const char *prefix) {
  return strncmp(str, prefix, strlen(prefix)) == 0;
}

/* Calls whose result depends on their operands alone. */
static int pure_call(LLVMValueRef call) {
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

static int divergent_operand(struct split *s, LLVMValueRef op) {
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
      if (divergent_operand(s, LLVMGetIncomingValue(i, k)))
        return 1;
    return 0;
  }
  case LLVMLoad:
    return !uniform_ctx_load(s, i);
  case LLVMCall:
    if (!pure_call(i))
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
    if (!LLVMIsABasicBlock(op) && divergent_operand(s, op))
      return 1;
  }
  return 0;
}

/* Fills s->div and s->lockstep; the function is split, its stops known. */
static void uniformity(struct split *s) {
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
    succ[b] = successors(s, b, &nsucc[b]);
  size_t *ipdom = post_dominators(s, succ, nsucc);
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
      if (cond && !divergent_operand(s, cond))
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

static int is_divergent(struct split *s, LLVMValueRef v) {
  long d = pm_get(&s->dix, v);
  return d < 0 || s->div[d];
}

/* --- narrowing the loop over the threads -----------------------------------
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
 * alone. At least one thread runs per row, so uniform values reach uout. */

#define PROBE_ALL 0xffffffffu

/* The dimension of a load of ctx->tid[d], or -1. */
static int tid_load_dim(struct split *s, LLVMValueRef v) {
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
  return tid_load_dim(s, v) == 0;
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
    if (is_tid_x(s, LLVMGetOperand(v, k)) && !divergent_operand(s, LLVMGetOperand(v, 1 - k))) {
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
  if (is_tid_x_index(s, LLVMGetOperand(c, 0), &add, &oop) && !divergent_operand(s, LLVMGetOperand(c, 1))) {
    bop = 1;
  } else if (is_tid_x_index(s, LLVMGetOperand(c, 1), &add, &oop) &&
             !divergent_operand(s, LLVMGetOperand(c, 0))) {
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
static int has_effect(LLVMValueRef i, int allow_local) {
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
    return !pure_call(i);
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
static void find_guards(struct split *s) {
  size_t nb = s->nblocks, w = s->words;
  pm_init(&s->divbr, nb);
  if (!s->lockstep)
    return;
  size_t **succ = xcalloc(nb, sizeof *succ), *nsucc = xcalloc(nb, sizeof *nsucc);
  for (size_t b = 0; b < nb; b++)
    succ[b] = successors(s, b, &nsucc[b]);
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
    if (!cond || divergent_operand(s, cond))
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
        ok = !has_effect(i, 0);
      if (head_of[y] >= 0) {
        /* Per-thread values stored at this stop must not be new in the
         * round: for each region the guard is in, none defined there. */
        const uint64_t *live = s->in + (size_t)pm_get(&s->bix, s->stops[head_of[y]].cont) * w;
        for (size_t v = 0; v < s->nvals && ok; v++) {
          if (!BIT_TEST(live, v) || LLVMIsAAllocaInst(s->vals[v]) || !is_divergent(s, s->vals[v]))
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
  LLVMBuilderRef b = LLVMCreateBuilderInContext(rw->c);
  LLVMPositionBuilderAtEnd(b, cont);
  for (LLVMValueRef i = at, next; i; i = next) {
    next = LLVMGetNextInstruction(i);
    LLVMInstructionRemoveFromParent(i);
    LLVMInsertIntoBuilder(b, i);
  }
  LLVMValueRef term = LLVMGetBasicBlockTerminator(cont);
  for (unsigned k = 0, n = term ? LLVMGetNumSuccessors(term) : 0; k < n; k++) {
    LLVMBasicBlockRef succ = LLVMGetSuccessor(term, k);
    int dup = 0;
    for (unsigned j = 0; j < k; j++)
      dup |= LLVMGetSuccessor(term, j) == succ;
    if (!dup)
      retarget_phis(s, succ, x, cont);
  }
  LLVMPositionBuilderAtEnd(b, out);
  LLVMBuildRet(b, g ? guard_bound(s, b, g) : LLVMConstInt(rw->i32, PROBE_ALL, 0));
  LLVMPositionBuilderAtEnd(b, x);
  LLVMBuildCondBr(b, step_param(s->fn, STEP_PROBE), out, cont);
  LLVMDisposeBuilder(b);
}

/* The probe checks, after rebuild: at each guard, and before the first
 * effect, return or divergent branch of every other block. */
static void add_probe(struct split *s) {
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
      if (!g && !has_effect(i, 1) && !LLVMIsAReturnInst(i) && !(term && pm_get(&s->divbr, bb) >= 0))
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

/* --- implicit barriers ----------------------------------------------------
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
 * branch): there a round per iteration costs more than the vector gains. */

#define IMPLICIT_MIN_X 16
#define IMPLICIT_MAX_LOOPS 4
#define NOT_AFFINE LONG_MIN

/* v(x + 1) - v(x) for threads x, x + 1 of a row: 0 for a uniform value or
 * one of tid.y, tid.z alone; NOT_AFFINE when not a known constant. */
static long x_stride(struct split *s, LLVMValueRef v, int depth) {
  if (!divergent_operand(s, v))
    return 0;
  if (!LLVMIsAInstruction(v) || depth > 12)
    return NOT_AFFINE;
  const long big = 1L << 24;
  switch (LLVMGetInstructionOpcode(v)) {
  case LLVMLoad: {
    int d = tid_load_dim(s, v);
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
  if (!divergent_operand(s, p))
    return 1;
  while (LLVMIsAAddrSpaceCastInst(p) || LLVMIsABitCastInst(p))
    p = LLVMGetOperand(p, 0);
  if (!LLVMIsAGetElementPtrInst(p) || LLVMGetNumOperands(p) != 2 || divergent_operand(s, LLVMGetOperand(p, 0)))
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
      if (divergent_operand(s, c))
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
      } else if (has_effect(i, 0)) {
        return 0; /* barriers */
      }
    }
  }
  return consecutive;
}

/* Before the split: puts the barriers in, at most IMPLICIT_MAX_LOOPS. */
static void implicit_barriers(struct split *s) {
  struct rewriter *rw = s->rw;
  /* Not with private arrays (they would move to scratch), shuffles (warps
   * are not in lockstep), nor anything whose order between threads shows:
   * a round per iteration would print, assert or count atomically in
   * another order than the kernel did so far. */
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(s->fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      int shuffle, sync = is_sync_call(i, &shuffle);
      if (LLVMIsAAllocaInst(i) || (sync && shuffle) ||
          (!sync && LLVMGetInstructionOpcode(i) != LLVMStore && has_effect(i, 0)))
        return;
    }
  index_blocks(s);
  uniformity(s);
  size_t nb = s->nblocks, *npred;
  size_t **succ = xcalloc(nb, sizeof *succ), *nsucc = xcalloc(nb, sizeof *nsucc);
  for (size_t b = 0; b < nb; b++)
    succ[b] = successors(s, b, &nsucc[b]);
  size_t **pred = predecessors(nb, succ, nsucc, 0, &npred);
  size_t *idom = idom_tree(nb, 0, succ, nsucc, pred, npred);
  /* A kernel whose barriers some divergent branch controls is not in
   * lockstep: a barrier per iteration would go through gpuccHostRound. */
  int ok = 1;
  for (size_t b = 0; b < nb && ok; b++)
    for (LLVMValueRef i = LLVMGetFirstInstruction(s->blocks[b]); i && ok; i = LLVMGetNextInstruction(i)) {
      int shuffle;
      if (is_sync_call(i, &shuffle) && s->apart[b])
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
    LLVMPositionBuilderAtEnd(b, rest);
    for (LLVMValueRef i = first, next; i; i = next) {
      next = LLVMGetNextInstruction(i);
      LLVMInstructionRemoveFromParent(i);
      LLVMInsertIntoBuilder(b, i);
    }
    LLVMValueRef term = LLVMGetBasicBlockTerminator(rest);
    for (unsigned j = 0, n = LLVMGetNumSuccessors(term); j < n; j++) {
      LLVMBasicBlockRef succ_bb = LLVMGetSuccessor(term, j);
      int dup = 0;
      for (unsigned i = 0; i < j; i++)
        dup |= LLVMGetSuccessor(term, i) == succ_bb;
      if (!dup)
        retarget_phis(s, succ_bb, h, rest);
    }
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

/* The kernel argument a pointer is derived from (through GEPs and casts),
 * or NULL. */
static LLVMValueRef argument_base(struct split *s, LLVMValueRef p) {
  while (LLVMIsAGetElementPtrInst(p) || LLVMIsABitCastInst(p) ||
         (LLVMIsAConstantExpr(p) && LLVMGetConstOpcode(p) == LLVMGetElementPtr))
    p = LLVMGetOperand(p, 0);
  unsigned nargs = LLVMCountParams(s->fn) - STEP_EXTRA; /* ctx, args... */
  for (unsigned k = 1; k < nargs; k++)
    if (p == LLVMGetParam(s->fn, k))
      return p;
  return NULL;
}

/* Alias scopes, for the loops over the threads that the block entry runs:
 * without them LLVM cannot tell a thread's slot from the kernel's memory,
 * nor, since they are in different address spaces, check at run time that
 * workgroup and global memory do not overlap (LoopAccessAnalysis compares
 * pointers of one address space only), and those loops stay scalar.
 *
 *   - each per-thread slot of a live value is a scope: only the stops and
 *     resumes touch that memory;
 *   - workgroup memory (address space 3) is one: a block's buffer, which no
 *     pointer passed to the kernel can point into, so accesses through the
 *     kernel's pointer arguments are not in it.
 * Other accesses (private arrays moved to scratch, lane records, memory
 * reached through loaded pointers) are in neither, which is true of both. */
static void tag_memory(struct split *s, LLVMValueRef *slot, LLVMValueRef *uslot, const char *kname) {
  struct rewriter *rw = s->rw;
  size_t nscopes = 0;
  LLVMMetadataRef *scopes = xcalloc(s->nvals + 1, sizeof *scopes);
  struct ptrmap scope_of; /* slot pointer -> its scope */
  pm_init(&scope_of, s->nvals);
  char *dname = xasprintf("gpucc.memory.%s", kname);
  LLVMMetadataRef dstr = LLVMMDStringInContext2(rw->c, dname, strlen(dname));
  LLVMMetadataRef domain = LLVMMDNodeInContext2(rw->c, &dstr, 1);
  free(dname);
  for (size_t v = 0; v <= s->nvals; v++) {
    if (v < s->nvals && (!slot[v] || uslot[v] || !s->vals[v]))
      continue; /* not a per-thread slot of a value */
    /* The last scope is workgroup memory's. */
    char *name = v < s->nvals ? xasprintf("gpucc.slot.%s.%zu", kname, nscopes)
                              : xasprintf("gpucc.workgroup.%s", kname);
    LLVMMetadataRef ops[2] = {LLVMMDStringInContext2(rw->c, name, strlen(name)), domain};
    free(name);
    if (v < s->nvals)
      pm_put(&scope_of, slot[v], nscopes);
    scopes[nscopes++] = LLVMMDNodeInContext2(rw->c, ops, 2);
  }
  size_t nslots = nscopes - 1, wg = nslots;
  unsigned kscope = LLVMGetMDKindIDInContext(rw->c, "alias.scope", 11);
  unsigned knoalias = LLVMGetMDKindIDInContext(rw->c, "noalias", 7);
  LLVMValueRef wg_scope = LLVMMetadataAsValue(rw->c, LLVMMDNodeInContext2(rw->c, &scopes[wg], 1));
  LLVMValueRef not_slots = nslots ? LLVMMetadataAsValue(rw->c, LLVMMDNodeInContext2(rw->c, scopes, nslots)) : NULL;
  LLVMValueRef not_any = LLVMMetadataAsValue(rw->c, LLVMMDNodeInContext2(rw->c, scopes, nscopes));
  LLVMMetadataRef *others = xcalloc(nscopes, sizeof *others);
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(s->fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      LLVMOpcode op = LLVMGetInstructionOpcode(i);
      LLVMValueRef ptr;
      if (op == LLVMLoad || op == LLVMAtomicRMW || op == LLVMAtomicCmpXchg)
        ptr = LLVMGetOperand(i, 0);
      else if (op == LLVMStore)
        ptr = LLVMGetOperand(i, 1);
      else
        continue; /* calls keep no tag: they may touch anything */
      long sc = pm_get(&scope_of, ptr);
      if (sc >= 0) {
        size_t n = 0, mine = (size_t)sc;
        for (size_t k = 0; k < nscopes; k++)
          if (k != mine)
            others[n++] = scopes[k];
        LLVMSetMetadata(i, kscope, LLVMMetadataAsValue(rw->c, LLVMMDNodeInContext2(rw->c, &scopes[mine], 1)));
        LLVMSetMetadata(i, knoalias, LLVMMetadataAsValue(rw->c, LLVMMDNodeInContext2(rw->c, others, n)));
      } else if (LLVMGetPointerAddressSpace(LLVMTypeOf(ptr)) == 3) {
        LLVMSetMetadata(i, kscope, wg_scope);
        if (not_slots)
          LLVMSetMetadata(i, knoalias, not_slots);
      } else if (argument_base(s, ptr)) {
        LLVMSetMetadata(i, knoalias, not_any);
      } else if (not_slots) {
        LLVMSetMetadata(i, knoalias, not_slots);
      }
    }
  free(others);
  free(scopes);
  pm_free(&scope_of);
}

/* Rebuilds s->fn as the step function; returns the per-thread scratch bytes
 * and sets *ubytes to the size of the block-uniform area.
 *
 * In lockstep (see uniformity) a uniform value live across a stop is kept
 * once per block rather than per thread: every thread that reaches the stop
 * stores the same value to uout, every thread resuming loads it from uin,
 * and the block entry copies uout to uin between rounds. Two areas, since
 * in one round thread 0 stops before thread 1 resumes. Loaded from memory
 * that does not change during the round, such a value (a loop counter, a
 * tile offset) is invariant in the loop over the threads: LLVM hoists it
 * and the branches on it out of that loop. */
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
    if (!alloca && s->lockstep && !is_divergent(s, i)) {
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
  tag_memory(s, slot, uslot, kname);
  LLVMDisposeBuilder(b);
  free(across), free(off), free(stride), free(slot), free(local), free(uslot);
  return round_up(bytes, 8);
}

/* --- entry points -------------------------------------------------------- */

static void unpack(struct rewriter *rw, LLVMBuilderRef b, LLVMValueRef step, LLVMValueRef params,
                   LLVMValueRef *args) {
  unsigned n = LLVMCountParams(step) - STEP_EXTRA; /* ctx, args..., then the step's own */
  for (unsigned i = 1; i < n; i++) {
    LLVMValueRef idx = LLVMConstInt(rw->i64, i - 1, 0);
    LLVMValueRef p = LLVMBuildLoad2(b, rw->ptr, LLVMBuildGEP2(b, rw->ptr, params, &idx, 1, ""), "");
    args[i] = LLVMBuildLoad2(b, LLVMTypeOf(LLVMGetParam(step, i)), p, "");
  }
}

static LLVMValueRef call_step(struct rewriter *rw, LLVMBuilderRef b, LLVMValueRef step,
                              LLVMValueRef *args, LLVMValueRef t, LLVMValueRef n,
                              LLVMValueRef scratch, LLVMValueRef resume, LLVMValueRef uin,
                              LLVMValueRef uout, int probe, LLVMValueRef busy) {
  unsigned np = LLVMCountParams(step), first = np - STEP_EXTRA;
  args[first + STEP_T] = t;
  args[first + STEP_N] = n;
  args[first + STEP_SCRATCH] = scratch;
  args[first + STEP_RESUME] = resume;
  args[first + STEP_UIN] = uin;
  args[first + STEP_UOUT] = uout;
  args[first + STEP_PROBE] = LLVMConstInt(LLVMInt1TypeInContext(rw->c), (unsigned)probe, 0);
  args[first + STEP_BUSY] = busy ? busy : LLVMConstInt(LLVMInt1TypeInContext(rw->c), 0, 0);
  (void)rw;
  return LLVMBuildCall2(b, LLVMGlobalGetValueType(step), step, args, np, "code");
}

/* K__gpucc_thread for a split kernel: one thread, its scratch on its stack
 * (n = 1), and the runtime's fiber barrier and shuffle at each stop. Its
 * uniform values need no second area: a thread loads them when it resumes,
 * before it stores any at its next stop. */
static void emit_thread_entry(struct rewriter *rw, LLVMValueRef step, const char *kname,
                              uint64_t bytes, uint64_t ubytes) {
  LLVMValueRef f = host_new_entry(rw, kname, GPUCC_HOST_THREAD_SUFFIX);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(rw->c);
  LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(rw->c, f, "entry");
  LLVMBasicBlockRef loop = LLVMAppendBasicBlockInContext(rw->c, f, "loop");
  LLVMBasicBlockRef sync = LLVMAppendBasicBlockInContext(rw->c, f, "sync");
  LLVMBasicBlockRef shfl = LLVMAppendBasicBlockInContext(rw->c, f, "shuffle");
  LLVMBasicBlockRef bar = LLVMAppendBasicBlockInContext(rw->c, f, "barrier");
  LLVMBasicBlockRef back = LLVMAppendBasicBlockInContext(rw->c, f, "next");
  LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(rw->c, f, "done");
  LLVMPositionBuilderAtEnd(b, entry);
  LLVMValueRef ctx = LLVMGetParam(f, 1);
  LLVMValueRef *args = xcalloc(LLVMCountParams(step), sizeof *args);
  args[0] = ctx;
  unpack(rw, b, step, LLVMGetParam(f, 0), args);
  LLVMValueRef buf = LLVMBuildArrayAlloca(b, LLVMInt8TypeInContext(rw->c),
                                          LLVMConstInt(rw->i64, bytes, 0), "scratch");
  LLVMSetAlignment(buf, 64);
  LLVMValueRef ubuf = LLVMBuildArrayAlloca(b, LLVMInt8TypeInContext(rw->c),
                                           LLVMConstInt(rw->i64, ubytes ? ubytes : 1, 0), "uniform");
  LLVMSetAlignment(ubuf, 16);
  LLVMBuildBr(b, loop);
  LLVMPositionBuilderAtEnd(b, loop);
  LLVMValueRef r = LLVMBuildPhi(b, rw->i32, "resume");
  LLVMValueRef zero = LLVMConstInt(rw->i32, 0, 0), one = LLVMConstInt(rw->i32, 1, 0);
  LLVMAddIncoming(r, &zero, &entry, 1);
  LLVMValueRef code = call_step(rw, b, step, args, zero, one, buf, r, ubuf, ubuf, 0, NULL);
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntEQ, code, zero, ""), done, sync);
  LLVMPositionBuilderAtEnd(b, sync);
  LLVMBuildCondBr(b, LLVMBuildTrunc(b, code, LLVMInt1TypeInContext(rw->c), ""), shfl, bar);
  LLVMPositionBuilderAtEnd(b, shfl);
  LLVMValueRef lane = LLVMBuildGEP2(b, LLVMInt8TypeInContext(rw->c), buf,
                                    (LLVMValueRef[]){LLVMConstInt(rw->i64, 8, 0)}, 1, "");
  LLVMValueRef sargs[5] = {ctx};
  for (unsigned k = 0; k < 4; k++) {
    LLVMValueRef o = LLVMConstInt(rw->i64, 4 * k, 0);
    sargs[k + 1] = LLVMBuildLoad2(b, rw->i32, LLVMBuildGEP2(b, LLVMInt8TypeInContext(rw->c), lane, &o, 1, ""), "");
  }
  LLVMTypeRef sp[5] = {rw->ptr, rw->i32, rw->i32, rw->i32, rw->i32};
  LLVMValueRef sfn = host_declare(rw, "gpuccHostShuffle", rw->i64, sp, 5);
  LLVMValueRef res = LLVMBuildCall2(b, LLVMGlobalGetValueType(sfn), sfn, sargs, 5, "");
  LLVMValueRef ro = LLVMConstInt(rw->i64, LANE_RESULT_OFFSET, 0);
  LLVMBuildStore(b, res, LLVMBuildGEP2(b, LLVMInt8TypeInContext(rw->c), lane, &ro, 1, ""));
  LLVMBuildBr(b, back);
  LLVMPositionBuilderAtEnd(b, bar);
  LLVMTypeRef bp = rw->ptr;
  LLVMValueRef bfn = host_declare(rw, "gpuccHostBarrier", LLVMVoidTypeInContext(rw->c), &bp, 1);
  LLVMBuildCall2(b, LLVMGlobalGetValueType(bfn), bfn, &ctx, 1, "");
  LLVMBuildBr(b, back);
  LLVMPositionBuilderAtEnd(b, back);
  LLVMValueRef next = LLVMBuildLShr(b, code, one, "");
  LLVMAddIncoming(r, &next, &back, 1);
  LLVMBuildBr(b, loop);
  LLVMPositionBuilderAtEnd(b, done);
  LLVMBuildRetVoid(b);
  free(args);
  LLVMDisposeBuilder(b);
}

/* K__gpucc_block for a split kernel: rounds over the block's threads. */
static void emit_block_entry(struct rewriter *rw, LLVMValueRef step, const char *kname,
                             size_t nstops) {
  LLVMValueRef f = host_new_entry(rw, kname, GPUCC_HOST_BLOCK_SUFFIX);
  LLVMTypeRef i8 = LLVMInt8TypeInContext(rw->c);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(rw->c);
  LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(rw->c, f, "entry");
  LLVMBasicBlockRef dispatch = LLVMAppendBasicBlockInContext(rw->c, f, "dispatch");
  LLVMBasicBlockRef mixed = LLVMAppendBasicBlockInContext(rw->c, f, "mixed");
  LLVMBasicBlockRef check = LLVMAppendBasicBlockInContext(rw->c, f, "check");
  LLVMBasicBlockRef same = LLVMAppendBasicBlockInContext(rw->c, f, "same");
  LLVMBasicBlockRef barrier = LLVMAppendBasicBlockInContext(rw->c, f, "barrier");
  LLVMBasicBlockRef round = LLVMAppendBasicBlockInContext(rw->c, f, "round");
  LLVMBasicBlockRef after = LLVMAppendBasicBlockInContext(rw->c, f, "after");
  LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(rw->c, f, "done");
  LLVMPositionBuilderAtEnd(b, entry);
  /* A private copy of the context: its fields become registers once the
   * step is inlined (as in the plain block entry). */
  LLVMValueRef ctx = LLVMBuildAlloca(b, rw->ctx_ty, "ctx");
  LLVMValueRef acc_or = LLVMBuildAlloca(b, rw->i32, "codes.or");
  LLVMValueRef acc_and = LLVMBuildAlloca(b, rw->i32, "codes.and");
  LLVMBuildStore(b, LLVMBuildLoad2(b, rw->ctx_ty, LLVMGetParam(f, 1), ""), ctx);
  LLVMValueRef *args = xcalloc(LLVMCountParams(step), sizeof *args);
  args[0] = ctx;
  unpack(rw, b, step, LLVMGetParam(f, 0), args);
  LLVMValueRef nx = host_ctx_field(rw, b, ctx, CTX_NTID, 0);
  LLVMValueRef ny = host_ctx_field(rw, b, ctx, CTX_NTID, 1);
  LLVMValueRef nz = host_ctx_field(rw, b, ctx, CTX_NTID, 2);
  LLVMValueRef n = LLVMBuildNUWMul(b, LLVMBuildNUWMul(b, nx, ny, ""), nz, "n");
  LLVMValueRef sfield = LLVMBuildStructGEP2(b, rw->ctx_ty, ctx, CTX_SCRATCH, "");
  LLVMValueRef scratch = LLVMBuildLoad2(b, rw->ptr, sfield, "scratch");
  LLVMValueRef codes = scratch;
  LLVMValueRef nothing = LLVMConstPointerNull(rw->ptr); /* no uniform area: not in lockstep */
  LLVMValueRef lanes = LLVMBuildGEP2(b, i8, scratch,
                                     (LLVMValueRef[]){LLVMBuildMul(b, LLVMBuildZExt(b, n, rw->i64, ""),
                                                                   LLVMConstInt(rw->i64, 8, 0), "")},
                                     1, "lanes");
  LLVMBuildBr(b, dispatch);

  LLVMPositionBuilderAtEnd(b, dispatch);
  LLVMValueRef r = LLVMBuildPhi(b, rw->i32, "resume");
  LLVMValueRef zero = LLVMConstInt(rw->i32, 0, 0), one = LLVMConstInt(rw->i32, 1, 0);
  LLVMAddIncoming(r, &zero, &entry, 1);
  LLVMValueRef sw = LLVMBuildSwitch(b, r, mixed, (unsigned)nstops + 1);

  /* One loop nest per resume point: with the point constant, the step
   * inlines to that region only. */
  for (size_t k = 0; k <= nstops; k++) {
    LLVMBasicBlockRef uni = LLVMAppendBasicBlockInContext(rw->c, f, "uniform");
    LLVMAddCase(sw, LLVMConstInt(rw->i32, k, 0), uni);
    LLVMPositionBuilderAtEnd(b, uni);
    LLVMBuildStore(b, zero, acc_or);
    LLVMBuildStore(b, LLVMConstInt(rw->i32, 0xffffffffu, 0), acc_and);
    LLVMBasicBlockRef hz, hy, hx, ez, ey, ex;
    LLVMValueRef iz, iy, ix;
    host_open_loop(rw, b, f, ctx, 2, &hz, &iz, &ez);
    host_open_loop(rw, b, f, ctx, 1, &hy, &iy, &ey);
    host_open_loop(rw, b, f, ctx, 0, &hx, &ix, &ex);
    LLVMValueRef t = LLVMBuildNUWAdd(
        b, LLVMBuildNUWMul(b, LLVMBuildNUWAdd(b, LLVMBuildNUWMul(b, iz, ny, ""), iy, ""), nx, ""), ix, "t");
    LLVMValueRef code = call_step(rw, b, step, args, t, n, scratch, LLVMConstInt(rw->i32, k, 0),
                                  nothing, nothing, 0, NULL);
    LLVMValueRef t64 = LLVMBuildZExt(b, t, rw->i64, "");
    LLVMBuildStore(b, code, LLVMBuildGEP2(b, rw->i32, codes, &t64, 1, ""));
    LLVMBuildStore(b, LLVMBuildOr(b, LLVMBuildLoad2(b, rw->i32, acc_or, ""), code, ""), acc_or);
    LLVMBuildStore(b, LLVMBuildAnd(b, LLVMBuildLoad2(b, rw->i32, acc_and, ""), code, ""), acc_and);
    host_close_loop(rw, b, hx, ix, nx, ex);
    host_close_loop(rw, b, hy, iy, ny, ey);
    host_close_loop(rw, b, hz, iz, nz, ez);
    LLVMBuildBr(b, check);
  }

  /* Threads at different points: each that may go on runs its own step. */
  LLVMPositionBuilderAtEnd(b, mixed);
  {
    LLVMBasicBlockRef head = LLVMAppendBasicBlockInContext(rw->c, f, "mixed.loop");
    LLVMBasicBlockRef run = LLVMAppendBasicBlockInContext(rw->c, f, "mixed.run");
    LLVMBasicBlockRef next = LLVMAppendBasicBlockInContext(rw->c, f, "mixed.next");
    LLVMBuildBr(b, head);
    LLVMPositionBuilderAtEnd(b, head);
    LLVMValueRef t = LLVMBuildPhi(b, rw->i32, "t");
    LLVMAddIncoming(t, &zero, &mixed, 1);
    LLVMValueRef t64 = LLVMBuildZExt(b, t, rw->i64, "");
    LLVMValueRef cp = LLVMBuildGEP2(b, rw->i32, codes, &t64, 1, "");
    LLVMValueRef c = LLVMBuildLoad2(b, rw->i32, cp, "");
    /* 0: returned; the wait bit: held back by gpuccHostRound. */
    LLVMValueRef go = LLVMBuildAnd(
        b, LLVMBuildICmp(b, LLVMIntNE, c, zero, ""),
        LLVMBuildICmp(b, LLVMIntEQ, LLVMBuildAnd(b, c, LLVMConstInt(rw->i32, GPUCC_HOST_ROUND_WAIT, 0), ""), zero, ""), "");
    LLVMBuildCondBr(b, go, run, next);
    LLVMPositionBuilderAtEnd(b, run);
    LLVMValueRef tx = LLVMBuildURem(b, t, nx, "");
    LLVMValueRef rest = LLVMBuildUDiv(b, t, nx, "");
    LLVMValueRef ty = LLVMBuildURem(b, rest, ny, "");
    LLVMValueRef tz = LLVMBuildUDiv(b, rest, ny, "");
    LLVMValueRef tids[3] = {tx, ty, tz};
    for (unsigned d = 0; d < 3; d++) {
      LLVMValueRef idx[3] = {zero, LLVMConstInt(rw->i32, CTX_TID, 0), LLVMConstInt(rw->i32, d, 0)};
      LLVMBuildStore(b, tids[d], LLVMBuildInBoundsGEP2(b, rw->ctx_ty, ctx, idx, 3, ""));
    }
    LLVMValueRef code = call_step(rw, b, step, args, t, n, scratch, LLVMBuildLShr(b, c, one, ""),
                                  nothing, nothing, 0, NULL);
    LLVMBuildStore(b, code, cp);
    LLVMBuildBr(b, next);
    LLVMPositionBuilderAtEnd(b, next);
    LLVMValueRef t1 = LLVMBuildNUWAdd(b, t, one, "");
    LLVMAddIncoming(t, &t1, &next, 1);
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntULT, t1, n, ""), head, round);
  }

  /* After a uniform round: all stopped at one barrier completes it here,
   * all returned ends the block; the rest is the runtime's. */
  LLVMPositionBuilderAtEnd(b, check);
  LLVMValueRef vor = LLVMBuildLoad2(b, rw->i32, acc_or, "");
  LLVMValueRef vand = LLVMBuildLoad2(b, rw->i32, acc_and, "");
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntEQ, vor, vand, ""), same, round);
  LLVMPositionBuilderAtEnd(b, same);
  LLVMValueRef sw2 = LLVMBuildSwitch(b, LLVMBuildAnd(b, vor, one, ""), round, 1);
  LLVMAddCase(sw2, zero, barrier);
  LLVMPositionBuilderAtEnd(b, barrier);
  LLVMValueRef rb = LLVMBuildLShr(b, vor, one, "");
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntEQ, vor, zero, ""), done, dispatch);
  LLVMAddIncoming(r, &rb, &barrier, 1);

  LLVMPositionBuilderAtEnd(b, round);
  LLVMTypeRef rp[3] = {rw->ptr, rw->ptr, rw->ptr};
  LLVMValueRef rfn = host_declare(rw, "gpuccHostRound", rw->i32, rp, 3);
  /* The caller's ctx (same sizes), not the private copy: a copy whose
   * address escapes would stay in memory, and so would the thread ids the
   * loops store into it, which defeats vectorization. */
  LLVMValueRef rargs[3] = {LLVMGetParam(f, 1), codes, lanes};
  LLVMValueRef rc = LLVMBuildCall2(b, LLVMGlobalGetValueType(rfn), rfn, rargs, 3, "");
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntEQ, rc, zero, ""), done, after);
  LLVMPositionBuilderAtEnd(b, after);
  LLVMValueRef ra = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntEQ, rc, one, ""),
                                    LLVMConstInt(rw->i32, 0xffffffffu, 0), LLVMBuildLShr(b, rc, one, ""), "");
  LLVMAddIncoming(r, &ra, &after, 1);
  LLVMBuildBr(b, dispatch);

  LLVMPositionBuilderAtEnd(b, done);
  LLVMBuildRetVoid(b);
  free(args);
  LLVMDisposeBuilder(b);
}

/* K__gpucc_block for a kernel in lockstep: every thread that runs a round
 * stops where the others do (uniformity), so a round is one loop nest over
 * the threads at one resume point, and the code of the last thread says
 * where all stopped: no stop codes per thread, no gpuccHostRound. The
 * uniform values live across stops are in uin/uout, two allocas that SROA
 * turns into registers once the step is inlined. */
static void emit_lockstep_entry(struct rewriter *rw, LLVMValueRef step, const char *kname,
                                size_t nstops, uint64_t ubytes, int probe) {
  LLVMValueRef f = host_new_entry(rw, kname, GPUCC_HOST_BLOCK_SUFFIX);
  LLVMTypeRef i8 = LLVMInt8TypeInContext(rw->c);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(rw->c);
  LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(rw->c, f, "entry");
  LLVMBasicBlockRef dispatch = LLVMAppendBasicBlockInContext(rw->c, f, "dispatch");
  LLVMBasicBlockRef next = LLVMAppendBasicBlockInContext(rw->c, f, "next");
  LLVMBasicBlockRef again = LLVMAppendBasicBlockInContext(rw->c, f, "again");
  LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(rw->c, f, "done");
  LLVMPositionBuilderAtEnd(b, entry);
  /* A private copy of the context, as in the other block entries. */
  LLVMValueRef ctx = LLVMBuildAlloca(b, rw->ctx_ty, "ctx");
  LLVMValueRef last = LLVMBuildAlloca(b, rw->i32, "code");
  LLVMTypeRef uty = LLVMArrayType2(i8, ubytes ? ubytes : 1);
  LLVMValueRef uin = LLVMBuildAlloca(b, uty, "uniform.in");
  LLVMValueRef uout = LLVMBuildAlloca(b, uty, "uniform.out");
  LLVMSetAlignment(uin, 16);
  LLVMSetAlignment(uout, 16);
  LLVMBuildStore(b, LLVMBuildLoad2(b, rw->ctx_ty, LLVMGetParam(f, 1), ""), ctx);
  LLVMValueRef *args = xcalloc(LLVMCountParams(step), sizeof *args);
  args[0] = ctx;
  unpack(rw, b, step, LLVMGetParam(f, 0), args);
  LLVMValueRef nx = host_ctx_field(rw, b, ctx, CTX_NTID, 0);
  LLVMValueRef ny = host_ctx_field(rw, b, ctx, CTX_NTID, 1);
  LLVMValueRef nz = host_ctx_field(rw, b, ctx, CTX_NTID, 2);
  LLVMValueRef n = LLVMBuildNUWMul(b, LLVMBuildNUWMul(b, nx, ny, ""), nz, "n");
  LLVMValueRef sfield = LLVMBuildStructGEP2(b, rw->ctx_ty, ctx, CTX_SCRATCH, "");
  LLVMValueRef scratch = LLVMBuildLoad2(b, rw->ptr, sfield, "scratch");
  LLVMBuildBr(b, dispatch);

  LLVMPositionBuilderAtEnd(b, dispatch);
  LLVMValueRef r = LLVMBuildPhi(b, rw->i32, "resume");
  LLVMValueRef zero = LLVMConstInt(rw->i32, 0, 0), one = LLVMConstInt(rw->i32, 1, 0);
  LLVMAddIncoming(r, &zero, &entry, 1);
  LLVMValueRef sw = LLVMBuildSwitch(b, r, done, (unsigned)nstops + 1);
  for (size_t k = 0; k <= nstops; k++) {
    LLVMBasicBlockRef uni = LLVMAppendBasicBlockInContext(rw->c, f, "round");
    LLVMAddCase(sw, LLVMConstInt(rw->i32, k, 0), uni);
    LLVMPositionBuilderAtEnd(b, uni);
    /* The threads of a row this round needs: x < bx (narrowing). */
    LLVMValueRef bx = nx, busy = NULL;
    if (probe) {
      LLVMValueRef bound = call_step(rw, b, step, args, zero, n, scratch, LLVMConstInt(rw->i32, k, 0),
                                     uin, uout, 1, NULL);
      /* A guard's bound is below 2^31; 0 still runs thread 0 (its idle
       * side); PROBE_ALL is no guard. */
      busy = LLVMBuildICmp(b, LLVMIntULT, LLVMBuildSub(b, bound, one, ""),
                           LLVMConstInt(rw->i32, 0x7fffffff, 0), "busy");
      LLVMValueRef in = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntULT, bound, nx, ""), bound, nx, "");
      bx = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntEQ, in, zero, ""), one, in, "bx");
    }
    LLVMBasicBlockRef hz, hy, hx, ez, ey, ex;
    LLVMValueRef iz, iy, ix;
    host_open_loop(rw, b, f, ctx, 2, &hz, &iz, &ez);
    host_open_loop(rw, b, f, ctx, 1, &hy, &iy, &ey);
    host_open_loop(rw, b, f, ctx, 0, &hx, &ix, &ex);
    LLVMValueRef t = LLVMBuildNUWAdd(
        b, LLVMBuildNUWMul(b, LLVMBuildNUWAdd(b, LLVMBuildNUWMul(b, iz, ny, ""), iy, ""), nx, ""), ix, "t");
    LLVMValueRef code = call_step(rw, b, step, args, t, n, scratch, LLVMConstInt(rw->i32, k, 0),
                                  uin, uout, 0, busy);
    LLVMBuildStore(b, code, last);
    host_close_loop(rw, b, hx, ix, bx, ex);
    host_close_loop(rw, b, hy, iy, ny, ey);
    host_close_loop(rw, b, hz, iz, nz, ez);
    LLVMBuildBr(b, next);
  }
  /* All returned, or all wait at one barrier, which completes here. */
  LLVMPositionBuilderAtEnd(b, next);
  LLVMValueRef code = LLVMBuildLoad2(b, rw->i32, last, "");
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntEQ, code, zero, ""), done, again);
  LLVMPositionBuilderAtEnd(b, again);
  LLVMBuildMemCpy(b, uin, 16, uout, 16, LLVMConstInt(rw->i64, ubytes ? ubytes : 1, 0));
  LLVMValueRef rn = LLVMBuildLShr(b, code, one, "");
  LLVMAddIncoming(r, &rn, &again, 1);
  LLVMBuildBr(b, dispatch);
  LLVMPositionBuilderAtEnd(b, done);
  LLVMBuildRetVoid(b);
  free(args);
  LLVMDisposeBuilder(b);
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
  implicit_barriers(&s);

  size_t ncalls = 0, cap = 16;
  LLVMValueRef *calls = xcalloc(cap, sizeof *calls);
  int *kinds = xcalloc(cap, sizeof *kinds);
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      int shuffle;
      if (!is_sync_call(i, &shuffle))
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
  uniformity(&s);
  find_guards(&s);
  uint64_t ubytes;
  uint64_t bytes = rebuild(&s, &ubytes, kname);
  add_probe(&s);
  LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex,
                          LLVMCreateEnumAttribute(rw->c, LLVMGetEnumAttributeKindForName("alwaysinline", 12), 0));

  emit_thread_entry(rw, fn, kname, bytes, ubytes);
  if (s.lockstep)
    emit_lockstep_entry(rw, fn, kname, s.nstops, ubytes, s.nguards > 0);
  else
    emit_block_entry(rw, fn, kname, s.nstops);
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
