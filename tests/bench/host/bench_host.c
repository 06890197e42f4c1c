/* bench_host.c: the host backend against plain C, side by side in one run.
 *
 * For a vector add over 16M floats and a 1024x1024 matmul it times
 *   gpucc: the MLIR kernels of kernels.mlir launched through libgpucc_rt's
 *          host backend (all cores),
 *   C -O2: the same computation as a plain loop on one thread,
 *   OpenMP: that loop with `omp parallel for` on all cores,
 * checks that all three agree, and prints throughput ratios. The goal of
 * the host backend is at least 0.5x of OpenMP. Times are best-of-N wall
 * times; no absolute time is asserted (these machines are noisy).
 * Usage: bench_host [repetitions]   (default 5) */
#include <math.h>
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

struct memref1 {
  float *allocated, *aligned;
  int64_t offset, sizes[1], strides[1];
};
struct memref2 {
  float *allocated, *aligned;
  int64_t offset, sizes[2], strides[2];
};

void _mlir_ciface_vecadd(struct memref1 *a, struct memref1 *b, struct memref1 *c);
void _mlir_ciface_matmul(struct memref2 *a, struct memref2 *b, struct memref2 *c);

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static struct memref1 wrap1(float *p, int64_t n) { return (struct memref1){p, p, 0, {n}, {1}}; }
static struct memref2 wrap2(float *p, int64_t n) { return (struct memref2){p, p, 0, {n, n}, {n, 1}}; }

static void vecadd_c(const float *a, const float *b, float *c, long n) {
  for (long i = 0; i < n; i++)
    c[i] = a[i] + b[i];
}

static void vecadd_omp(const float *a, const float *b, float *c, long n) {
#pragma omp parallel for schedule(static)
  for (long i = 0; i < n; i++)
    c[i] = a[i] + b[i];
}

static void matmul_c(const float *a, const float *b, float *c, long n) {
  for (long i = 0; i < n; i++)
    for (long j = 0; j < n; j++) {
      float s = 0;
      for (long k = 0; k < n; k++)
        s += a[i * n + k] * b[k * n + j];
      c[i * n + j] = s;
    }
}

static void matmul_omp(const float *a, const float *b, float *c, long n) {
#pragma omp parallel for schedule(static)
  for (long i = 0; i < n; i++)
    for (long j = 0; j < n; j++) {
      float s = 0;
      for (long k = 0; k < n; k++)
        s += a[i * n + k] * b[k * n + j];
      c[i * n + j] = s;
    }
}

static int same(const float *x, const float *y, long n, const char *what) {
  for (long i = 0; i < n; i++)
    if (fabsf(x[i] - y[i]) > 1e-3f * (1.0f + fabsf(y[i]))) {
      fprintf(stderr, "%s: mismatch at %ld: %g vs %g\n", what, i, x[i], y[i]);
      return 0;
    }
  return 1;
}

#define BEST(reps, expr)                                                                           \
  ({                                                                                               \
    double best_ = 1e30;                                                                           \
    for (int r_ = 0; r_ < (reps); r_++) {                                                          \
      double t0_ = now();                                                                          \
      expr;                                                                                        \
      double t_ = now() - t0_;                                                                     \
      if (t_ < best_)                                                                              \
        best_ = t_;                                                                                \
    }                                                                                              \
    best_;                                                                                         \
  })

int main(int argc, char **argv) {
  int reps = argc > 1 ? atoi(argv[1]) : 5;
  if (reps < 1)
    reps = 1;
  int ok = 1;

  long n = 16L << 20;
  float *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
  float *c1 = malloc(n * sizeof *c1), *c2 = malloc(n * sizeof *c2), *c3 = malloc(n * sizeof *c3);
  if (!a || !b || !c1 || !c2 || !c3)
    return 2;
  for (long i = 0; i < n; i++) {
    a[i] = (float)(i % 1000);
    b[i] = (float)(i % 7);
    c1[i] = c2[i] = c3[i] = 0; /* touch every page before timing */
  }
  struct memref1 ma = wrap1(a, n), mb = wrap1(b, n), mc = wrap1(c1, n);
  double tg = BEST(reps, _mlir_ciface_vecadd(&ma, &mb, &mc));
  double tc = BEST(reps, vecadd_c(a, b, c2, n));
  double to = BEST(reps, vecadd_omp(a, b, c3, n));
  ok &= same(c1, c2, n, "vecadd gpucc vs C") && same(c3, c2, n, "vecadd OpenMP vs C");
  printf("vecadd 16M floats:  gpucc %.2f ms  C -O2 1 thread %.2f ms  OpenMP %d threads %.2f ms\n",
         tg * 1e3, tc * 1e3, omp_get_max_threads(), to * 1e3);
  printf("  throughput ratio gpucc/C = %.2fx   gpucc/OpenMP = %.2fx (goal >= 0.5x)\n", tc / tg, to / tg);
  free(a), free(b), free(c1), free(c2), free(c3);

  long m = 1024;
  a = malloc(m * m * sizeof *a), b = malloc(m * m * sizeof *b);
  c1 = malloc(m * m * sizeof *c1), c2 = malloc(m * m * sizeof *c2), c3 = malloc(m * m * sizeof *c3);
  if (!a || !b || !c1 || !c2 || !c3)
    return 2;
  for (long i = 0; i < m * m; i++) {
    a[i] = (float)(i % 17) * 0.25f;
    b[i] = (float)(i % 13) * 0.5f;
  }
  int mreps = reps > 3 ? 3 : reps;
  struct memref2 xa = wrap2(a, m), xb = wrap2(b, m), xc = wrap2(c1, m);
  tg = BEST(mreps, _mlir_ciface_matmul(&xa, &xb, &xc));
  tc = BEST(mreps, matmul_c(a, b, c2, m));
  to = BEST(mreps, matmul_omp(a, b, c3, m));
  ok &= same(c1, c2, m * m, "matmul gpucc vs C") && same(c3, c2, m * m, "matmul OpenMP vs C");
  printf("matmul 1024x1024:   gpucc %.1f ms  C -O2 1 thread %.1f ms  OpenMP %d threads %.1f ms\n",
         tg * 1e3, tc * 1e3, omp_get_max_threads(), to * 1e3);
  printf("  throughput ratio gpucc/C = %.2fx   gpucc/OpenMP = %.2fx (goal >= 0.5x)\n", tc / tg, to / tg);
  free(a), free(b), free(c1), free(c2), free(c3);
  return ok ? 0 : 1;
}
