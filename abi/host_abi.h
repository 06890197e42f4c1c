/* host_abi.h: the contract between kernels compiled for the `host` target
 * and the runtime's host backend. The compiler (lowering/host/)
 * includes this header and emits code against this layout; the runtime
 * (backend_host.c, host_exec.c) provides the functions. Change both sides
 * together and bump GPUCC_HOST_ABI_VERSION.
 *
 * A `host` object in the fat binary is an x86-64 ELF shared object. For each
 * kernel K of the gpu.module it exports:
 *
 *   void K__gpucc_block(void **params, struct gpucc_host_ctx *ctx);
 *       Runs every thread of the block ctx->ctaid (ctx->tid is ignored),
 *       synchronizing them itself: the compiler split the kernel at its
 *       barriers and shuffles into regions run as loops over the threads.
 *       ctx->scratch holds K__gpucc_scratch bytes per thread of the block,
 *       as arrays over the threads: the stop codes (uint32_t, 8 bytes per
 *       thread reserved) at offset 0, the lane records (struct
 *       gpucc_host_lane) at 8 * n, then the kernel's own state; it calls
 *       gpuccHostRound between rounds.
 *       Absent when the compiler could not do that (see K__gpucc_fibers).
 *   void K__gpucc_thread(void **params, struct gpucc_host_ctx *ctx);
 *       Runs one GPU thread: ctx->tid/ctaid/ntid/nctaid/shared/sched are set
 *       by the caller; it calls gpuccHostBarrier and gpuccHostShuffle to
 *       wait for the other threads. Present exactly when K__gpucc_block is
 *       not: the runtime runs the block's threads on fibers with it.
 *   const uint32_t K__gpucc_params[];
 *       The number of kernel parameters, then the size in bytes of each:
 *       what the runtime copies when a launch is queued on a stream (the
 *       caller may reuse params as soon as the launch returns).
 *   const uint64_t K__gpucc_scratch;
 *       Per-thread scratch bytes K__gpucc_block needs (values live across
 *       a barrier, private arrays used on both sides of one). Present with
 *       the block entry.
 *   const char K__gpucc_fibers[];
 *       Present when there is no block entry: why, in a few words (the
 *       runtime logs it under GPUCC_LOG).
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

#define GPUCC_HOST_ABI_VERSION 5u
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
  char *scratch;     /* offset 64: the block entry's per-thread state */
};

/* Field numbers of struct gpucc_host_ctx, for the compiler's GEPs. */
enum gpucc_host_ctx_field {
  GPUCC_HOST_CTX_TID,
  GPUCC_HOST_CTX_CTAID,
  GPUCC_HOST_CTX_NTID,
  GPUCC_HOST_CTX_NCTAID,
  GPUCC_HOST_CTX_SHARED,
  GPUCC_HOST_CTX_SCHED,
  GPUCC_HOST_CTX_SCRATCH,
  GPUCC_HOST_CTX_FIELDS
};

/* Suffixes of the per-kernel symbols above. */
#define GPUCC_HOST_THREAD_SUFFIX "__gpucc_thread"
#define GPUCC_HOST_BLOCK_SUFFIX "__gpucc_block"
#define GPUCC_HOST_PARAMS_SUFFIX "__gpucc_params"
#define GPUCC_HOST_SCRATCH_SUFFIX "__gpucc_scratch"
#define GPUCC_HOST_FIBERS_SUFFIX "__gpucc_fibers"
#define GPUCC_HOST_SHARED_BYTES_SYMBOL "gpucc_host_shared_bytes"
#define GPUCC_HOST_ABI_VERSION_SYMBOL "gpucc_host_abi_version"

/* The `mode` of gpuccHostShuffle: a PTX shfl.sync mode, or ACTIVE, which
 * moves no value and returns the lanes of the subgroup that reached it
 * (PTX activemask): `value` numbers the call site, and only the lanes
 * waiting at the same site count. */
enum gpucc_host_shuffle_mode {
  GPUCC_HOST_SHFL_IDX = 0,
  GPUCC_HOST_SHFL_UP = 1,
  GPUCC_HOST_SHFL_DOWN = 2,
  GPUCC_HOST_SHFL_BFLY = 3,
  GPUCC_HOST_SHFL_ACTIVE = 4,
};
/* Or'ed into a shfl.sync mode: the member mask was computed at run time
 * (from ACTIVE), so only some lanes of the subgroup take part. */
#define GPUCC_HOST_SHFL_PARTIAL 8u

/* One thread's part in a shuffle, for a block entry: the operands of
 * gpuccHostShuffle, and its result once the shuffle completed. */
struct gpucc_host_lane {
  uint32_t mode, value, lane_or_delta, clamp;
  uint64_t result;
};

/* Stop codes of a block entry's threads: 0 returned, (k << 1) stopped at
 * barrier k, (k << 1) | 1 stopped at shuffle k; gpuccHostRound sets this bit
 * on a thread that must not run in the next round. */
#define GPUCC_HOST_ROUND_WAIT 0x80000000u

/* Between two rounds of a block entry: every thread of the block ctx (ntid
 * read) has run until it stopped (codes[t]); completes what can complete,
 * by the fibers' rules (gpuccHostBarrier, gpuccHostShuffle): each warp with
 * a thread in a shuffle completes it (results in lanes[t].result), else a
 * barrier at which every live thread waits completes. Threads that must wait
 * get GPUCC_HOST_ROUND_WAIT. Returns 0 when every thread has returned, the
 * common stop code when every thread goes on from the same point, 1 when
 * they go on from different points (or some wait or have returned). */
uint32_t gpuccHostRound(struct gpucc_host_ctx *ctx, uint32_t *codes, struct gpucc_host_lane *lanes);

/* Waits until every thread of the block has called it (gpu.barrier). */
void gpuccHostBarrier(struct gpucc_host_ctx *ctx);

/* A warp shuffle with the semantics of PTX shfl.sync: every thread of the
 * calling thread's subgroup calls it; returns the 32-bit value of the source
 * lane in the low half and 1 in bit 32 when that lane was in range (the
 * predicate), 0 otherwise. `lane_or_delta` and `clamp` are the PTX operands b
 * and c (c packs the segment mask in bits 8-12 and the clamp in bits 0-4).
 * A subgroup whose lanes wait at different shuffles completes them in this
 * order: PARTIAL shuffles, then ACTIVE at the lowest site number, then the
 * rest; the others wait (host_exec.c says why). */
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
