/* host_calls.h: device functions that read GPU ids, synchronize or use
 * workgroup memory, for the host target (see host_calls.c). */
#ifndef GPUCC_HOST_CALLS_H
#define GPUCC_HOST_CALLS_H

#include "host_build.h"

/* Gives every device function that needs the thread's context (directly or
 * through its callees) a leading ctx parameter, makes every call pass the
 * caller's, then inlines those that synchronize into their callers.
 * Requires: the kernels impls[0..nk) already have their ctx parameter,
 * the NVVM intrinsics are not yet rewritten (they are what is looked for).
 * Returns 0, or -1 after reporting a function whose address is taken. */
int host_calls_pass_ctx(struct rewriter *rw, LLVMValueRef *impls, size_t nk);

/* Nonzero when f is a device function host_calls_pass_ctx gave a ctx. */
int host_calls_has_ctx(LLVMValueRef f);

/* The name of a function that synchronizes which f still calls (it could
 * not be inlined: recursion), or NULL. The name lives as long as that
 * function. */
const char *host_calls_sync_callee(LLVMValueRef f);

#endif
