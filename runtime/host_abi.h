/* host_abi.h: the contract between kernels compiled for the `host` target
 * and the runtime's host backend. The compiler (lowering/host_kernels.c)
 * emits code against this layout; the runtime (backend_host.c) provides the
 * functions. Change both sides together and bump GPUCC_HOST_ABI_VERSION.
 *
 * A `host` object in the fat binary is an x86-64 ELF shared object. For each
 * kernel K of the gpu.module it exports:
 *
 *   void K__gpucc_thread(void **params, struct gpucc_host_ctx *ctx);
 *       Runs one GPU thread: ctx->tid/ctaid/ntid/nctaid/shared/sched are set
 *       by the caller. Always present.
 *   void K__gpucc_block(void **params, struct gpucc_host_ctx *ctx);
 *       Runs every thread of the block ctx->ctaid, one after another, in
 *       plain loops (ctx->tid is ignored). Present only when no thread ever
 *       waits for another (no barrier, no shuffle), so that the runtime needs
 *       no thread switching for the kernel.
 *
 * and once per object:
 *
 *   const uint64_t gpucc_host_shared_bytes;  static workgroup memory per block
 *   const uint32_t gpucc_host_abi_version;   GPUCC_HOST_ABI_VERSION
 *
 * `params` is the array mgpuLaunchKernel receives: params[i] points to the
 * i-th lowered kernel argument. Dynamic shared memory (the launch's smem
 * bytes) follows the static part in the same per-block buffer.
 *
 * Kernels call back into the runtime through the gpuccHost* functions
 * below, which libgpucc_rt exports. */
#ifndef GPUCC_HOST_ABI_H
#define GPUCC_HOST_ABI_H

#include <stdint.h>

#define GPUCC_HOST_ABI_VERSION 1u
/* Threads that shuffle with each other: gpu.shuffle works within groups of
 * this many consecutive (linearized) thread ids, as a warp does on NVIDIA. */
#define GPUCC_HOST_SUBGROUP_SIZE 32u

struct gpucc_host_ctx {
  uint32_t tid[3];   /* offset 0 */
  uint32_t ctaid[3]; /* offset 12 */
  uint32_t ntid[3];  /* offset 24 */
  uint32_t nctaid[3]; /* offset 36 */
  char *shared;      /* offset 48: this block's workgroup memory */
  void *sched;       /* offset 56: runtime-private (the block's scheduler) */
};

enum gpucc_host_shuffle_mode {
  GPUCC_HOST_SHFL_IDX = 0,
  GPUCC_HOST_SHFL_UP = 1,
  GPUCC_HOST_SHFL_DOWN = 2,
  GPUCC_HOST_SHFL_BFLY = 3,
};

/* Waits until every thread of the block has called it (gpu.barrier). */
void gpuccHostBarrier(struct gpucc_host_ctx *ctx);

/* A warp shuffle with the semantics of PTX shfl.sync: every thread of the
 * calling thread's subgroup calls it; returns the 32-bit value of the source
 * lane in the low half and 1 in bit 32 when that lane was in range (the
 * predicate), 0 otherwise. `lane_or_delta` and `clamp` are the PTX operands b
 * and c (c packs the segment mask in bits 8-12 and the clamp in bits 0-4). */
uint64_t gpuccHostShuffle(struct gpucc_host_ctx *ctx, uint32_t mode, uint32_t value,
                          uint32_t lane_or_delta, uint32_t clamp);

/* gpu.printf: CUDA's vprintf contract. `args` points to the arguments packed
 * as a C struct (each at its natural alignment; floats promoted to double,
 * small integers to int). Writes to stdout; one call is one atomic write. */
int gpuccHostPrintf(const char *format, const void *args);

/* cf.assert failed (CUDA's __assertfail): prints CUDA's message to stderr
 * and fails the launch; the calling thread then returns. With ctx NULL
 * (outside a kernel) the program ends. */
void gpuccHostAssertFail(struct gpucc_host_ctx *ctx, const char *message, const char *file,
                         uint32_t line, const char *function);

#endif
