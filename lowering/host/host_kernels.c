/* host_kernels.c: GPU kernels as CPU code, for the `host` target.
 *
 * The gpu.module is first lowered exactly as for NVIDIA (convert-gpu-to-nvvm
 * knows every gpu op: ids, barriers, shuffles, reductions, printf, workgroup
 * memory), then translated to LLVM IR. What is NVIDIA-specific in that IR is
 * a small closed set, rewritten here for the CPU (see abi/host_abi.h for
 * the contract with the runtime):
 *
 *   llvm.nvvm.read.ptx.sreg.{tid,ctaid,ntid,nctaid}.{x,y,z}
 *                      -> loads from the ctx argument added to every kernel
 *   llvm.nvvm.read.ptx.sreg.laneid / warpsize -> computed from ctx / 32
 *   llvm.nvvm.barrier*  -> gpuccHostBarrier(ctx)
 *   llvm.nvvm.shfl.sync.* -> gpuccHostShuffle(ctx, ...)
 *   llvm.nvvm.activemask -> gpuccHostShuffle(ctx, ACTIVE, site, ...)
 *   vprintf             -> gpuccHostPrintf (same contract)
 *   __assertfail        -> gpuccHostAssertFail(ctx, ...), the thread returns
 *   __nv_<fn> (libdevice) -> <fn> from libm (powi, rsqrt: defined here)
 *   addrspace(3) globals (workgroup memory) -> slices of ctx->shared
 *
 * Each kernel K then gets one entry point. K__gpucc_block runs a whole block
 * as loops over its threads that LLVM can vectorize, built by host_regions.c
 * (rounds between barriers; one round for a kernel without any), or as plain
 * nested loops where that cannot be done for a kernel whose threads never
 * wait for one another. A kernel that synchronizes and cannot be split gets
 * K__gpucc_thread instead, which runs one thread: its threads run on fibers.
 * Never both: a second entry would be a second inlined copy of the kernel
 * for LLVM to optimize and compile, dead at run time. Address space 3 stays in the IR: x86 treats it as ordinary memory.
 *
 * Device functions that read ids, synchronize or use workgroup memory get
 * the ctx too, and those that synchronize are inlined into the kernels
 * before the split (host_calls.c). This file is the top of lowering/host/:
 * it calls the split and host_calls.c, and the IR builder primitives it
 * shares with them are host_build.c's, below all three. */
#include "host_backend.h"
#include "host_build.h"
#include "host_calls.h"
#include "host_regions.h"

#include "host_abi.h" /* the contract: one source of truth */
#include "diag.h"
#include "xstr.h"

#include <llvm-c/Core.h>
#include <llvm-c/Target.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PTX_KERNEL_CC 71 /* llvm::CallingConv::PTX_Kernel */
#define SUBGROUP_SIZE GPUCC_HOST_SUBGROUP_SIZE

/* -v: say which kernels keep fibers and why (host_kernels_set_verbose). */
static int verbose;

void host_kernels_set_verbose(int on) { verbose = on; }

static int starts_with(const char *s, const char *prefix) {
  return strncmp(s, prefix, strlen(prefix)) == 0;
}

static const char *name_of(LLVMValueRef v) {
  size_t len;
  return LLVMGetValueName2(v, &len);
}

/* --- workgroup memory ---------------------------------------------------- */

static void add_shared(struct rewriter *rw, LLVMValueRef g, uint64_t off) {
  rw->shared = realloc(rw->shared, (rw->nshared + 1) * sizeof *rw->shared);
  rw->offsets = realloc(rw->offsets, (rw->nshared + 1) * sizeof *rw->offsets);
  if (!rw->shared || !rw->offsets)
    BUG("out of memory");
  rw->shared[rw->nshared] = g;
  rw->offsets[rw->nshared++] = off;
}

/* Workgroup globals with a size get their slices first; the zero-sized ones
 * (dynamic shared memory, gpu.dynamic_shared_memory's global) all start
 * where those end, so that what a launch asks for never overlaps them. */
static void layout_shared(struct rewriter *rw) {
  for (LLVMValueRef g = LLVMGetFirstGlobal(rw->mod); g; g = LLVMGetNextGlobal(g)) {
    if (LLVMGetPointerAddressSpace(LLVMTypeOf(g)) != 3)
      continue;
    LLVMTypeRef ty = LLVMGlobalGetValueType(g);
    uint64_t size = LLVMABISizeOfType(rw->td, ty);
    if (size == 0)
      continue;
    uint64_t align = LLVMGetAlignment(g);
    if (align < 16)
      align = 16;
    uint64_t off = (rw->shared_bytes + align - 1) / align * align;
    add_shared(rw, g, off);
    rw->shared_bytes = off + size;
  }
  /* Dynamic shared memory (a zero-sized extern array) starts here. */
  rw->shared_bytes = (rw->shared_bytes + 15) / 16 * 16;
  for (LLVMValueRef g = LLVMGetFirstGlobal(rw->mod); g; g = LLVMGetNextGlobal(g))
    if (LLVMGetPointerAddressSpace(LLVMTypeOf(g)) == 3 &&
        LLVMABISizeOfType(rw->td, LLVMGlobalGetValueType(g)) == 0)
      add_shared(rw, g, rw->shared_bytes);
}

/* Pointer to a workgroup global inside the block's buffer, built at the
 * start of function f (whose first parameter is the ctx). */
static LLVMValueRef shared_pointer(struct rewriter *rw, LLVMValueRef f, size_t i) {
  LLVMBuilderRef b = LLVMCreateBuilderInContext(rw->c);
  LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(f);
  LLVMValueRef first = LLVMGetFirstInstruction(entry);
  LLVMPositionBuilder(b, entry, first);
  LLVMValueRef ctx = LLVMGetParam(f, 0);
  LLVMValueRef field = LLVMBuildStructGEP2(b, rw->ctx_ty, ctx, CTX_SHARED, "");
  LLVMValueRef base = LLVMBuildLoad2(b, rw->ptr, field, "wg.base");
  LLVMValueRef off = LLVMConstInt(rw->i64, rw->offsets[i], 0);
  LLVMValueRef p = LLVMBuildGEP2(b, LLVMInt8TypeInContext(rw->c), base, &off, 1, "wg");
  LLVMValueRef cast = LLVMBuildAddrSpaceCast(b, p, LLVMTypeOf(rw->shared[i]), "");
  LLVMDisposeBuilder(b);
  return cast;
}

static LLVMValueRef function_of(LLVMValueRef inst) {
  return LLVMGetBasicBlockParent(LLVMGetInstructionParent(inst));
}

/* Rebuilds constant expression ce (which refers to a workgroup global) as an
 * instruction before `before`, with the global replaced by repl. */
static LLVMValueRef materialize(struct rewriter *rw, LLVMValueRef ce, LLVMValueRef global,
                                LLVMValueRef repl, LLVMValueRef before) {
  if (ce == global)
    return repl;
  if (!LLVMIsAConstantExpr(ce))
    return ce;
  int n = LLVMGetNumOperands(ce);
  LLVMValueRef ops[8];
  if (n > 8) {
    rw->failed = 1;
    return ce;
  }
  int changed = 0;
  for (int i = 0; i < n; i++) {
    ops[i] = materialize(rw, LLVMGetOperand(ce, i), global, repl, before);
    changed |= ops[i] != LLVMGetOperand(ce, i);
  }
  if (!changed)
    return ce;
  LLVMBuilderRef b = LLVMCreateBuilderInContext(rw->c);
  LLVMPositionBuilderBefore(b, before);
  LLVMValueRef r = NULL;
  switch (LLVMGetConstOpcode(ce)) {
  case LLVMGetElementPtr:
    r = LLVMBuildGEP2(b, LLVMGetGEPSourceElementType(ce), ops[0], ops + 1, (unsigned)n - 1, "");
    LLVMSetIsInBounds(r, LLVMIsInBounds(ce));
    break;
  case LLVMAddrSpaceCast:
    r = LLVMBuildAddrSpaceCast(b, ops[0], LLVMTypeOf(ce), "");
    break;
  case LLVMPtrToInt:
    r = LLVMBuildPtrToInt(b, ops[0], LLVMTypeOf(ce), "");
    break;
  default:
    rw->failed = 1;
    r = ce;
  }
  LLVMDisposeBuilder(b);
  return r;
}

/* Replaces the operands of instruction inst that are (or contain) global. */
static void replace_in_instruction(struct rewriter *rw, LLVMValueRef inst, size_t gi,
                                   LLVMValueRef *cache_fn, LLVMValueRef *cache_val) {
  LLVMValueRef f = function_of(inst);
  if (*cache_fn != f) {
    *cache_fn = f;
    *cache_val = shared_pointer(rw, f, gi);
  }
  for (int k = 0, n = LLVMGetNumOperands(inst); k < n; k++) {
    LLVMValueRef op = LLVMGetOperand(inst, k);
    LLVMValueRef nv = materialize(rw, op, rw->shared[gi], *cache_val, inst);
    if (nv != op)
      LLVMSetOperand(inst, (unsigned)k, nv);
  }
}

/* Collects the instructions that use v directly or through constants. */
static void collect_users(LLVMValueRef v, LLVMValueRef **out, size_t *n, size_t *cap) {
  for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (LLVMIsAInstruction(user)) {
      if (*n == *cap) {
        *cap = *cap ? *cap * 2 : 16;
        *out = realloc(*out, *cap * sizeof **out);
        if (!*out)
          BUG("out of memory");
      }
      (*out)[(*n)++] = user;
    } else if (LLVMIsAConstantExpr(user)) {
      collect_users(user, out, n, cap);
    }
  }
}

static void rewrite_shared(struct rewriter *rw) {
  for (size_t gi = 0; gi < rw->nshared; gi++) {
    LLVMValueRef *users = NULL;
    size_t n = 0, cap = 0;
    collect_users(rw->shared[gi], &users, &n, &cap);
    LLVMValueRef cache_fn = NULL, cache_val = NULL;
    for (size_t i = 0; i < n; i++) {
      LLVMValueRef f = function_of(users[i]);
      if (LLVMCountParams(f) == 0 || LLVMTypeOf(LLVMGetParam(f, 0)) != rw->ptr ||
          (!starts_with(name_of(f), "__gpucc_kernel.") && !host_calls_has_ctx(f))) {
        /* Not expected: host_calls.c gives every function that uses
         * workgroup memory a ctx. Said plainly rather than miscompiled. */
        diag_error("host target: workgroup memory is used where no thread context is (in '%s' of "
                   "gpu.module @%s)", name_of(f), rw->module_name);
        rw->failed = 1;
        break;
      }
      replace_in_instruction(rw, users[i], gi, &cache_fn, &cache_val);
    }
    free(users);
  }
  for (size_t gi = 0; gi < rw->nshared && !rw->failed; gi++) {
    /* Constant expressions left without users keep the global alive. */
    if (!LLVMGetFirstUse(rw->shared[gi]))
      LLVMDeleteGlobal(rw->shared[gi]);
  }
}

/* --- intrinsics ---------------------------------------------------------- */

static int dim_of(const char *suffix) {
  return suffix[0] == 'x' ? 0 : suffix[0] == 'y' ? 1 : suffix[0] == 'z' ? 2 : -1;
}

/* Replaces one NVVM intrinsic call; sets *sync when threads of a block must
 * run interleaved for it. Returns 0, or -1 for an unsupported intrinsic. */
static int rewrite_call(struct rewriter *rw, LLVMValueRef call, LLVMValueRef ctx, int *sync) {
  LLVMValueRef callee = LLVMGetCalledValue(call);
  const char *name = name_of(callee);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(rw->c);
  LLVMPositionBuilderBefore(b, call);
  LLVMValueRef repl = NULL;
  static const struct { const char *prefix; int field; } sregs[] = {
      {"llvm.nvvm.read.ptx.sreg.tid.", CTX_TID},     {"llvm.nvvm.read.ptx.sreg.ctaid.", CTX_CTAID},
      {"llvm.nvvm.read.ptx.sreg.ntid.", CTX_NTID},   {"llvm.nvvm.read.ptx.sreg.nctaid.", CTX_NCTAID},
  };
  for (size_t i = 0; i < 4 && !repl; i++)
    if (starts_with(name, sregs[i].prefix) && dim_of(name + strlen(sregs[i].prefix)) >= 0)
      repl = host_ctx_field(rw, b, ctx, sregs[i].field, dim_of(name + strlen(sregs[i].prefix)));

  if (repl) {
  } else if (!strcmp(name, "llvm.nvvm.read.ptx.sreg.warpsize")) {
    repl = LLVMConstInt(rw->i32, SUBGROUP_SIZE, 0);
  } else if (!strcmp(name, "llvm.nvvm.read.ptx.sreg.laneid")) {
    /* Lanes are consecutive linearized thread ids, as on NVIDIA. */
    LLVMValueRef x = host_ctx_field(rw, b, ctx, CTX_TID, 0), y = host_ctx_field(rw, b, ctx, CTX_TID, 1);
    LLVMValueRef z = host_ctx_field(rw, b, ctx, CTX_TID, 2);
    LLVMValueRef nx = host_ctx_field(rw, b, ctx, CTX_NTID, 0), ny = host_ctx_field(rw, b, ctx, CTX_NTID, 1);
    LLVMValueRef lin = LLVMBuildAdd(b, x, LLVMBuildMul(b, nx, LLVMBuildAdd(b, y, LLVMBuildMul(b, ny, z, ""), ""), ""), "");
    repl = LLVMBuildAnd(b, lin, LLVMConstInt(rw->i32, SUBGROUP_SIZE - 1, 0), "lane");
  } else if (starts_with(name, "llvm.nvvm.barrier")) {
    LLVMTypeRef p = rw->ptr;
    LLVMValueRef fn = host_declare(rw, "gpuccHostBarrier", LLVMVoidTypeInContext(rw->c), &p, 1);
    LLVMBuildCall2(b, LLVMGlobalGetValueType(fn), fn, &ctx, 1, "");
    *sync = 1;
  } else if (!strcmp(name, "llvm.nvvm.activemask")) {
    /* The lanes that reached this point (device_subgroup.c reduces over
     * them): a rendezvous like a shuffle, which moves no value. */
    LLVMTypeRef params[5] = {rw->ptr, rw->i32, rw->i32, rw->i32, rw->i32};
    LLVMValueRef fn = host_declare(rw, "gpuccHostShuffle", rw->i64, params, 5);
    LLVMValueRef zero = LLVMConstInt(rw->i32, 0, 0);
    LLVMValueRef args[5] = {ctx, LLVMConstInt(rw->i32, GPUCC_HOST_SHFL_ACTIVE, 0),
                            LLVMConstInt(rw->i32, rw->next_active_site++, 0), zero, zero};
    LLVMValueRef r = LLVMBuildCall2(b, LLVMGlobalGetValueType(fn), fn, args, 5, "");
    repl = LLVMBuildTrunc(b, r, rw->i32, "active");
    *sync = 1;
  } else if (starts_with(name, "llvm.nvvm.shfl.sync.")) {
    const char *m = name + strlen("llvm.nvvm.shfl.sync.");
    unsigned mode = starts_with(m, "idx") ? 0 : starts_with(m, "up") ? 1 : starts_with(m, "down") ? 2 : 3;
    /* A member mask known only at run time (an activemask's): the lanes
     * that take part are some of the subgroup's, and go first. */
    if (!LLVMIsAConstantInt(LLVMGetOperand(call, 0)))
      mode |= GPUCC_HOST_SHFL_PARTIAL;
    LLVMTypeRef params[5] = {rw->ptr, rw->i32, rw->i32, rw->i32, rw->i32};
    LLVMValueRef fn = host_declare(rw, "gpuccHostShuffle", rw->i64, params, 5);
    LLVMValueRef val = LLVMGetOperand(call, 1);
    LLVMTypeRef vty = LLVMTypeOf(val);
    LLVMValueRef bits = vty == rw->i32 ? val : LLVMBuildBitCast(b, val, rw->i32, "");
    LLVMValueRef args[5] = {ctx, LLVMConstInt(rw->i32, mode, 0), bits, LLVMGetOperand(call, 2),
                            LLVMGetOperand(call, 3)};
    LLVMValueRef r = LLVMBuildCall2(b, LLVMGlobalGetValueType(fn), fn, args, 5, "");
    LLVMValueRef lo = LLVMBuildTrunc(b, r, rw->i32, "");
    LLVMValueRef v = vty == rw->i32 ? lo : LLVMBuildBitCast(b, lo, vty, "");
    LLVMTypeRef rty = LLVMTypeOf(call);
    if (LLVMGetTypeKind(rty) == LLVMStructTypeKind) { /* the .p variants: {value, predicate} */
      LLVMValueRef pred = LLVMBuildTrunc(b, LLVMBuildLShr(b, r, LLVMConstInt(rw->i64, 32, 0), ""),
                                         LLVMInt1TypeInContext(rw->c), "");
      LLVMValueRef agg = LLVMGetPoison(rty);
      agg = LLVMBuildInsertValue(b, agg, v, 0, "");
      repl = LLVMBuildInsertValue(b, agg, pred, 1, "");
    } else {
      repl = v;
    }
    *sync = 1;
  } else {
    LLVMDisposeBuilder(b);
    return diag_error("host target: '%s' in gpu.module @%s is not supported on the CPU", name,
                      rw->module_name);
  }
  if (repl)
    LLVMReplaceAllUsesWith(call, repl);
  LLVMInstructionEraseFromParent(call);
  LLVMDisposeBuilder(b);
  return 0;
}

/* cf.assert lowers to CUDA's __assertfail(message, file, line, function,
 * char size), which does not return on a GPU. On the CPU it becomes
 * gpuccHostAssertFail(ctx, message, file, line, function): the runtime
 * prints CUDA's message and fails the launch. In a kernel (ctx known) the
 * failing thread then returns, as its GPU thread would stop, and the other
 * threads go on; elsewhere (ctx NULL) the runtime ends the program. */
static void rewrite_assert(struct rewriter *rw, LLVMValueRef call, LLVMValueRef ctx) {
  LLVMTypeRef params[5] = {rw->ptr, rw->ptr, rw->ptr, rw->i32, rw->ptr};
  LLVMValueRef fn = host_declare(rw, "gpuccHostAssertFail", LLVMVoidTypeInContext(rw->c), params, 5);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(rw->c);
  LLVMPositionBuilderBefore(b, call);
  LLVMValueRef args[5] = {ctx ? ctx : LLVMConstPointerNull(rw->ptr), LLVMGetOperand(call, 0),
                          LLVMGetOperand(call, 1), LLVMGetOperand(call, 2), LLVMGetOperand(call, 3)};
  LLVMBuildCall2(b, LLVMGlobalGetValueType(fn), fn, args, 5, "");
  LLVMValueRef next = LLVMGetNextInstruction(call);
  LLVMInstructionEraseFromParent(call);
  /* MLIR's lowering puts the call in a block of its own, ended by a branch
   * back to the code after the assertion: make that a return. */
  if (ctx && next && LLVMIsABranchInst(next) && !LLVMIsConditional(next)) {
    LLVMPositionBuilderBefore(b, next);
    LLVMBuildRetVoid(b);
    LLVMInstructionEraseFromParent(next);
  }
  LLVMDisposeBuilder(b);
}

/* Rewrites the NVVM intrinsics of one function whose parameter 0 is ctx.
 * Assertions only in a kernel (kernel != 0): the failing thread returns,
 * which a device function cannot do for it; theirs stay for
 * rename_library_calls (the program ends, as before they had a ctx).
 * Returns 0 or -1. */
static int rewrite_intrinsics(struct rewriter *rw, LLVMValueRef f, int kernel, int *sync) {
  LLVMValueRef ctx = LLVMGetParam(f, 0);
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb)) {
    LLVMValueRef inst = LLVMGetFirstInstruction(bb);
    while (inst) {
      LLVMValueRef next = LLVMGetNextInstruction(inst);
      if (LLVMIsACallInst(inst)) {
        LLVMValueRef callee = LLVMGetCalledValue(inst);
        if (kernel && LLVMIsAFunction(callee) && !strcmp(name_of(callee), "__assertfail")) {
          rewrite_assert(rw, inst, ctx);
          next = LLVMGetFirstInstruction(bb); /* the block may have changed: rescan */
        } else if (LLVMIsAFunction(callee) && starts_with(name_of(callee), "llvm.nvvm.") &&
                   rewrite_call(rw, inst, ctx, sync) != 0)
          return -1;
      }
      inst = next;
    }
  }
  return 0;
}

/* --- kernels and their entry points ------------------------------------ */

/* Returns a copy of kernel k with a leading ctx parameter; k is deleted. */
static LLVMValueRef add_ctx_param(struct rewriter *rw, LLVMValueRef k, const char *kname) {
  /* Names are built at their full length: a truncated one would be a
   * symbol the runtime never finds. */
  char *name = xasprintf("__gpucc_kernel.%s", kname);
  LLVMValueRef nk = host_move_with_ctx(rw, k, name);
  free(name);
  LLVMDeleteFunction(k);
  return nk;
}

static void emit_thread_entry(struct rewriter *rw, LLVMValueRef kernel, const char *kname) {
  LLVMValueRef f = host_new_entry(rw, kname, GPUCC_HOST_THREAD_SUFFIX);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(rw->c);
  LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(rw->c, f, "entry"));
  unsigned n = LLVMCountParams(kernel);
  LLVMValueRef *args = calloc(n + 1, sizeof *args);
  if (!args)
    BUG("out of memory");
  args[0] = LLVMGetParam(f, 1);
  host_unpack_params(rw, b, kernel, LLVMGetParam(f, 0), args);
  LLVMBuildCall2(b, LLVMGlobalGetValueType(kernel), kernel, args, n, "");
  LLVMBuildRetVoid(b);
  free(args);
  LLVMDisposeBuilder(b);
}

static void emit_block_entry(struct rewriter *rw, LLVMValueRef kernel, const char *kname) {
  LLVMValueRef f = host_new_entry(rw, kname, GPUCC_HOST_BLOCK_SUFFIX);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(rw->c);
  LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(rw->c, f, "entry"));
  /* A private copy of the context: once the kernel is inlined, its fields
   * become registers and the innermost loop can be vectorized. */
  LLVMValueRef ctx = LLVMBuildAlloca(b, rw->ctx_ty, "ctx");
  LLVMValueRef in = LLVMGetParam(f, 1);
  LLVMBuildStore(b, LLVMBuildLoad2(b, rw->ctx_ty, in, ""), ctx);
  unsigned n = LLVMCountParams(kernel);
  LLVMValueRef *args = calloc(n + 1, sizeof *args);
  if (!args)
    BUG("out of memory");
  args[0] = ctx;
  host_unpack_params(rw, b, kernel, LLVMGetParam(f, 0), args);
  LLVMValueRef nx = host_ctx_field(rw, b, ctx, CTX_NTID, 0);
  LLVMValueRef ny = host_ctx_field(rw, b, ctx, CTX_NTID, 1);
  LLVMValueRef nz = host_ctx_field(rw, b, ctx, CTX_NTID, 2);
  LLVMBasicBlockRef hz, hy, hx, ez, ey, ex;
  LLVMValueRef iz, iy, ix;
  host_open_loop(rw, b, f, ctx, 2, &hz, &iz, &ez);
  host_open_loop(rw, b, f, ctx, 1, &hy, &iy, &ey);
  host_open_loop(rw, b, f, ctx, 0, &hx, &ix, &ex);
  LLVMBuildCall2(b, LLVMGlobalGetValueType(kernel), kernel, args, n, "");
  host_close_loop(rw, b, hx, ix, nx, ex);
  host_close_loop(rw, b, hy, iy, ny, ey);
  host_close_loop(rw, b, hz, iz, nz, ez);
  LLVMBuildRetVoid(b);
  free(args);
  LLVMDisposeBuilder(b);
}

/* --- the rest of the module -------------------------------------------- */

/* libdevice functions with no libm twin get a body here, from LLVM
 * intrinsics: __nv_powi[f](x, n) is llvm.powi, __nv_rsqrt[f](x) 1/sqrt(x). */
static int define_without_libm(struct rewriter *rw, LLVMValueRef f, const char *name) {
  int powi = !strcmp(name, "__nv_powif") || !strcmp(name, "__nv_powi");
  int rsqrt = !strcmp(name, "__nv_rsqrtf") || !strcmp(name, "__nv_rsqrt");
  if (!powi && !rsqrt)
    return 0;
  LLVMTypeRef fty = LLVMGlobalGetValueType(f);
  LLVMTypeRef fp = LLVMGetReturnType(fty);
  /* Under -g the declaration carries a (non-distinct) subprogram, which a
   * definition may not: the body made here has no source anyway. */
  LLVMGlobalClearMetadata(f);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(rw->c);
  LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(rw->c, f, "entry"));
  LLVMValueRef x = LLVMGetParam(f, 0), r;
  if (powi) {
    LLVMTypeRef types[2] = {fp, LLVMTypeOf(LLVMGetParam(f, 1))};
    unsigned id = LLVMLookupIntrinsicID("llvm.powi", 9);
    LLVMValueRef intr = LLVMGetIntrinsicDeclaration(rw->mod, id, types, 2);
    LLVMValueRef args[2] = {x, LLVMGetParam(f, 1)};
    r = LLVMBuildCall2(b, LLVMIntrinsicGetType(rw->c, id, types, 2), intr, args, 2, "");
  } else {
    unsigned id = LLVMLookupIntrinsicID("llvm.sqrt", 9);
    LLVMValueRef intr = LLVMGetIntrinsicDeclaration(rw->mod, id, &fp, 1);
    LLVMValueRef root = LLVMBuildCall2(b, LLVMIntrinsicGetType(rw->c, id, &fp, 1), intr, &x, 1, "");
    r = LLVMBuildFDiv(b, LLVMConstReal(fp, 1.0), root, "");
  }
  LLVMBuildRet(b, r);
  LLVMDisposeBuilder(b);
  LLVMSetLinkage(f, LLVMInternalLinkage);
  return 1;
}

static void rename_library_calls(struct rewriter *rw) {
  for (LLVMValueRef f = LLVMGetFirstFunction(rw->mod); f; f = LLVMGetNextFunction(f)) {
    if (!LLVMIsDeclaration(f))
      continue;
    const char *name = name_of(f);
    if (!strcmp(name, "__assertfail")) {
      /* Calls outside kernels (rewrite_intrinsics leaves them): a device
       * function cannot make its thread return, so the program ends. */
      LLVMUseRef u;
      while ((u = LLVMGetFirstUse(f)) != NULL) {
        LLVMValueRef call = LLVMGetUser(u);
        if (!LLVMIsACallInst(call))
          break;
        rewrite_assert(rw, call, NULL);
      }
    } else if (!strcmp(name, "vprintf")) {
      LLVMSetValueName2(f, "gpuccHostPrintf", strlen("gpuccHostPrintf"));
    } else if (starts_with(name, "__nv_") && !define_without_libm(rw, f, name)) {
      /* libdevice's __nv_expf is libm's expf, and so on; its fast-math
       * variants (__nv_fast_expf) are the same functions on the CPU. */
      /* A copy, since renaming f frees the name it points into. */
      char *libm = xasprintf("%s", name + (starts_with(name, "__nv_fast_") ? 10 : 5));
      LLVMValueRef existing = LLVMGetNamedFunction(rw->mod, libm);
      if (existing && existing != f)
        LLVMReplaceAllUsesWith(f, existing);
      else
        LLVMSetValueName2(f, libm, strlen(libm));
      free(libm);
    }
  }
}

/* K__gpucc_params: the number of kernel parameters, then each one's size,
 * which the runtime copies when it queues a launch. */
static void emit_params_table(struct rewriter *rw, LLVMValueRef kernel, const char *kname) {
  LLVMTypeRef fty = LLVMGlobalGetValueType(kernel);
  unsigned n = LLVMCountParamTypes(fty); /* ctx first */
  LLVMTypeRef *types = calloc(n + 1, sizeof *types);
  LLVMValueRef *sizes = calloc(n + 1, sizeof *sizes);
  if (!types || !sizes)
    BUG("out of memory");
  LLVMGetParamTypes(fty, types);
  sizes[0] = LLVMConstInt(rw->i32, n - 1, 0);
  for (unsigned i = 1; i < n; i++)
    sizes[i] = LLVMConstInt(rw->i32, LLVMStoreSizeOfType(rw->td, types[i]), 0);
  char *name = xasprintf("%s" GPUCC_HOST_PARAMS_SUFFIX, kname);
  LLVMValueRef init = LLVMConstArray2(rw->i32, sizes, n);
  LLVMValueRef g = LLVMAddGlobal(rw->mod, LLVMTypeOf(init), name);
  free(name);
  LLVMSetInitializer(g, init);
  LLVMSetGlobalConstant(g, 1);
  LLVMSetLinkage(g, LLVMExternalLinkage);
  free(types);
  free(sizes);
}

/* K__gpucc_fibers: why the kernel has no block entry (GPUCC_LOG shows it). */
static void emit_fibers_reason(struct rewriter *rw, const char *kname, const char *why) {
  char *name = xasprintf("%s" GPUCC_HOST_FIBERS_SUFFIX, kname);
  LLVMValueRef init = LLVMConstStringInContext2(rw->c, why, strlen(why), 0);
  LLVMValueRef g = LLVMAddGlobal(rw->mod, LLVMTypeOf(init), name);
  free(name);
  LLVMSetInitializer(g, init);
  LLVMSetGlobalConstant(g, 1);
  LLVMSetLinkage(g, LLVMExternalLinkage);
}

static void add_constant(struct rewriter *rw, const char *name, LLVMTypeRef ty, uint64_t v) {
  LLVMValueRef g = LLVMAddGlobal(rw->mod, ty, name);
  LLVMSetInitializer(g, LLVMConstInt(ty, v, 0));
  LLVMSetGlobalConstant(g, 1);
  LLVMSetLinkage(g, LLVMExternalLinkage);
}

int host_kernels_rewrite(LLVMModuleRef mod, LLVMTargetDataRef td, const char *module_name) {
  struct rewriter rw = {0};
  rw.mod = mod;
  rw.c = LLVMGetModuleContext(mod);
  rw.td = td;
  rw.module_name = module_name;
  rw.i32 = LLVMInt32TypeInContext(rw.c);
  rw.i64 = LLVMInt64TypeInContext(rw.c);
  rw.ptr = LLVMPointerTypeInContext(rw.c, 0);
  LLVMTypeRef dim3 = LLVMArrayType2(rw.i32, 3);
  LLVMTypeRef fields[GPUCC_HOST_CTX_FIELDS] = {dim3, dim3, dim3, dim3, rw.ptr, rw.ptr, rw.ptr};
  rw.ctx_ty = LLVMStructTypeInContext(rw.c, fields, GPUCC_HOST_CTX_FIELDS, 0);

  /* Kernels first: collect them before adding functions to the module. */
  size_t nk = 0, cap = 0;
  LLVMValueRef *kernels = NULL;
  for (LLVMValueRef f = LLVMGetFirstFunction(mod); f; f = LLVMGetNextFunction(f)) {
    if (LLVMGetFunctionCallConv(f) == PTX_KERNEL_CC) {
      if (nk == cap) {
        cap = cap ? 2 * cap : 16;
        kernels = realloc(kernels, cap * sizeof *kernels);
        if (!kernels)
          BUG("out of memory");
      }
      kernels[nk++] = f;
    }
    LLVMSetFunctionCallConv(f, 0);
  }
  layout_shared(&rw);
  int rc = 0;
  LLVMValueRef *impls = calloc(nk + 1, sizeof *impls);
  int *syncs = calloc(nk + 1, sizeof *syncs);
  /* Copies of the kernel names, whole: add_ctx_param deletes the kernel
   * whose name they were, and the runtime looks the entries up by the full
   * name (a 256-byte copy here once cut longer names short). */
  char **names = calloc(nk + 1, sizeof *names);
  if (!impls || !syncs || !names)
    BUG("out of memory");
  for (size_t i = 0; i < nk; i++) {
    LLVMSetFunctionCallConv(kernels[i], 0);
    names[i] = xasprintf("%s", name_of(kernels[i]));
    impls[i] = add_ctx_param(&rw, kernels[i], names[i]);
  }
  /* Device functions next, while their NVVM intrinsics still say what they
   * need; the ones that synchronize end up inlined into the kernels, so the
   * kernels' own rewrite below sees those barriers as theirs. */
  rc = host_calls_pass_ctx(&rw, impls, nk);
  for (size_t i = 0; i < nk && rc == 0; i++)
    rc = rewrite_intrinsics(&rw, impls[i], 1, &syncs[i]);
  for (LLVMValueRef f = LLVMGetFirstFunction(mod); f && rc == 0; f = LLVMGetNextFunction(f)) {
    int sync = 0;
    if (host_calls_has_ctx(f))
      rc = rewrite_intrinsics(&rw, f, 0, &sync);
  }
  if (rc == 0)
    rewrite_shared(&rw);
  if (rw.failed && rc == 0)
    rc = diag_error("host target: cannot place workgroup memory of gpu.module @%s", module_name);
  for (size_t i = 0; i < nk && rc == 0; i++) {
    emit_params_table(&rw, impls[i], names[i]);
    LLVMAddAttributeAtIndex(impls[i], LLVMAttributeFunctionIndex,
                            LLVMCreateEnumAttribute(rw.c, LLVMGetEnumAttributeKindForName("alwaysinline", 12), 0));
    const char *why = NULL;
    char *why_call = NULL;
    const char *callee = host_calls_sync_callee(impls[i]);
    if (callee) {
      /* Only fibers can stop inside a call. */
      why_call = xasprintf("it calls '%s', which synchronizes and cannot be inlined (it is "
                           "recursive)", callee);
      why = why_call;
      syncs[i] = 1;
    }
    if (!syncs[i]) {
      /* Through the region scheme as well, as one round with no stop: its
       * block entry runs only the threads that a bounds check such as
       * `if (i < n)` lets through, and that loop is then vectorized. What
       * it cannot express keeps the plain entries. */
      const char *unused;
      if (!host_regions_split(&rw, impls[i], names[i], &unused))
        emit_block_entry(&rw, impls[i], names[i]);
    } else if (callee || !host_regions_split(&rw, impls[i], names[i], &why)) {
      /* impls[i] is untouched: its threads run on fibers. */
      emit_thread_entry(&rw, impls[i], names[i]);
      emit_fibers_reason(&rw, names[i], why);
      if (verbose)
        diag_at(DIAG_REMARK, NULL, 0, 0, "host target: kernel '%s' of gpu.module @%s runs its threads "
                "on fibers: %s", names[i], module_name, why);
    }
    free(why_call);
  }
  if (rc == 0) {
    rename_library_calls(&rw);
    add_constant(&rw, GPUCC_HOST_SHARED_BYTES_SYMBOL, rw.i64, rw.shared_bytes);
    add_constant(&rw, GPUCC_HOST_ABI_VERSION_SYMBOL, rw.i32, GPUCC_HOST_ABI_VERSION);
  }
  free(impls);
  free(syncs);
  for (size_t i = 0; i < nk; i++)
    free(names[i]);
  free(names);
  free(kernels);
  free(rw.shared);
  free(rw.offsets);
  return rc;
}
