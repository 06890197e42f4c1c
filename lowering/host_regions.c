/* host_regions.c: barriers and shuffles by compilation (host target).
 *
 * A kernel whose threads synchronize would otherwise run each GPU thread on
 * a fiber and switch stacks at every gpuccHostBarrier / gpuccHostShuffle.
 * Here, as in PoCL's work-group functions and AdaptiveCpp's CBS, the kernel
 * is cut at those calls instead. It becomes a step function
 *
 *   i32 step(ctx, args..., i32 t, i32 n, ptr scratch, i32 resume)
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

static LLVMValueRef make_step(struct split *s, LLVMValueRef impl, const char *kname) {
  struct rewriter *rw = s->rw;
  LLVMTypeRef fty = LLVMGlobalGetValueType(impl);
  unsigned n = LLVMCountParamTypes(fty);
  LLVMTypeRef *params = xcalloc(n + 4, sizeof *params);
  LLVMGetParamTypes(fty, params);
  params[n] = rw->i32;     /* t */
  params[n + 1] = rw->i32; /* n */
  params[n + 2] = rw->ptr; /* scratch */
  params[n + 3] = rw->i32; /* resume point */
  char *name = xasprintf("__gpucc_step.%s", kname);
  LLVMValueRef f = LLVMAddFunction(rw->mod, name, LLVMFunctionType(rw->i32, params, n + 4, 0));
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

static void number(struct split *s) {
  size_t nv = 0, nb = 0;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(s->fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
    nb++;
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
      nv++;
  }
  s->vals = xcalloc(nv, sizeof *s->vals);
  s->blocks = xcalloc(nb, sizeof *s->blocks);
  pm_init(&s->vix, nv);
  pm_init(&s->bix, nb);
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(s->fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
    pm_put(&s->bix, bb, s->nblocks);
    s->blocks[s->nblocks++] = bb;
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

/* Rebuilds s->fn as the step function; returns the per-thread scratch bytes. */
static uint64_t rebuild(struct split *s) {
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
    stride[v] = round_up(size ? size : 1, align);
    off[v] = bytes = round_up(bytes, align);
    bytes += stride[v];
    LLVMPositionBuilderBefore(b, LLVMGetBasicBlockTerminator(s->pre));
    slot[v] = scratch_field(s, b, off[v], stride[v]);
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
  LLVMValueRef sw = LLVMBuildSwitch(b, LLVMGetParam(s->fn, LLVMCountParams(s->fn) - 1), first,
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
        LLVMBuildStore(b, LLVMBuildLoad2(b, ty, slot[v], ""), local[v]);
      }
    LLVMBuildBr(b, st->cont);
    LLVMAddCase(sw, LLVMConstInt(rw->i32, k + 1, 0), resume);
  }
  fix_returns(s);
  LLVMDisposeBuilder(b);
  free(across), free(off), free(stride), free(slot), free(local);
  return round_up(bytes, 8);
}

/* --- entry points -------------------------------------------------------- */

static void unpack(struct rewriter *rw, LLVMBuilderRef b, LLVMValueRef step, LLVMValueRef params,
                   LLVMValueRef *args) {
  unsigned n = LLVMCountParams(step) - 4; /* ctx, args..., t, n, scratch, resume */
  for (unsigned i = 1; i < n; i++) {
    LLVMValueRef idx = LLVMConstInt(rw->i64, i - 1, 0);
    LLVMValueRef p = LLVMBuildLoad2(b, rw->ptr, LLVMBuildGEP2(b, rw->ptr, params, &idx, 1, ""), "");
    args[i] = LLVMBuildLoad2(b, LLVMTypeOf(LLVMGetParam(step, i)), p, "");
  }
}

static LLVMValueRef call_step(struct rewriter *rw, LLVMBuilderRef b, LLVMValueRef step,
                              LLVMValueRef *args, LLVMValueRef t, LLVMValueRef n,
                              LLVMValueRef scratch, LLVMValueRef resume) {
  unsigned np = LLVMCountParams(step);
  args[np - 4] = t;
  args[np - 3] = n;
  args[np - 2] = scratch;
  args[np - 1] = resume;
  (void)rw;
  return LLVMBuildCall2(b, LLVMGlobalGetValueType(step), step, args, np, "code");
}

/* K__gpucc_thread for a split kernel: one thread, its scratch on its stack
 * (n = 1), and the runtime's fiber barrier and shuffle at each stop. */
static void emit_thread_entry(struct rewriter *rw, LLVMValueRef step, const char *kname,
                              uint64_t bytes) {
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
  LLVMBuildBr(b, loop);
  LLVMPositionBuilderAtEnd(b, loop);
  LLVMValueRef r = LLVMBuildPhi(b, rw->i32, "resume");
  LLVMValueRef zero = LLVMConstInt(rw->i32, 0, 0), one = LLVMConstInt(rw->i32, 1, 0);
  LLVMAddIncoming(r, &zero, &entry, 1);
  LLVMValueRef code = call_step(rw, b, step, args, zero, one, buf, r);
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
    LLVMValueRef code = call_step(rw, b, step, args, t, n, scratch, LLVMConstInt(rw->i32, k, 0));
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
    LLVMValueRef code = call_step(rw, b, step, args, t, n, scratch, LLVMBuildLShr(b, c, one, ""));
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
  unsigned np = LLVMCountParams(fn);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(rw->c);
  LLVMPositionBuilderAtEnd(b, s.pre);
  s.t64 = LLVMBuildZExt(b, LLVMGetParam(fn, np - 4), rw->i64, "t");
  s.n64 = LLVMBuildZExt(b, LLVMGetParam(fn, np - 3), rw->i64, "n");
  s.scratch = LLVMGetParam(fn, np - 2);
  s.lane = scratch_field(&s, b, 8, sizeof(struct gpucc_host_lane));
  LLVMBuildBr(b, LLVMGetNextBasicBlock(s.pre));
  LLVMDisposeBuilder(b);
  hoist_recomputable(&s);

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
  uint64_t bytes = rebuild(&s);
  LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex,
                          LLVMCreateEnumAttribute(rw->c, LLVMGetEnumAttributeKindForName("alwaysinline", 12), 0));

  emit_thread_entry(rw, fn, kname, bytes);
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
  return 1;
}
