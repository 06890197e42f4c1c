/* launch.c: mgpuLaunchKernel and mgpuLaunchClusterKernel.
 *
 * The compiled code passes grid and block sizes as 64-bit integers computed at
 * run time, so they are checked here before they are narrowed to the 32 bits
 * the drivers take: a negative or huge size is a bug in the program that
 * deserves a message naming the sizes, not a driver code. A grid with a zero
 * dimension has no threads: nothing runs, as when a data-dependent size is 0.
 * A failed launch is always reported: the kernel's results would be missing.
 *
 * Then each launch is checked against what its kernel was compiled for and
 * what the targets that must run it allow (kernel_limits.h; module.c says which),
 * before any driver sees it: a refusal names the kernel, the limit and the
 * targets, on every backend, where a GPU driver would only return an error
 * code and the host backend would have run the launch. The check is a few
 * comparisons per target: the limits were worked out at the kernel's first
 * lookup. */
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>

#include "rt.h"

/* Narrows three sizes; returns 0, 1 if one is zero, -1 if one is invalid. */
static int rt_narrow3(const intptr_t in[3], unsigned out[3]) {
  int zero = 0;
  for (int i = 0; i < 3; i++) {
    if (in[i] < 0 || (uintmax_t)in[i] > UINT_MAX)
      return -1;
    zero |= in[i] == 0;
    out[i] = (unsigned)in[i];
  }
  return zero;
}

static void rt_describe_launch(const struct rt_launch *l, char *buf, size_t len) {
  snprintf(buf, len, "launching grid (%u, %u, %u), block (%u, %u, %u)", l->grid[0],
           l->grid[1], l->grid[2], l->block[0], l->block[1], l->block[2]);
  if (l->cluster[0])
    rt_appendf(buf, len, ", cluster (%u, %u, %u)", l->cluster[0], l->cluster[1],
               l->cluster[2]);
  if (l->smem)
    rt_appendf(buf, len, ", %u bytes of dynamic shared memory", l->smem);
}

/* Out of line, so that the launch path keeps no message buffer on its
 * stack. Returns 1. */
static __attribute__((noinline, cold)) int rt_report_refusal(const char *fn,
                                                             const struct rt_function *f,
                                                             const struct rt_launch *l) {
  char msg[4096];
  rt_limits_explain(f->name, f->limits, f->nlimits, l, msg, sizeof msg);
  rt_error("%s: %s", fn, msg);
  return 1;
}

/* Reports and returns 1 when a target refuses the launch of f. */
static int rt_refused(const char *fn, const struct rt_function *f, const struct rt_launch *l) {
  for (size_t i = 0; i < f->nlimits; i++)
    if (rt_limits_check(&f->limits[i], l) != RT_LIMIT_OK)
      return rt_report_refusal(fn, f, l);
  return 0;
}

/* Checks and narrows the sizes into l; reports and returns -1 when invalid,
 * returns 1 when there is nothing to run. */
static int rt_prepare(const char *fn, struct rt_launch *l, const intptr_t cluster[3],
                      const intptr_t grid[3], const intptr_t block[3], int32_t smem) {
  int c = cluster ? rt_narrow3(cluster, l->cluster) : 0;
  int g = rt_narrow3(grid, l->grid);
  int k = rt_narrow3(block, l->block);
  if (c < 0 || g < 0 || k < 0 || smem < 0) {
    rt_error("%s: invalid launch size: grid (%" PRIdPTR ", %" PRIdPTR ", %" PRIdPTR
             "), block (%" PRIdPTR ", %" PRIdPTR ", %" PRIdPTR
             "), cluster (%" PRIdPTR ", %" PRIdPTR ", %" PRIdPTR
             "), %d bytes of shared memory; sizes must be between 0 and %u",
             fn, grid[0], grid[1], grid[2], block[0], block[1], block[2],
             cluster ? cluster[0] : 0, cluster ? cluster[1] : 0,
             cluster ? cluster[2] : 0, (int)smem, UINT_MAX);
    return -1;
  }
  l->smem = (unsigned)smem;
  if (c > 0 || g > 0 || k > 0) {
    rt_log("%s: a zero-sized grid, block or cluster: nothing to run", fn);
    return 1;
  }
  return 0;
}

RT_EXPORT void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY,
                                intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                                intptr_t blockZ, int32_t smem, void *stream,
                                void **params, void **extra, size_t paramsCount) {
  static const char fn[] = "mgpuLaunchKernel";
  const struct rt_backend *b = rt_backend_get(fn);
  if (!b)
    return;
  if (!function) {
    rt_error("%s: no kernel to launch (mgpuModuleGetFunction failed earlier)", fn);
    return;
  }
  const struct rt_function *f = function;
  struct rt_launch l = {.function = f->handle,
                        .stream = stream,
                        .params = params,
                        .extra = extra,
                        .nparams = paramsCount};
  const intptr_t grid[3] = {gridX, gridY, gridZ}, block[3] = {blockX, blockY, blockZ};
  if (rt_prepare(fn, &l, NULL, grid, block, smem) != 0 || rt_refused(fn, f, &l))
    return;
  struct rt_err e;
  if (b->launch(&l, &e) != 0) {
    char what[256];
    rt_describe_launch(&l, what, sizeof what);
    rt_error_failure(fn, b, &e, what);
  }
}

/* LLVM 22 declares this with 14 arguments (no paramsCount); taking 14 here
 * keeps the definition and the calls in agreement. */
static int rt_has_clusters(const struct rt_backend *b) { return b->launch_cluster != NULL; }

RT_EXPORT void mgpuLaunchClusterKernel(void *function, intptr_t clusterX,
                                       intptr_t clusterY, intptr_t clusterZ,
                                       intptr_t gridX, intptr_t gridY, intptr_t gridZ,
                                       intptr_t blockX, intptr_t blockY,
                                       intptr_t blockZ, int32_t smem, void *stream,
                                       void **params, void **extra) {
  static const char fn[] = "mgpuLaunchClusterKernel";
  const struct rt_backend *b = rt_backend_get(fn);
  if (!b)
    return;
  if (!b->launch_cluster) {
    rt_error("%s: %s has no thread block clusters (%s); "
             "this kernel cannot run on device '%s'",
             fn, b->label, rt_feature_note(rt_has_clusters), rt_device()->name);
    return;
  }
  if (!function) {
    rt_error("%s: no kernel to launch (mgpuModuleGetFunction failed earlier)", fn);
    return;
  }
  const struct rt_function *f = function;
  struct rt_launch l = {.function = f->handle, .stream = stream, .params = params,
                        .extra = extra};
  const intptr_t cluster[3] = {clusterX, clusterY, clusterZ};
  const intptr_t grid[3] = {gridX, gridY, gridZ}, block[3] = {blockX, blockY, blockZ};
  if (rt_prepare(fn, &l, cluster, grid, block, smem) != 0 || rt_refused(fn, f, &l))
    return;
  struct rt_err e;
  if (b->launch_cluster(&l, &e) != 0) {
    char what[256];
    rt_describe_launch(&l, what, sizeof what);
    rt_error_failure(fn, b, &e, what);
  }
}
