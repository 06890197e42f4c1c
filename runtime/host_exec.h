/* host_exec.h: running a kernel grid on the CPU (the host backend's engine).
 *
 * rt_host_run runs one grid to completion before it returns: blocks are
 * handed out to a pool of worker threads (one per core, GPUCC_HOST_THREADS
 * to change it; the calling thread works too). Several threads may run
 * grids at once (streams do, see host_stream.h): the pool's workers share
 * themselves among the grids in flight, and each caller always works on its
 * own grid, so every grid progresses even when another one waits for it. A
 * block whose kernel has a block entry point is one call; otherwise its
 * threads run as lightweight contexts (fibers with their own small stacks,
 * see host_fiber.c) switched at each gpucc barrier or shuffle, in rounds, so
 * every thread reaches a barrier before any passes it. See host_abi.h for
 * the kernel side. */
#ifndef GPUCC_RT_HOST_EXEC_H
#define GPUCC_RT_HOST_EXEC_H

#include <stddef.h>
#include <stdint.h>

#include "host_abi.h"

typedef void (*rt_host_entry)(void **params, struct gpucc_host_ctx *ctx);

struct rt_host_kernel {
  rt_host_entry thread; /* runs one thread; always set */
  rt_host_entry block;  /* runs a whole block; NULL: run threads on fibers */
  uint64_t shared_bytes;
  uint64_t scratch_bytes; /* per thread, for the block entry (ctx->scratch) */
  /* For the message when the kernel faults (host_fault.h); NULL:
   * "?". Must outlive every launch of the kernel. */
  const char *name, *module;
};

struct rt_host_grid {
  unsigned grid[3], block[3];
  unsigned dynamic_shared;
  void **params;
};

/* Checks what rt_host_run would refuse before running anything (too many
 * threads per block). Returns 0, or -1 with a message in err. */
int rt_host_check(const struct rt_host_grid *g, char *err, size_t errlen);

/* Runs the whole grid. Returns 0, or -1 with a message in err (too many
 * threads per block, out of memory, a failed device-side assertion). */
int rt_host_run(const struct rt_host_kernel *k, const struct rt_host_grid *g, char *err,
                size_t errlen);

/* Number of worker threads a launch uses. */
unsigned rt_host_workers(void);

#endif
