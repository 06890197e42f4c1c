/* kernel_limits.h: what a launch may ask of a kernel, and the check of each launch.
 *
 * A GPU refuses a launch whose block has more threads than the kernel was
 * compiled for (CUDA's .maxntid and its registers, AMD's
 * flat_work_group_size), whose shape differs from the one it was compiled
 * for (.reqntid, known_block_size), whose block or grid is larger than the
 * hardware's, or whose shared memory (the kernel's static bytes plus the
 * launch's dynamic ones) does not fit in a block's. The drivers say so with
 * an error code; the host backend would run the launch anyway. So the
 * runtime checks every launch itself, on every backend, against one struct
 * rt_limits per target that must accept it (module.c builds them: the
 * device's on CUDA and HIP, each GPU target of the fat binary on the host
 * backend), and explains a refusal naming the kernel and those targets.
 *
 * Pure functions over plain data, like select.h: no driver, no allocation,
 * unit-tested in tests/runtime/test_kernel_limits.c. */
#ifndef GPUCC_RT_KERNEL_LIMITS_H
#define GPUCC_RT_KERNEL_LIMITS_H

#include <stddef.h>
#include <stdint.h>

#include "backend.h"
#include "select.h"

/* What one target lets a launch of one kernel do. */
struct rt_limits {
  char who[64];         /* the target that would refuse, for messages: "sm_90",
                           "gfx942", "host" */
  uint32_t threads;     /* most threads per block */
  uint32_t block[3];    /* the only block shape the kernel runs with, or zeros */
  uint32_t max_block[3];/* most threads per block in each dimension */
  uint32_t max_grid[3]; /* most blocks per grid in each dimension */
  uint64_t shared;      /* the kernel's own (static) workgroup bytes */
  uint64_t max_shared;  /* most static plus dynamic bytes per block; 0: no limit */
};

/* What makes a launch fail a check, in the order they are checked. */
enum rt_limit_kind {
  RT_LIMIT_OK,
  RT_LIMIT_THREADS, /* more threads per block than the kernel allows */
  RT_LIMIT_SHAPE,   /* not the one block shape it was compiled for */
  RT_LIMIT_BLOCK,   /* a block dimension too large */
  RT_LIMIT_GRID,    /* a grid dimension too large */
  RT_LIMIT_SHARED,  /* more shared memory than a block has */
};

/* The limits of a kernel compiled for `target`, as far as its name tells
 * them: GPUCC_MAX_BLOCK_THREADS threads, blocks of at most (1024, 1024, 64)
 * and grids of (2^31 - 1, 65535, 65535), as CUDA and HIP both have; shared
 * memory per block as the chip has it, opt-in included (gpucc's runtime
 * opts in), which is the rules' of its vendor (s->max_shared: by compute
 * capability in select_cuda.c, 64 KiB of LDS but gfx950's in select_hip.c).
 * With s NULL (a vendor no backend knows) or a vendor without a
 * shared-memory limit (the host: a program tested on the CPU must run on a
 * GPU, so it keeps the thread, block and grid limits), none. who = target. */
void rt_limits_of_target(const struct rt_selection *s, const char *target, struct rt_limits *l);

/* The device's limits: its target's (rt_limits_of_target of dev->arch by
 * its own rules), replaced by what its driver reported (dev->max_*; 0: not
 * reported). who = dev->arch. */
void rt_limits_of_device(const struct rt_device *dev, struct rt_limits *l);

/* Narrows l to what a kernel line of the manifest records: fewer threads,
 * one block shape, its static workgroup bytes. k may be NULL (nothing
 * recorded: l stays). */
void rt_limits_apply_kernel(struct rt_limits *l, const struct fatbin_kernel *k);

/* Threads in a block of these sizes; saturates instead of wrapping (three
 * 32-bit sizes may need 96 bits). */
static inline uint64_t rt_block_threads(const unsigned b[3]) {
  uint64_t t;
  if (__builtin_mul_overflow((uint64_t)b[0] * b[1], (uint64_t)b[2], &t))
    return UINT64_MAX;
  return t;
}

/* The first check the launch fails, or RT_LIMIT_OK. Inline: it runs on every
 * launch, a few comparisons (no division). */
static inline enum rt_limit_kind rt_limits_check(const struct rt_limits *l,
                                                 const struct rt_launch *launch) {
  const unsigned *b = launch->block, *g = launch->grid;
  if (rt_block_threads(b) > l->threads)
    return RT_LIMIT_THREADS;
  if (l->block[0] && (b[0] != l->block[0] || b[1] != l->block[1] || b[2] != l->block[2]))
    return RT_LIMIT_SHAPE;
  if (b[0] > l->max_block[0] || b[1] > l->max_block[1] || b[2] > l->max_block[2])
    return RT_LIMIT_BLOCK;
  if (g[0] > l->max_grid[0] || g[1] > l->max_grid[1] || g[2] > l->max_grid[2])
    return RT_LIMIT_GRID;
  if (l->max_shared && l->shared + launch->smem > l->max_shared)
    return RT_LIMIT_SHARED;
  return RT_LIMIT_OK;
}

/* Explains why the launch of kernel `name` is refused by the first of the n
 * limits it fails, in one line without prefix, naming every target that
 * refuses it for the same reason with the same limit:
 *   kernel 'transpose' launched with 1024 threads per block; it was
 *   compiled for at most 256 (sm_90, gfx942)
 * Returns 0 with the message in msg, or -1 (msg empty) when every limit
 * accepts the launch. */
int rt_limits_explain(const char *name, const struct rt_limits *l, size_t n,
                      const struct rt_launch *launch, char *msg, size_t len);

#endif
