/* kernel_limits.c: the launch limits of targets and kernels, and the check of a
 * launch against them; see kernel_limits.h.
 *
 * The numbers for a target come from its name only: they are what the host
 * backend holds a launch to on behalf of the GPU objects a program carries
 * (a program tested on the CPU should fail there as it would on its GPUs),
 * and the fallback where a GPU driver does not report one. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "kernel_limits.h"

/* CUDA's and HIP's block and grid limits; the same on every chip since
 * compute capability 3.0 (AMD reports a deeper z, but HIP code is written
 * to CUDA's). */
static const uint32_t rt_max_block[3] = {1024, 1024, 64};
static const uint32_t rt_max_grid[3] = {2147483647u, 65535, 65535};

void rt_limits_of_target(const struct rt_selection *s, const char *target, struct rt_limits *l) {
  memset(l, 0, sizeof *l);
  snprintf(l->who, sizeof l->who, "%s", target);
  l->threads = GPUCC_MAX_BLOCK_THREADS;
  memcpy(l->max_block, rt_max_block, sizeof l->max_block);
  memcpy(l->max_grid, rt_max_grid, sizeof l->max_grid);
  if (s && s->max_shared)
    l->max_shared = s->max_shared(target);
}

void rt_limits_of_device(const struct rt_device *dev, struct rt_limits *l) {
  rt_limits_of_target(dev->select, dev->arch, l);
  if (dev->max_threads)
    l->threads = dev->max_threads;
  for (int d = 0; d < 3; d++) {
    if (dev->max_block[d])
      l->max_block[d] = dev->max_block[d];
    if (dev->max_grid[d])
      l->max_grid[d] = dev->max_grid[d];
  }
  if (dev->max_shared)
    l->max_shared = dev->max_shared;
}

void rt_limits_apply_kernel(struct rt_limits *l, const struct fatbin_kernel *k) {
  if (!k)
    return;
  if (k->threads && k->threads < l->threads)
    l->threads = k->threads;
  if (k->block[0])
    memcpy(l->block, k->block, sizeof l->block);
  l->shared = k->shared;
}

/* Whether two limits refuse a launch the same way, with the same numbers,
 * so that one message can name both targets. */
static int rt_same_refusal(enum rt_limit_kind kind, const struct rt_limits *a,
                           const struct rt_limits *b) {
  switch (kind) {
  case RT_LIMIT_THREADS:
    return a->threads == b->threads;
  case RT_LIMIT_SHAPE:
    return memcmp(a->block, b->block, sizeof a->block) == 0;
  case RT_LIMIT_BLOCK:
    return memcmp(a->max_block, b->max_block, sizeof a->max_block) == 0;
  case RT_LIMIT_GRID:
    return memcmp(a->max_grid, b->max_grid, sizeof a->max_grid) == 0;
  case RT_LIMIT_SHARED:
    return a->max_shared == b->max_shared && a->shared == b->shared;
  case RT_LIMIT_OK:
    break;
  }
  return 0;
}

/* The reason, without the targets. */
static void rt_describe_refusal(enum rt_limit_kind kind, const char *name,
                                const struct rt_limits *l, const struct rt_launch *launch,
                                char *msg, size_t len) {
  const unsigned *b = launch->block, *g = launch->grid;
  switch (kind) {
  case RT_LIMIT_THREADS:
    snprintf(msg, len,
             "kernel '%s' launched with %" PRIu64 " threads per block; it was compiled for "
             "at most %" PRIu32,
             name, rt_block_threads(launch->block), l->threads);
    return;
  case RT_LIMIT_SHAPE:
    snprintf(msg, len,
             "kernel '%s' launched with block (%u, %u, %u); it was compiled for block (%" PRIu32
             ", %" PRIu32 ", %" PRIu32 ") only",
             name, b[0], b[1], b[2], l->block[0], l->block[1], l->block[2]);
    return;
  case RT_LIMIT_BLOCK:
    snprintf(msg, len,
             "kernel '%s' launched with block (%u, %u, %u); a block is at most (%" PRIu32
             ", %" PRIu32 ", %" PRIu32 ")",
             name, b[0], b[1], b[2], l->max_block[0], l->max_block[1], l->max_block[2]);
    return;
  case RT_LIMIT_GRID:
    snprintf(msg, len,
             "kernel '%s' launched with grid (%u, %u, %u); a grid is at most (%" PRIu32
             ", %" PRIu32 ", %" PRIu32 ") blocks",
             name, g[0], g[1], g[2], l->max_grid[0], l->max_grid[1], l->max_grid[2]);
    return;
  case RT_LIMIT_SHARED:
    if (l->shared)
      snprintf(msg, len,
               "kernel '%s' launched with %u bytes of dynamic shared memory; with its %" PRIu64
               " static bytes that is %" PRIu64 ", more than the %" PRIu64
               " bytes a block can have",
               name, launch->smem, l->shared, l->shared + launch->smem, l->max_shared);
    else
      snprintf(msg, len,
               "kernel '%s' launched with %u bytes of dynamic shared memory, more than the "
               "%" PRIu64 " bytes a block can have",
               name, launch->smem, l->max_shared);
    return;
  case RT_LIMIT_OK:
    break;
  }
  msg[0] = '\0';
}

/* Appends s to the string in msg, cut to len bytes. */
static void rt_append(char *msg, size_t len, const char *s) {
  size_t used = strlen(msg);
  if (used + 1 < len)
    snprintf(msg + used, len - used, "%s", s);
}

int rt_limits_explain(const char *name, const struct rt_limits *l, size_t n,
                      const struct rt_launch *launch, char *msg, size_t len) {
  msg[0] = '\0';
  size_t first = 0;
  enum rt_limit_kind kind = RT_LIMIT_OK;
  while (first < n && (kind = rt_limits_check(&l[first], launch)) == RT_LIMIT_OK)
    first++;
  if (first == n)
    return -1;
  rt_describe_refusal(kind, name, &l[first], launch, msg, len);
  const char *sep = " (";
  for (size_t i = first; i < n; i++) {
    if (rt_limits_check(&l[i], launch) != kind || !rt_same_refusal(kind, &l[first], &l[i]))
      continue;
    rt_append(msg, len, sep);
    rt_append(msg, len, l[i].who);
    sep = ", ";
  }
  rt_append(msg, len, ")");
  return 0;
}
