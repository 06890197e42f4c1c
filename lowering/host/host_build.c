/* host_build.c: the IR builder primitives of the host-target rewrite, the
 * bottom layer of lowering/host/: loads of the thread context's fields,
 * declarations of the runtime's functions, the exported entry points and
 * the loops over a block's threads, and the test for the sync points
 * (gpuccHostBarrier / gpuccHostShuffle calls) that the kernel rewrite makes.
 * The kernel rewrite (host_kernels.c) and the region split
 * (host_regions*.c) build on these; nothing here calls either, so the files
 * of the folder are layers: host_build < host_calls, host_regions_* <
 * host_regions < host_kernels. */
#include "host_build.h"

#include "diag.h"
#include "xstr.h"

#include <llvm-c/Core.h>
#include <llvm-c/DebugInfo.h>
#include <stdlib.h>
#include <string.h>

LLVMValueRef host_ctx_field(struct rewriter *rw, LLVMBuilderRef b, LLVMValueRef ctx, int field,
                            int dim) {
  LLVMValueRef idx[3] = {LLVMConstInt(rw->i32, 0, 0), LLVMConstInt(rw->i32, (unsigned)field, 0),
                         LLVMConstInt(rw->i32, (unsigned)dim, 0)};
  LLVMValueRef p = LLVMBuildInBoundsGEP2(b, rw->ctx_ty, ctx, idx, 3, "");
  return LLVMBuildLoad2(b, rw->i32, p, "");
}

LLVMValueRef host_declare(struct rewriter *rw, const char *name, LLVMTypeRef ret,
                          LLVMTypeRef *params, unsigned n) {
  LLVMValueRef f = LLVMGetNamedFunction(rw->mod, name);
  if (!f)
    f = LLVMAddFunction(rw->mod, name, LLVMFunctionType(ret, params, n, 0));
  return f;
}

/* Loads the kernel arguments from the params array (params[i] points to the
 * i-th argument) into args[1..n]. */
void host_unpack_params(struct rewriter *rw, LLVMBuilderRef b, LLVMValueRef kernel,
                        LLVMValueRef params, LLVMValueRef *args) {
  LLVMTypeRef fty = LLVMGlobalGetValueType(kernel);
  unsigned n = LLVMCountParamTypes(fty);
  LLVMTypeRef *types = calloc(n + 1, sizeof *types);
  if (!types)
    BUG("out of memory");
  LLVMGetParamTypes(fty, types);
  for (unsigned i = 1; i < n; i++) {
    LLVMValueRef idx = LLVMConstInt(rw->i64, i - 1, 0);
    LLVMValueRef slot = LLVMBuildGEP2(b, rw->ptr, params, &idx, 1, "");
    LLVMValueRef p = LLVMBuildLoad2(b, rw->ptr, slot, "");
    args[i] = LLVMBuildLoad2(b, types[i], p, "");
  }
  free(types);
}

LLVMValueRef host_move_with_ctx(struct rewriter *rw, LLVMValueRef f, const char *name) {
  LLVMTypeRef fty = LLVMGlobalGetValueType(f);
  unsigned n = LLVMCountParamTypes(fty);
  LLVMTypeRef *params = calloc(n + 1, sizeof *params);
  if (!params)
    BUG("out of memory");
  LLVMGetParamTypes(fty, params + 1);
  params[0] = rw->ptr;
  LLVMValueRef nf = LLVMAddFunction(
      rw->mod, name, LLVMFunctionType(LLVMGetReturnType(fty), params, n + 1, LLVMIsFunctionVarArg(fty)));
  free(params);
  /* Its signature is gpucc's own: nothing outside the module could call
   * it, and internal lets the inliner drop it once inlined. */
  LLVMSetLinkage(nf, LLVMInternalLinkage);
  LLVMSetSubprogram(nf, LLVMGetSubprogram(f));
  /* Block by block (unlink, then append: this keeps each block's parent
   * pointer right), then the parameters. */
  LLVMBasicBlockRef bb;
  while ((bb = LLVMGetFirstBasicBlock(f))) {
    LLVMRemoveBasicBlockFromParent(bb);
    LLVMAppendExistingBasicBlock(nf, bb);
  }
  for (unsigned i = 0; i < n; i++)
    LLVMReplaceAllUsesWith(LLVMGetParam(f, i), LLVMGetParam(nf, i + 1));
  return nf;
}

LLVMValueRef host_new_entry(struct rewriter *rw, const char *kname, const char *suffix) {
  char *name = xasprintf("%s%s", kname, suffix);
  LLVMTypeRef params[2] = {rw->ptr, rw->ptr};
  LLVMValueRef f = LLVMAddFunction(rw->mod, name, LLVMFunctionType(LLVMVoidTypeInContext(rw->c), params, 2, 0));
  free(name);
  LLVMSetLinkage(f, LLVMExternalLinkage);
  LLVMSetVisibility(f, LLVMDefaultVisibility);
  return f;
}

/* Opens `for (i = 0; i < bound; i++) { tid[dim] = i; ...`: leaves the builder
 * in the loop body and returns the header, the induction variable and the
 * exit block, which host_close_loop (given the bound) completes. The ids
 * are at least 1 (a launch of zero threads never reaches a block), so the
 * test can sit at the bottom. */
void host_open_loop(struct rewriter *rw, LLVMBuilderRef b, LLVMValueRef f, LLVMValueRef ctx,
                    int dim, LLVMBasicBlockRef *latch_out, LLVMValueRef *iv_out,
                    LLVMBasicBlockRef *exit_out) {
  LLVMBasicBlockRef pre = LLVMGetInsertBlock(b);
  LLVMBasicBlockRef head = LLVMAppendBasicBlockInContext(rw->c, f, "loop");
  LLVMBasicBlockRef exit = LLVMAppendBasicBlockInContext(rw->c, f, "done");
  LLVMBuildBr(b, head);
  LLVMPositionBuilderAtEnd(b, head);
  LLVMValueRef iv = LLVMBuildPhi(b, rw->i32, "t");
  LLVMValueRef zero = LLVMConstInt(rw->i32, 0, 0);
  LLVMAddIncoming(iv, &zero, &pre, 1);
  LLVMValueRef idx[3] = {LLVMConstInt(rw->i32, 0, 0), LLVMConstInt(rw->i32, CTX_TID, 0),
                         LLVMConstInt(rw->i32, (unsigned)dim, 0)};
  LLVMBuildStore(b, iv, LLVMBuildInBoundsGEP2(b, rw->ctx_ty, ctx, idx, 3, ""));
  *latch_out = head;
  *iv_out = iv;
  *exit_out = exit;
}

void host_close_loop(struct rewriter *rw, LLVMBuilderRef b, LLVMBasicBlockRef head,
                     LLVMValueRef iv, LLVMValueRef bound, LLVMBasicBlockRef exit) {
  /* Thread ids never exceed 1024: the flags let LLVM widen the index once
   * instead of sign-extending it in every iteration. */
  LLVMValueRef next = LLVMBuildNUWAdd(b, iv, LLVMConstInt(rw->i32, 1, 0), "");
  LLVMSetNSW(next, 1);
  LLVMBasicBlockRef cur = LLVMGetInsertBlock(b);
  LLVMAddIncoming(iv, &next, &cur, 1);
  LLVMValueRef more = LLVMBuildICmp(b, LLVMIntULT, next, bound, "");
  LLVMBuildCondBr(b, more, head, exit);
  LLVMPositionBuilderAtEnd(b, exit);
}

int host_is_sync_call(LLVMValueRef i, int *shuffle) {
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
