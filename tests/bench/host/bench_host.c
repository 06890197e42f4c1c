/* bench_host.c: the host backend against plain C, side by side in one run.
 *
 * For a vector add over 16M floats and a 1024x1024 matmul it times
 *   gpucc: the MLIR kernels of kernels.mlir launched through libgpucc_rt's
 *          host backend (all cores),
 *   C -O2: the same computation as a plain loop on one thread,
 *   OpenMP: that loop with `omp parallel for` on all cores,
 * checks that all three agree, and prints throughput ratios (goal: at least
 * 1.0x of OpenMP). Then three kernels that synchronize, against the same
 * algorithm in C with OpenMP (`omp parallel for` over the blocks, a local
 * array per block for the workgroup memory, a loop over the threads between
 * barriers): a block tree reduction (4096 blocks x 256 threads, 9 barriers,
 * 10 launches), a 1024x1024 matmul through 16x16 tiles (two barriers per
 * tile step) and a 2-D 5-point stencil with its halo in workgroup memory;
 * for those it prints time ratios gpucc/OpenMP (goal <= 1.2x, at most 2x).
 * Times are best-of-N wall times; no absolute time is asserted (these
 * machines are noisy). Usage: bench_host [repetitions]   (default 5) */
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
void _mlir_ciface_reduce(struct memref1 *in, struct memref1 *out);
void _mlir_ciface_tiled(struct memref2 *a, struct memref2 *b, struct memref2 *c);
void _mlir_ciface_stencil(struct memref2 *in, struct memref2 *out);

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

/* The reduction kernel's algorithm: per block, the load into a local array
 * (workgroup memory), then 8 halving steps over the "threads". */
static void reduce_omp(const float *in, float *out, long blocks) {
#pragma omp parallel for schedule(static)
  for (long b = 0; b < blocks; b++) {
    float sh[256];
    for (int t = 0; t < 256; t++)
      sh[t] = in[b * 256 + t];
    for (int s = 128; s > 0; s >>= 1)
      for (int t = 0; t < s; t++)
        sh[t] += sh[t + s];
    out[b] = sh[0];
  }
}

/* The tiled kernel's algorithm: per 16x16 block of C, tiles of A and B in
 * local arrays, each thread's accumulator in an array of the block. */
static void tiled_omp(const float *a, const float *b, float *c, long n) {
  long g = n / 16;
#pragma omp parallel for schedule(static)
  for (long blk = 0; blk < g * g; blk++) {
    long by = blk / g, bx = blk % g;
    float as[16][16], bs[16][16], acc[16][16] = {{0}};
    for (long kt = 0; kt < n; kt += 16) {
      for (int ty = 0; ty < 16; ty++)
        for (int tx = 0; tx < 16; tx++) {
          as[ty][tx] = a[(by * 16 + ty) * n + kt + tx];
          bs[ty][tx] = b[(kt + ty) * n + bx * 16 + tx];
        }
      for (int ty = 0; ty < 16; ty++)
        for (int tx = 0; tx < 16; tx++) {
          float s = acc[ty][tx];
          for (int k = 0; k < 16; k++)
            s += as[ty][k] * bs[k][tx];
          acc[ty][tx] = s;
        }
    }
    for (int ty = 0; ty < 16; ty++)
      for (int tx = 0; tx < 16; tx++)
        c[(by * 16 + ty) * n + bx * 16 + tx] = acc[ty][tx];
  }
}

static long clampl(long v, long lo, long hi) { return v < lo ? lo : v > hi ? hi : v; }

/* The stencil kernel's algorithm: per 16x16 block, the tile and its halo
 * (clamped at the grid's edges) in a local array, then the 5-point mean. */
static void stencil_omp(const float *in, float *out, long n) {
  long g = n / 16;
#pragma omp parallel for schedule(static)
  for (long blk = 0; blk < g * g; blk++) {
    long by = blk / g, bx = blk % g;
    float tile[18][18];
    for (int ty = -1; ty <= 16; ty++)
      for (int tx = -1; tx <= 16; tx++) {
        if ((ty == -1 || ty == 16) && (tx == -1 || tx == 16))
          continue; /* corners: no thread loads them, none reads them */
        long i = clampl(by * 16 + ty, 0, n - 1), j = clampl(bx * 16 + tx, 0, n - 1);
        tile[ty + 1][tx + 1] = in[i * n + j];
      }
    for (int ty = 0; ty < 16; ty++)
      for (int tx = 0; tx < 16; tx++)
        out[(by * 16 + ty) * n + bx * 16 + tx] =
            (tile[ty + 1][tx + 1] + tile[ty][tx + 1] + tile[ty + 2][tx + 1] + tile[ty + 1][tx] +
             tile[ty + 1][tx + 2]) * 0.2f;
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
  printf("  throughput ratio gpucc/C = %.2fx   gpucc/OpenMP = %.2fx (goal >= 1.0x)\n", tc / tg, to / tg);
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
  printf("  throughput ratio gpucc/C = %.2fx   gpucc/OpenMP = %.2fx (goal >= 1.0x)\n", tc / tg, to / tg);
  free(a), free(b), free(c1), free(c2), free(c3);

  /* Kernels that synchronize: gpucc against OpenMP, time ratios. */
  long blocks = 4096;
  a = malloc(blocks * 256 * sizeof *a);
  c1 = malloc(blocks * sizeof *c1), c3 = malloc(blocks * sizeof *c3);
  if (!a || !c1 || !c3)
    return 2;
  for (long i = 0; i < blocks * 256; i++)
    a[i] = (float)(i % 7) * 0.5f;
  struct memref1 rin = wrap1(a, blocks * 256), rout = wrap1(c1, blocks);
  tg = BEST(reps, for (int l_ = 0; l_ < 10; l_++) _mlir_ciface_reduce(&rin, &rout));
  to = BEST(reps, for (int l_ = 0; l_ < 10; l_++) reduce_omp(a, c3, blocks));
  ok &= same(c1, c3, blocks, "reduce gpucc vs OpenMP");
  printf("reduce 4096x256, 10 launches:  gpucc %.2f ms  OpenMP %d threads %.2f ms\n", tg * 1e3,
         omp_get_max_threads(), to * 1e3);
  printf("  time ratio gpucc/OpenMP = %.2fx (goal <= 1.2x, at most 2x)\n", tg / to);
  free(a), free(c1), free(c3);

  a = malloc(m * m * sizeof *a), b = malloc(m * m * sizeof *b);
  c1 = malloc(m * m * sizeof *c1), c3 = malloc(m * m * sizeof *c3);
  if (!a || !b || !c1 || !c3)
    return 2;
  for (long i = 0; i < m * m; i++) {
    a[i] = (float)(i % 17) * 0.25f;
    b[i] = (float)(i % 13) * 0.5f;
  }
  xa = wrap2(a, m), xb = wrap2(b, m), xc = wrap2(c1, m);
  tg = BEST(mreps, _mlir_ciface_tiled(&xa, &xb, &xc));
  to = BEST(mreps, tiled_omp(a, b, c3, m));
  ok &= same(c1, c3, m * m, "tiled matmul gpucc vs OpenMP");
  printf("tiled matmul 1024x1024, 16x16 tiles:  gpucc %.1f ms  OpenMP %d threads %.1f ms\n",
         tg * 1e3, omp_get_max_threads(), to * 1e3);
  printf("  time ratio gpucc/OpenMP = %.2fx (goal <= 1.2x, at most 2x)\n", tg / to);
  free(a), free(b), free(c1), free(c3);

  long sn = 2048;
  a = malloc(sn * sn * sizeof *a), c1 = malloc(sn * sn * sizeof *c1), c3 = malloc(sn * sn * sizeof *c3);
  if (!a || !c1 || !c3)
    return 2;
  for (long i = 0; i < sn * sn; i++) {
    a[i] = (float)(i % 23) * 0.125f;
    c1[i] = c3[i] = 0;
  }
  struct memref2 sin_ = wrap2(a, sn), sout = wrap2(c1, sn);
  tg = BEST(reps, _mlir_ciface_stencil(&sin_, &sout));
  to = BEST(reps, stencil_omp(a, c3, sn));
  ok &= same(c1, c3, sn * sn, "stencil gpucc vs OpenMP");
  printf("stencil 2048x2048, 16x16 tiles + halo:  gpucc %.2f ms  OpenMP %d threads %.2f ms\n",
         tg * 1e3, omp_get_max_threads(), to * 1e3);
  printf("  time ratio gpucc/OpenMP = %.2fx\n", tg / to);
  free(a), free(c1), free(c3);
  return ok ? 0 : 1;
}
