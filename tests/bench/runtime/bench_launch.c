/* bench_launch.c: host-side cost of one kernel launch through libgpucc_rt's
 * mgpuLaunchKernel, against calling the driver's cuLaunchKernel directly.
 *
 * Both paths run on the fake CUDA driver of tests/runtime in
 * FAKE_CUDA_MODE=bench, whose cuLaunchKernel only checks that a context is
 * current: the difference between the two is everything the runtime adds
 * (the once-only start check, size checks and narrowing, the backend call,
 * and pushing and popping the primary context around the launch, which a
 * real cuLaunchKernel of a few microseconds would dwarf). The baseline is what
 * a CUDA C program does: make the context current once, then launch.
 *
 * A third loop makes the same three driver calls as the runtime (push, launch,
 * pop) without the runtime, to tell the driver calls it adds from its own
 * code. The loops alternate, several rounds, and the best round of each
 * counts (these machines are noisy); it prints all three, the ratio
 * runtime/direct (goal <= 1.1x) and the nanoseconds the runtime adds. No time
 * is asserted.
 * Usage: bench_launch [launches per round]   (default 1000000) */
#include <stdint.h>

#include "bench_driver.h"
#include "fatbin.h"
#include "gpucc_rt.h"

#define ROUNDS 7

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 1000000;
  BENCH_CHECK(n > 0);

  /* The runtime's side: the kernel of a one-cubin fat binary. */
  static const char cubin[] = "FAKECUBIN:sm_90 launch benchmark";
  const struct fatbin_entry e = {"bench", FATBIN_VENDOR_NVIDIA, "sm_90",
                                 FATBIN_FORMAT_CUBIN, cubin, sizeof cubin, NULL};
  void *blob;
  size_t size;
  char err[256];
  BENCH_CHECK(fatbin_write(&e, 1, &blob, &size, err, sizeof err) == 0);
  void *m = mgpuModuleLoad(blob, size);
  void *f = mgpuModuleGetFunction(m, "k"); /* starts the runtime */
  BENCH_CHECK(f != NULL);
  BENCH_CHECK(gpuccBackendName() && strcmp(gpuccBackendName(), "cuda") == 0);

  /* The direct side: the same driver, its own module and function. */
  struct bench_cu cu;
  bench_cu_open(&cu);
  void *dm, *df;
  BENCH_CHECK(cu.ModuleLoadData(&dm, cubin) == 0);
  BENCH_CHECK(cu.ModuleGetFunction(&df, dm, "k") == 0);

  /* A kernel's usual arguments: a pointer, a size, a scalar. */
  float *data = NULL;
  int64_t count = 1 << 20;
  float alpha = 2.0f;
  void *params[] = {&data, &count, &alpha};

  void *ctx;
  BENCH_CHECK(cu.CtxPopCurrent(&ctx) == 0 && cu.CtxPushCurrent(ctx) == 0);
  double best_direct = 1e30, best_pushed = 1e30, best_rt = 1e30;
  for (int round = 0; round < ROUNDS; round++) {
    int failed = 0;
    double t0 = bench_now();
    for (long i = 0; i < n; i++)
      failed |= cu.LaunchKernel(df, 4096, 1, 1, 256, 1, 1, 0, NULL, params, NULL);
    double t1 = bench_now();
    for (long i = 0; i < n; i++) {
      void *popped;
      failed |= cu.CtxPushCurrent(ctx);
      failed |= cu.LaunchKernel(df, 4096, 1, 1, 256, 1, 1, 0, NULL, params, NULL);
      failed |= cu.CtxPopCurrent(&popped);
    }
    double t2 = bench_now();
    /* Failures stop the program inside the runtime (no handler set). */
    for (long i = 0; i < n; i++)
      mgpuLaunchKernel(f, 4096, 1, 1, 256, 1, 1, 0, NULL, params, NULL, 3);
    double t3 = bench_now();
    BENCH_CHECK(failed == 0);
    if (t1 - t0 < best_direct)
      best_direct = t1 - t0;
    if (t2 - t1 < best_pushed)
      best_pushed = t2 - t1;
    if (t3 - t2 < best_rt)
      best_rt = t3 - t2;
  }
  double direct_ns = best_direct / (double)n * 1e9, rt_ns = best_rt / (double)n * 1e9;
  double pushed_ns = best_pushed / (double)n * 1e9;
  printf("launch, fake CUDA driver, best of %d rounds of %ld launches:\n", ROUNDS, n);
  printf("  cuLaunchKernel directly                  %7.1f ns per launch\n", direct_ns);
  printf("  cuCtxPush + cuLaunchKernel + cuCtxPop    %7.1f ns per launch\n", pushed_ns);
  printf("  mgpuLaunchKernel                         %7.1f ns per launch\n", rt_ns);
  printf("  ratio mgpu/direct = %.2fx (goal <= 1.1x); the runtime adds %.1f ns per launch, "
         "%.1f ns of them in its own code\n",
         rt_ns / direct_ns, rt_ns - direct_ns, rt_ns - pushed_ns);

  cu.ModuleUnload(dm);
  mgpuModuleUnload(m);
  free(blob);
  return 0;
}
