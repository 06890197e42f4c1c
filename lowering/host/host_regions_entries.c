/* host_regions_entries.c: the entry points of a split kernel.
 *
 * The step function (host_regions.c) runs one thread from one resume point
 * to its next stop; these are the loops that drive it, the symbols the
 * runtime calls (abi/host_abi.h). A split kernel has no K__gpucc_thread:
 * its block entry always runs it, so the fibers never do.
 *
 *   - K__gpucc_block, general: rounds over the block's threads, a loop nest
 *     per resume point, gpuccHostRound for what the generated code does not
 *     complete (shuffles, threads at different points);
 *   - K__gpucc_block in lockstep (host_regions_uniformity.c): a loop nest
 *     per round and nothing else, narrowed by the probe when the step has
 *     one (host_regions_narrowing.c).
 *
 * Apart from the split because they depend only on the step's signature
 * (STEP_*) and what the analyses concluded (lockstep, the probe, the
 * scratch and uniform sizes), not on how the step was made. */
#include "host_regions_internal.h"

#include <stdlib.h>

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

/* K__gpucc_block for a split kernel: rounds over the block's threads. */
void regions_emit_block_entry(struct rewriter *rw, LLVMValueRef step, const char *kname,
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
void regions_emit_lockstep_entry(struct rewriter *rw, LLVMValueRef step, const char *kname,
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
