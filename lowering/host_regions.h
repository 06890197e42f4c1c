/* host_regions.h: barriers and shuffles by compilation, for the host target
 * (see host_regions.c). */
#ifndef GPUCC_HOST_REGIONS_H
#define GPUCC_HOST_REGIONS_H

#include "host_kernels_internal.h"

/* Kernel `impl` (void impl(ctx, args...), intrinsics already rewritten:
 * it calls gpuccHostBarrier / gpuccHostShuffle) is split at those calls.
 * On success it is replaced by a step function and the kernel gets its
 * block entry, thread entry and K__gpucc_scratch; returns 1. Returns 0,
 * with impl untouched and *why saying why, when the kernel must keep running
 * its threads on fibers (the caller then emits the thread entry). */
int host_regions_split(struct rewriter *rw, LLVMValueRef impl, const char *kname,
                       const char **why);

#endif
