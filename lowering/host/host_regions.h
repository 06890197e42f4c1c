/* host_regions.h: barriers and shuffles by compilation, for the host target
 * (see host_regions.c). */
#ifndef GPUCC_HOST_REGIONS_H
#define GPUCC_HOST_REGIONS_H

#include "host_build.h"

/* Kernel `impl` (void impl(ctx, args...), intrinsics already rewritten:
 * it may call gpuccHostBarrier / gpuccHostShuffle) is split at those calls,
 * and at the barriers this adds to some uniform loops (none needed). On
 * success it is replaced by a step function and the kernel gets its block
 * entry, thread entry and K__gpucc_scratch; returns 1. Returns 0, with impl
 * untouched and *why saying why, when the scheme cannot express the kernel:
 * the caller then emits the thread entry (whose threads run on fibers if the
 * kernel synchronizes) or, for a kernel without sync points, the plain
 * entries. */
int host_regions_split(struct rewriter *rw, LLVMValueRef impl, const char *kname,
                       const char **why);

#endif
