/* op_site.h: where in the source the gpu op running now is, for the
 * runtime's messages about it.
 *
 * The mgpu* ABI carries no locations. For the ops whose misuse the runtime
 * catches (gpu.dealloc of what gpu.alloc did not hand out, a gpu.alloc of a
 * negative or overflowing size) the compiler passes one more: a constant
 * string "file:line:col" (frontend/alloc_checks.c). These are exported:
 * compiled code calls them. */
#ifndef GPUCC_RT_OP_SITE_H
#define GPUCC_RT_OP_SITE_H

#include <stdint.h>

/* Called by compiled code just before a gpu.dealloc's mgpuMemFree: where
 * the op is (a string that lives as long as the program). Per thread. */
void gpuccOpSite(const char *where);

/* Called by compiled code instead of an allocation whose size, sizes[0] x
 * ... x sizes[rank-1] x elementBytes, is negative or does not fit in 64
 * bits (a memref<?xi64> descriptor, as MLIR passes one): reports
 * "<where>: <op> of a negative size (-4 x 4 bytes)" (or "an overflowing
 * size") and exits with status 1, also after an error handler returned:
 * there is no memory to go on with. where may be NULL (unknown). */
void gpuccAllocSizeFailed(const char *where, const char *op, int64_t elementBytes,
                          int64_t *allocated, int64_t *sizes, int64_t offset, int64_t rank,
                          int64_t stride);

/* The site set by gpuccOpSite on this thread, cleared: each applies to one
 * call. NULL when none was set. */
const char *rt_op_site_take(void);

#endif
