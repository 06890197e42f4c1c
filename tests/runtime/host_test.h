/* host_test.h: running C "kernels" on the host backend's engine in tests.
 *
 * The host tests call rt_host_run (runtime/host_exec.h) directly, with entry
 * points written in C in the test instead of compiler-generated ones: a
 * thread entry gets one GPU thread's context, exactly as
 * K__gpucc_thread(params, ctx) would, and may call gpuccHostBarrier and
 * gpuccHostShuffle. They link a static copy of the engine's sources
 * (rt_host_engine in CMakeLists.txt), since libgpucc_rt exports only the
 * mgpu* and gpucc* functions. */
#ifndef GPUCC_TEST_HOST_TEST_H
#define GPUCC_TEST_HOST_TEST_H

#include <stdint.h>

#include "harness.h"
#include "host_exec.h"

/* Runs a grid and CHECKs that rt_host_run accepted it. */
static inline void host_run(rt_host_entry thread, rt_host_entry block, uint64_t static_shared,
                            const unsigned grid[3], const unsigned blk[3], unsigned dynamic_shared,
                            void **params) {
  struct rt_host_kernel k = {.thread = thread, .block = block, .shared_bytes = static_shared};
  struct rt_host_grid g = {.dynamic_shared = dynamic_shared, .params = params};
  for (int d = 0; d < 3; d++) {
    g.grid[d] = grid[d];
    g.block[d] = blk[d];
  }
  char err[256] = "";
  int rc = rt_host_run(&k, &g, err, sizeof err);
  if (rc != 0)
    fprintf(stderr, "rt_host_run: %s\n", err);
  CHECK(rc == 0);
}

/* The linear thread index within the block and the block size, as the
 * runtime linearizes them (x fastest), which is what defines warp lanes. */
static inline unsigned host_linear_tid(const struct gpucc_host_ctx *c) {
  return c->tid[0] + c->ntid[0] * (c->tid[1] + c->ntid[1] * c->tid[2]);
}

static inline unsigned host_block_threads(const struct gpucc_host_ctx *c) {
  return c->ntid[0] * c->ntid[1] * c->ntid[2];
}

static inline unsigned long host_linear_block(const struct gpucc_host_ctx *c) {
  return c->ctaid[0] +
         (unsigned long)c->nctaid[0] * (c->ctaid[1] + (unsigned long)c->nctaid[1] * c->ctaid[2]);
}

#endif
