/* host_exec.h: running a kernel grid on the CPU (the host backend's engine).
 *
 * A launch runs to completion before it returns: blocks are handed out to a
 * pool of worker threads (one per core, GPUCC_HOST_THREADS to change it; the
 * launching thread works too). A block whose kernel has a block entry point
 * (no barrier, no shuffle) is one call; otherwise its threads run as
 * lightweight contexts (fibers with their own small stacks, see host_fiber.c) switched
 * at each gpucc barrier or shuffle, in rounds, so every thread reaches a
 * barrier before any passes it. See host_abi.h for the kernel side. */
#ifndef GPUCC_RT_HOST_EXEC_H
#define GPUCC_RT_HOST_EXEC_H

#include <stddef.h>
#include <stdint.h>

#include "host_abi.h"

typedef void (*rt_host_entry)(void **params, struct gpucc_host_ctx *ctx);

struct rt_host_kernel {
  rt_host_entry thread; /* runs one thread; always set */
  rt_host_entry block;  /* runs a whole block; NULL when threads synchronize */
  uint64_t shared_bytes;
};

struct rt_host_grid {
  unsigned grid[3], block[3];
  unsigned dynamic_shared;
  void **params;
};

/* Runs the whole grid. Returns 0, or -1 with a message in err (too many
 * threads per block, out of memory). */
int rt_host_run(const struct rt_host_kernel *k, const struct rt_host_grid *g, char *err,
                size_t errlen);

/* Number of worker threads a launch uses. */
unsigned rt_host_workers(void);

#endif
