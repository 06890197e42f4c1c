/* regions_check.c: runs the kernels of regions.mlir through libgpucc_rt's
 * host backend and compares each result with the same computation in C.
 * Prints the first mismatches and "ok"; exits 1 on any mismatch. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

struct m1f {
  float *a, *b;
  int64_t off, size, stride;
};
struct m1i {
  int32_t *a, *b;
  int64_t off, size, stride;
};
struct m2 {
  float *a, *b;
  int64_t off, s0, s1, st0, st1;
};
void _mlir_ciface_rev(struct m1f *in, struct m1f *out, int64_t bs);
void _mlir_ciface_perthread(struct m1i *out, int64_t lim);
void _mlir_ciface_twod(struct m1i *out, int32_t lim, int64_t iters);
void _mlir_ciface_early(struct m1i *out, int64_t m, int64_t iters);
void _mlir_ciface_uoff(struct m1i *out, int64_t off, int64_t n);
void _mlir_ciface_soff(struct m1i *out, int64_t off, int64_t n);
void _mlir_ciface_idlefx(struct m1i *out, int64_t n);
void _mlir_ciface_mixed(struct m1i *out, int64_t n);
void _mlir_ciface_mm(struct m2 *a, struct m2 *b, struct m2 *c, int64_t bx, int64_t by, int64_t m);
void _mlir_ciface_nest(struct m1f *out, struct m1f *in, int64_t bx, int64_t ni, int64_t nj);

static int fails;
#define CHECK(c, ...)                                                                              \
  do {                                                                                             \
    if (!(c)) {                                                                                    \
      fails++;                                                                                     \
      if (fails < 20)                                                                              \
        printf(__VA_ARGS__);                                                                       \
    }                                                                                              \
  } while (0)

/* Lockstep, uniform values across barriers, guards. */
static void check_lockstep(void) {
  for (int bs = 1; bs <= 256; bs *= 2) { /* rev */
    int nb = 5;
    float in[5 * 256], out[5];
    for (int i = 0; i < nb * bs; i++)
      in[i] = (float)(i % 13);
    struct m1f mi = {in, in, 0, nb * bs, 1}, mo = {out, out, 0, nb, 1};
    _mlir_ciface_rev(&mi, &mo, bs);
    for (int b = 0; b < nb; b++) {
      float e = 0;
      for (int t = 0; t < bs; t++)
        e += in[b * bs + t];
      CHECK(out[b] == e, "rev bs=%d b=%d: %g vs %g\n", bs, b, out[b], e);
    }
  }
  int64_t lims[] = {0, 1, 7, 100, 199, 200, 1000};
  for (int li = 0; li < 7; li++) { /* perthread */
    int32_t out[600];
    struct m1i mo = {out, out, 0, 600, 1};
    _mlir_ciface_perthread(&mo, lims[li]);
    for (int i = 0; i < 600; i++) {
      int t = i % 200;
      int e = t < lims[li] ? t : t + 4;
      CHECK(out[i] == e, "perthread lim=%ld i=%d: %d vs %d\n", (long)lims[li], i, out[i], e);
    }
  }
  int32_t l2[] = {-3, 0, 1, 5, 16, 17, 100000};
  for (int li = 0; li < 7; li++)
    for (int it = 0; it < 4; it++) { /* twod */
      int32_t out[512];
      struct m1i mo = {out, out, 0, 512, 1};
      _mlir_ciface_twod(&mo, l2[li], it);
      for (int i = 0; i < 512; i++) {
        int tx = i % 16;
        int v = 0, u = 0;
        for (int k = 0; k < it; k++) {
          if (tx < l2[li])
            v = v + k + u;
          u += l2[li];
        }
        CHECK(out[i] == v + u, "twod lim=%d it=%d i=%d: %d vs %d\n", l2[li], it, i, out[i], v + u);
      }
    }
  int64_t ms[] = {1, 5, 32, 63, 64};
  for (int mi = 0; mi < 5; mi++)
    for (int it = 0; it < 3; it++) { /* early */
      int32_t out[512];
      for (int i = 0; i < 512; i++)
        out[i] = -1;
      struct m1i mo = {out, out, 0, 512, 1};
      _mlir_ciface_early(&mo, ms[mi], it);
      int m = (int)ms[mi];
      int sh[64], a[64];
      for (int t = 0; t < m; t++)
        sh[t] = a[t] = t;
      for (int k = 0; k < it; k++) {
        int v[64];
        for (int t = 0; t < m; t++)
          v[t] = sh[(t + 1) % m];
        for (int t = 0; t < m; t++) {
          a[t] += v[t];
          sh[t] = a[t];
        }
      }
      for (int b = 0; b < 2; b++)
        for (int t = 0; t < 64; t++) {
          int e = t < m ? a[t] : -1;
          CHECK(out[b * 256 + t] == e, "early m=%d it=%d b=%d t=%d: %d vs %d\n", m, it, b, t,
                out[b * 256 + t], e);
        }
    }
}

/* Guards with offsets (wrapping ones too), and ones that must not narrow. */
static void check_guards(void) {
  int32_t out[100];
  struct m1i mo = {out, out, 0, 100, 1};
  int64_t offs[] = {0,
                    5,
                    -5,
                    -200,
                    95,
                    100,
                    200,
                    (int64_t)(~0ull - 10),
                    (int64_t)(~0ull - 2000),
                    INT64_MAX - 50,
                    INT64_MIN};
  int64_t ns[] = {0, 3, 50, 99, 100, 101, 1000, -1, -7, INT64_MAX, INT64_MIN + 3};
  for (int a = 0; a < 11; a++)
    for (int c = 0; c < 11; c++) {
      for (int t = 0; t < 100; t++)
        out[t] = 0;
      _mlir_ciface_uoff(&mo, offs[a], ns[c]);
      for (int t = 0; t < 100; t++) {
        int e = (uint64_t)offs[a] + (uint64_t)t < (uint64_t)ns[c];
        CHECK(out[t] == e, "uoff off=%ld n=%ld t=%d: %d vs %d\n", (long)offs[a], (long)ns[c], t,
              out[t], e);
      }
      for (int t = 0; t < 100; t++)
        out[t] = 0;
      _mlir_ciface_soff(&mo, offs[a], ns[c]);
      for (int t = 0; t < 100; t++) {
        int64_t i = (int64_t)((uint64_t)offs[a] + (uint64_t)t);
        int e = ns[c] >= i;
        CHECK(out[t] == e, "soff off=%ld n=%ld t=%d: %d vs %d\n", (long)offs[a], (long)ns[c], t,
              out[t], e);
      }
    }
  for (int c = 0; c < 11; c++) {
    _mlir_ciface_idlefx(&mo, ns[c]);
    for (int t = 0; t < 100; t++) {
      int e = (uint64_t)t < (uint64_t)ns[c] ? 1 : 2;
      CHECK(out[t] == e, "idlefx n=%ld t=%d: %d vs %d\n", (long)ns[c], t, out[t], e);
    }
  }
  int64_t ms[] = {0, 1, 2, 50, 100, 101};
  for (int c = 0; c < 6; c++) {
    _mlir_ciface_mixed(&mo, ms[c]);
    int32_t sh[100];
    for (int t = 0; t < 100; t++)
      sh[t] = t;
    for (int k = 0; k < 3; k++) {
      for (int t = 0; t < 100; t++) {
        int v1 = sh[t] + 1;
        sh[t] = v1;
        if ((uint64_t)t < (uint64_t)(ms[c] - k))
          sh[t] = sh[t] * v1;
      }
      for (int t = 0; t < 100; t++) {
        if (t % 2 == 1)
          sh[t] -= 1;
        if (t < k)
          sh[t] += sh[t];
      }
    }
    for (int t = 0; t < 100; t++)
      CHECK(out[t] == sh[t], "mixed n=%ld t=%d: %d vs %d\n", (long)ms[c], t, out[t], sh[t]);
  }
}

/* Implicit barriers. */
static void check_implicit(void) {
  int n = 96;
  float *A = malloc(n * n * 4), *B = malloc(n * n * 4), *C = malloc(n * n * 4);
  for (int i = 0; i < n * n; i++) {
    A[i] = (i % 7) * 0.5f;
    B[i] = (i % 5) * 0.25f;
  }
  int64_t bs[][2] = {{1, 1}, {4, 2}, {8, 8}, {16, 1}, {32, 3}, {48, 2}, {96, 1}, {16, 16}};
  int64_t ms[] = {0, 5, 1000};
  for (int q = 0; q < 8; q++)
    for (int mi = 0; mi < 3; mi++) {
      struct m2 ma = {A, A, 0, n, n, n, 1}, mb = {B, B, 0, n, n, n, 1}, mc = {C, C, 0, n, n, n, 1};
      for (int i = 0; i < n * n; i++)
        C[i] = -1;
      _mlir_ciface_mm(&ma, &mb, &mc, bs[q][0], bs[q][1], ms[mi]);
      for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
          float s = 0;
          int tx = j % bs[q][0];
          for (int k = 0; k < n; k++) {
            s += A[i * n + k] * B[k * n + j];
            if (tx < ms[mi])
              s += 0.5f;
          }
          s += (float)(j % 3);
          CHECK(C[i * n + j] == s, "mm bs=%ldx%ld m=%ld [%d,%d]: %g vs %g\n", (long)bs[q][0],
                (long)bs[q][1], (long)ms[mi], i, j, C[i * n + j], s);
        }
    }
  float in[4096], out[4096];
  for (int i = 0; i < 4096; i++)
    in[i] = (float)(i % 11);
  int64_t ws[] = {1, 7, 16, 33, 64};
  for (int w = 0; w < 5; w++)
    for (int ni = 0; ni < 4; ni++)
      for (int nj = 0; nj < 4; nj++) {
        for (int i = 0; i < 4096; i++)
          out[i] = -1;
        struct m1f mo = {out, out, 0, 4096, 1}, mi = {in, in, 0, 4096, 1};
        _mlir_ciface_nest(&mo, &mi, ws[w], ni, nj);
        int W = (int)ws[w];
        for (int x = 0; x < W; x++) {
          float t = 0;
          for (int i = 0; i < ni; i++) {
            for (int j = 0; j < nj; j++)
              t += in[j * W + x];
            CHECK(out[i * W + x] == t, "nest w=%d ni=%d nj=%d i=%d x=%d: %g vs %g\n", W, ni, nj, i,
                  x, out[i * W + x], t);
          }
          CHECK(out[ni * W + x] == t, "nest end w=%d ni=%d nj=%d x=%d: %g vs %g\n", W, ni, nj, x,
                out[ni * W + x], t);
        }
      }
  free(A), free(B), free(C);
}

int main(void) {
  check_lockstep();
  check_guards();
  check_implicit();
  printf("%s (%d mismatches)\n", fails ? "FAIL" : "ok", fails);
  return fails != 0;
}
