/* host_fiber.h: fibers for the GPU threads of one block (see host_fiber.c).
 * Everything here runs on one OS thread; nothing is shared between workers. */
#ifndef GPUCC_RT_HOST_FIBER_H
#define GPUCC_RT_HOST_FIBER_H

#include <stddef.h>

/* Stack per GPU thread. Kernels keep little on the stack; 64 KiB leaves room
 * for printf formatting and deep helper calls. */
#define RT_FIBER_STACK_SIZE (64 * 1024)

/* The stacks of one worker, reused from block to block. */
struct rt_fiber_pool {
  char *stacks;
  size_t stack_size;
  unsigned capacity;
};

/* One block being run. The caller fills n, run, and arrays done/sp of n
 * entries; run(b, i) runs GPU thread i to completion. */
struct rt_fiber_block {
  unsigned n;
  void (*run)(struct rt_fiber_block *b, unsigned thread);
  void *user;
  unsigned char *done;
  void **sp;
  void *main_sp;
  unsigned current;
  unsigned alive;
};

/* Makes room for n fibers. Returns 0, or -1 when the stacks cannot be mapped. */
int rt_fiber_reserve(struct rt_fiber_pool *pool, unsigned n);
void rt_fiber_release(struct rt_fiber_pool *pool);

/* Runs every fiber of b to completion, in rounds. */
void rt_fiber_run(struct rt_fiber_block *b, struct rt_fiber_pool *pool);

/* Called from inside a fiber: lets every other live fiber of the block run
 * up to its next yield before this one continues. */
void rt_fiber_yield(struct rt_fiber_block *b);

#endif
