/* host_build.h: the bottom layer of the host-target rewrite
 * (lowering/host/): the rewriter's state and the IR builder primitives
 * (host_build.c) that the kernel rewrite (host_kernels.c), the device
 * functions' ctx (host_calls.c) and the region split (host_regions*.c)
 * use. Private to lowering/host/: the rest of lowering/ sees
 * host_backend.h only. */
#ifndef GPUCC_HOST_BUILD_H
#define GPUCC_HOST_BUILD_H

#include "host_abi.h"

#include <llvm-c/Core.h>
#include <llvm-c/Target.h>
#include <stddef.h>
#include <stdint.h>

/* Field indices of struct gpucc_host_ctx. */
enum {
  CTX_TID = GPUCC_HOST_CTX_TID,
  CTX_CTAID = GPUCC_HOST_CTX_CTAID,
  CTX_NTID = GPUCC_HOST_CTX_NTID,
  CTX_NCTAID = GPUCC_HOST_CTX_NCTAID,
  CTX_SHARED = GPUCC_HOST_CTX_SHARED,
  CTX_SCHED = GPUCC_HOST_CTX_SCHED,
  CTX_SCRATCH = GPUCC_HOST_CTX_SCRATCH,
};

struct rewriter {
  LLVMModuleRef mod;
  LLVMContextRef c;
  LLVMTargetDataRef td;
  LLVMTypeRef i32, i64, ptr, ctx_ty;
  const char *module_name;
  /* workgroup-memory globals and their offsets in ctx->shared */
  LLVMValueRef *shared;
  uint64_t *offsets;
  size_t nshared;
  uint64_t shared_bytes;
  /* The number of the next llvm.nvvm.activemask rewritten. The runtime
   * tells the lanes at one call site from those at another by it and lets
   * the lowest go first, so sites are numbered in the order of the code
   * (device functions that synchronize are inlined by then, each copy a
   * site); per module, so objects are reproducible. */
  unsigned next_active_site;
  int failed;
};

/* A load of ctx->field[dim] (an i32) at the builder's position. */
LLVMValueRef host_ctx_field(struct rewriter *rw, LLVMBuilderRef b, LLVMValueRef ctx, int field,
                            int dim);
/* The function `name` of the module, declared with this type if absent. */
LLVMValueRef host_declare(struct rewriter *rw, const char *name, LLVMTypeRef ret,
                          LLVMTypeRef *params, unsigned n);
/* Loads the kernel arguments (params[i] points to argument i) into
 * args[1..], for kernel(ctx, args...). */
void host_unpack_params(struct rewriter *rw, LLVMBuilderRef b, LLVMValueRef kernel,
                        LLVMValueRef params, LLVMValueRef *args);
/* A new internal function `name` ("" for none) that takes ctx, then f's
 * parameters, with f's body and debug info; f is left empty. Attributes
 * are not copied: both sides of every call change together, and one such
 * as memory(none) would now be false. */
LLVMValueRef host_move_with_ctx(struct rewriter *rw, LLVMValueRef f, const char *name);
/* An exported entry point `<kname><suffix>(void **params, ctx *)`. */
LLVMValueRef host_new_entry(struct rewriter *rw, const char *kname, const char *suffix);
/* A loop over ctx->tid[dim] from 0: host_open_loop leaves the builder in the
 * body, host_close_loop (with the bound) after the loop. */
void host_open_loop(struct rewriter *rw, LLVMBuilderRef b, LLVMValueRef f, LLVMValueRef ctx,
                    int dim, LLVMBasicBlockRef *latch_out, LLVMValueRef *iv_out,
                    LLVMBasicBlockRef *exit_out);
void host_close_loop(struct rewriter *rw, LLVMBuilderRef b, LLVMBasicBlockRef head,
                     LLVMValueRef iv, LLVMValueRef bound, LLVMBasicBlockRef exit);
/* 1 for a call of gpuccHostBarrier (*shuffle = 0) or gpuccHostShuffle
 * (*shuffle = 1), the sync points the kernel rewrite makes; else 0. */
int host_is_sync_call(LLVMValueRef i, int *shuffle);

#endif
