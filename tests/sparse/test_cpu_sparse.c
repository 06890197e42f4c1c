/* test_cpu_sparse.c: the host backend's sparse functions against dense
 * references.
 *
 * Random matrices (fixed seed) with small integer values, so that every
 * product and sum is exact in f16, bf16, f32 and f64 alike and results must
 * match the dense reference exactly. Each is written in every format (COO,
 * COO AoS, CSR, CSC, BSR) and index type (u16, i32, i64) and multiplied
 * through the mgpu* functions, as compiled programs call them; then the
 * errors a program can make are checked to be reported, with the handler of
 * gpuccSetErrorHandler catching the message.
 *
 * Run with GPUCC_BACKEND=host. Prints one line per failure and exits 1 if
 * there was any. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpucc_rt.h"
#include "sparse_abi.h"

enum { R_32F = 0, R_64F = 1, R_16F = 2, R_16BF = 14 };
enum { I_16U = 1, I_32I = 2, I_64I = 3 };
enum { COO, AOS, CSR, CSC, BSR };

static int failures;
#define CHECK(cond, ...)                                                                        \
  do {                                                                                          \
    if (!(cond)) {                                                                              \
      failures++;                                                                               \
      printf("FAIL %s:%d: ", __FILE__, __LINE__);                                               \
      printf(__VA_ARGS__);                                                                      \
      printf("\n");                                                                             \
    }                                                                                           \
  } while (0)

static uint64_t seed = 0x9e3779b97f4a7c15u;
static uint32_t rnd(void) {
  seed ^= seed << 13;
  seed ^= seed >> 7;
  seed ^= seed << 17;
  return (uint32_t)(seed >> 11);
}

/* A dense rows x cols matrix with about density% nonzeros in -4..4. */
static double *random_dense(int64_t rows, int64_t cols, int density) {
  double *m = calloc((size_t)(rows * cols) + 1, sizeof *m);
  for (int64_t i = 0; i < rows * cols; i++)
    if ((int)(rnd() % 100) < density)
      m[i] = (double)((int)(rnd() % 4) + 1) * (rnd() % 2 ? 1 : -1);
  return m;
}

/* ---- typed arrays ---- */

static size_t vbytes(int dt) { return dt == R_64F ? 8 : dt == R_32F ? 4 : 2; }
static size_t ibytes(int it) { return it == I_64I ? 8 : it == I_32I ? 4 : 2; }

static void vput(int dt, void *a, int64_t i, double v) {
  switch (dt) {
  case R_32F: ((float *)a)[i] = (float)v; break;
  case R_64F: ((double *)a)[i] = v; break;
  case R_16F: ((_Float16 *)a)[i] = (_Float16)v; break;
  default: { /* bf16: exact for the small integers used */
    float f = (float)v;
    uint32_t w;
    memcpy(&w, &f, sizeof w);
    ((uint16_t *)a)[i] = (uint16_t)(w >> 16);
  }
  }
}

static double vget(int dt, const void *a, int64_t i) {
  switch (dt) {
  case R_32F: return ((const float *)a)[i];
  case R_64F: return ((const double *)a)[i];
  case R_16F: return (double)((const _Float16 *)a)[i];
  default: {
    uint32_t w = (uint32_t)((const uint16_t *)a)[i] << 16;
    float f;
    memcpy(&f, &w, sizeof f);
    return f;
  }
  }
}

static void iput(int it, void *a, int64_t i, int64_t v) {
  if (it == I_64I)
    ((int64_t *)a)[i] = v;
  else if (it == I_32I)
    ((int32_t *)a)[i] = (int32_t)v;
  else
    ((uint16_t *)a)[i] = (uint16_t)v;
}

static int64_t iget(int it, const void *a, int64_t i) {
  return it == I_64I ? ((const int64_t *)a)[i] : it == I_32I ? ((const int32_t *)a)[i]
                                                              : ((const uint16_t *)a)[i];
}

static void *vdense(int dt, const double *m, int64_t n) {
  void *a = malloc(vbytes(dt) * (size_t)(n + 1));
  for (int64_t i = 0; i < n; i++)
    vput(dt, a, i, m[i]);
  return a;
}

/* ---- a dense matrix in one sparse format ---- */

struct sparse {
  void *handle;
  void *pos, *idx, *vals;
  int64_t nnz;
};

static const char *const format_names[] = {"COO", "COO-AoS", "CSR", "CSC", "BSR"};

static struct sparse make_sparse(int fmt, const double *m, int64_t rows, int64_t cols, int it,
                                 int dt) {
  struct sparse s = {0};
  int64_t n = 0, cap = rows * cols + 1;
  s.pos = malloc(ibytes(it) * (size_t)(2 * cap + 2));
  s.idx = malloc(ibytes(it) * (size_t)(2 * cap));
  s.vals = malloc(vbytes(dt) * (size_t)cap);
  if (fmt == BSR) { /* 2x2 blocks, rows and cols even */
    int64_t br = rows / 2, bc = cols / 2;
    iput(it, s.pos, 0, 0);
    for (int64_t i = 0; i < br; i++) {
      for (int64_t j = 0; j < bc; j++) {
        const double *b = m + 2 * i * cols + 2 * j;
        if (b[0] == 0 && b[1] == 0 && b[cols] == 0 && b[cols + 1] == 0)
          continue;
        iput(it, s.idx, n, j);
        vput(dt, s.vals, 4 * n + 0, b[0]);
        vput(dt, s.vals, 4 * n + 1, b[1]);
        vput(dt, s.vals, 4 * n + 2, b[cols]);
        vput(dt, s.vals, 4 * n + 3, b[cols + 1]);
        n++;
      }
      iput(it, s.pos, i + 1, n);
    }
    s.nnz = n;
    s.handle = mgpuCreateBsr(br, bc, n, 2, 2, s.pos, s.idx, s.vals, it, it, dt, NULL);
    return s;
  }
  int csc = fmt == CSC;
  int64_t outer = csc ? cols : rows, inner = csc ? rows : cols;
  if (fmt == CSR || fmt == CSC)
    iput(it, s.pos, 0, 0);
  for (int64_t o = 0; o < outer; o++) {
    for (int64_t i = 0; i < inner; i++) {
      int64_t r = csc ? i : o, c = csc ? o : i;
      double v = m[r * cols + c];
      if (v == 0)
        continue;
      if (fmt == COO) {
        iput(it, s.pos, n, r);
        iput(it, s.idx, n, c);
      } else if (fmt == AOS) {
        iput(it, s.idx, 2 * n, r);
        iput(it, s.idx, 2 * n + 1, c);
      } else {
        iput(it, s.idx, n, i);
      }
      vput(dt, s.vals, n, v);
      n++;
    }
    if (fmt == CSR || fmt == CSC)
      iput(it, s.pos, o + 1, n);
  }
  s.nnz = n;
  switch (fmt) {
  case COO:
    s.handle = mgpuCreateCoo(rows, cols, n, s.pos, s.idx, s.vals, it, dt, NULL);
    break;
  case AOS:
    s.handle = mgpuCreateCooAoS(rows, cols, n, s.idx, s.vals, it, dt, NULL);
    break;
  case CSR:
    s.handle = mgpuCreateCsr(rows, cols, n, s.pos, s.idx, s.vals, it, it, dt, NULL);
    break;
  default:
    s.handle = mgpuCreateCsc(rows, cols, n, s.pos, s.idx, s.vals, it, it, dt, NULL);
    break;
  }
  return s;
}

static void free_sparse(struct sparse *s) {
  mgpuDestroySpMat(s->handle, NULL);
  free(s->pos);
  free(s->idx);
  free(s->vals);
}

/* op(M)(r, c) of a row-major rows x cols matrix. */
static double at(const double *m, int64_t cols, int t, int64_t r, int64_t c) {
  return t ? m[c * cols + r] : m[r * cols + c];
}

/* ---- the computations ---- */

static void test_spmv(void) {
  static const int dts[] = {R_32F, R_64F, R_16F, R_16BF};
  static const int its[] = {I_16U, I_32I, I_64I};
  for (int fmt = COO; fmt <= BSR; fmt++)
    for (int ii = 0; ii < 3; ii++)
      for (int di = 0; di < 4; di++)
        for (int t = 0; t < 2; t++) {
          int64_t rows = 6 + 2 * (int64_t)(rnd() % 4), cols = 4 + 2 * (int64_t)(rnd() % 5);
          int dt = dts[di];
          double *a = random_dense(rows, cols, 35);
          int64_t xr = t ? rows : cols, yr = t ? cols : rows;
          double *x = random_dense(xr, 1, 90), *y = random_dense(yr, 1, 90);
          struct sparse s = make_sparse(fmt, a, rows, cols, its[ii], dt);
          void *xv = vdense(dt, x, xr), *yv = vdense(dt, y, yr);
          void *dx = mgpuCreateDnVec(xr, xv, dt, NULL), *dy = mgpuCreateDnVec(yr, yv, dt, NULL);
          CHECK(mgpuSpMVBufferSize(t, s.handle, dx, dy, dt, NULL) == 0, "buffer size");
          mgpuSpMV(t, s.handle, dx, dy, dt, NULL, NULL);
          for (int64_t i = 0; i < yr; i++) {
            double want = y[i];
            for (int64_t k = 0; k < xr; k++)
              want += at(a, cols, t, i, k) * x[k];
            CHECK(vget(dt, yv, i) == want, "spmv %s itype %d dtype %d trans %d: y[%lld] = %g, "
                  "want %g", format_names[fmt], its[ii], dt, t, (long long)i, vget(dt, yv, i), want);
          }
          mgpuDestroyDnVec(dx, NULL);
          mgpuDestroyDnVec(dy, NULL);
          free_sparse(&s);
          free(a), free(x), free(y), free(xv), free(yv);
        }
}

static void test_spmm(void) {
  static const int dts[] = {R_32F, R_64F, R_16BF};
  for (int fmt = COO; fmt <= BSR; fmt++)
    for (int di = 0; di < 3; di++)
      for (int ta = 0; ta < 2; ta++)
        for (int tb = 0; tb < 2; tb++) {
          int dt = dts[di];
          int64_t m = 4 + 2 * (int64_t)(rnd() % 3), k = 6 + 2 * (int64_t)(rnd() % 3), n = 3 + (int64_t)(rnd() % 4);
          int64_t arows = ta ? k : m, acols = ta ? m : k, brows = tb ? n : k, bcols = tb ? k : n;
          double *a = random_dense(arows, acols, 40), *b = random_dense(brows, bcols, 80);
          double *c = random_dense(m, n, 60);
          struct sparse s = make_sparse(fmt, a, arows, acols, I_32I, dt);
          void *bv = vdense(dt, b, brows * bcols), *cv = vdense(dt, c, m * n);
          void *db = mgpuCreateDnMat(brows, bcols, bv, dt, NULL), *dc = mgpuCreateDnMat(m, n, cv, dt, NULL);
          CHECK(mgpuSpMMBufferSize(ta, tb, s.handle, db, dc, dt, NULL) == 0, "buffer size");
          mgpuSpMM(ta, tb, s.handle, db, dc, dt, NULL, NULL);
          for (int64_t i = 0; i < m; i++)
            for (int64_t j = 0; j < n; j++) {
              double want = c[i * n + j];
              for (int64_t q = 0; q < k; q++)
                want += at(a, acols, ta, i, q) * at(b, bcols, tb, q, j);
              CHECK(vget(dt, cv, i * n + j) == want, "spmm %s dtype %d ta %d tb %d: C[%lld][%lld] = "
                    "%g, want %g", format_names[fmt], dt, ta, tb, (long long)i, (long long)j,
                    vget(dt, cv, i * n + j), want);
            }
          mgpuDestroyDnMat(db, NULL);
          mgpuDestroyDnMat(dc, NULL);
          free_sparse(&s);
          free(a), free(b), free(c), free(bv), free(cv);
        }
}

static void test_sddmm(void) {
  for (int fmt = COO; fmt <= BSR; fmt++)
    for (int ta = 0; ta < 2; ta++)
      for (int tb = 0; tb < 2; tb++) {
        int dt = (ta + tb) % 2 ? R_64F : R_32F;
        int64_t m = 6, k = 5, n = 8;
        int64_t arows = ta ? k : m, acols = ta ? m : k, brows = tb ? n : k, bcols = tb ? k : n;
        double *a = random_dense(arows, acols, 90), *b = random_dense(brows, bcols, 90);
        double *c = random_dense(m, n, 40);
        struct sparse s = make_sparse(fmt, c, m, n, I_64I, dt);
        void *av = vdense(dt, a, arows * acols), *bv = vdense(dt, b, brows * bcols);
        void *da = mgpuCreateDnMat(arows, acols, av, dt, NULL), *db = mgpuCreateDnMat(brows, bcols, bv, dt, NULL);
        mgpuSDDMM(ta, tb, da, db, s.handle, dt, NULL, NULL);
        /* the values, slot by slot, in the order make_sparse stored them */
        int64_t slots = fmt == BSR ? 4 * s.nnz : s.nnz;
        double *got = calloc((size_t)slots + 1, sizeof *got);
        for (int64_t e = 0; e < slots; e++)
          got[e] = vget(dt, s.vals, e);
        /* expected: each stored slot of C gets (op(A) op(B)) at its place */
        int64_t e = 0;
        if (fmt == BSR) {
          for (int64_t bi = 0; bi < m / 2; bi++)
            for (int64_t p = iget(I_64I, s.pos, bi); p < iget(I_64I, s.pos, bi + 1); p++)
              for (int t = 0; t < 4; t++, e++) {
                int64_t r = 2 * bi + t / 2, col = 2 * iget(I_64I, s.idx, p) + t % 2;
                double want = c[r * n + col];
                for (int64_t q = 0; q < k; q++)
                  want += at(a, acols, ta, r, q) * at(b, bcols, tb, q, col);
                CHECK(got[e] == want, "sddmm BSR slot %lld = %g, want %g", (long long)e, got[e], want);
              }
        } else {
          int csc = fmt == CSC;
          for (int64_t o = 0; o < (csc ? n : m); o++)
            for (int64_t i = 0; i < (csc ? m : n); i++) {
              int64_t r = csc ? i : o, col = csc ? o : i;
              if (c[r * n + col] == 0)
                continue;
              double want = c[r * n + col];
              for (int64_t q = 0; q < k; q++)
                want += at(a, acols, ta, r, q) * at(b, bcols, tb, q, col);
              CHECK(got[e] == want, "sddmm %s ta %d tb %d slot %lld = %g, want %g",
                    format_names[fmt], ta, tb, (long long)e, got[e], want);
              e++;
            }
        }
        mgpuDestroyDnMat(da, NULL);
        mgpuDestroyDnMat(db, NULL);
        free_sparse(&s);
        free(a), free(b), free(c), free(av), free(bv), free(got);
      }
}

static void test_spgemm(void) {
  static const int its[] = {I_32I, I_64I};
  for (int ii = 0; ii < 2; ii++)
    for (int di = 0; di < 2; di++)
      for (int ta = 0; ta < 2; ta++) {
        int it = its[ii], dt = di ? R_64F : R_32F;
        int64_t m = 7, k = 9, n = 6;
        int64_t arows = ta ? k : m, acols = ta ? m : k;
        double *a = random_dense(arows, acols, 30), *b = random_dense(k, n, 30);
        struct sparse sa = make_sparse(ii ? CSR : COO, a, arows, acols, it, dt);
        struct sparse sb = make_sparse(CSR, b, k, n, it, dt);
        void *cpos = malloc(ibytes(it) * (size_t)(m + 1));
        void *c = mgpuCreateCsr(m, n, 0, cpos, NULL, NULL, it, it, dt, NULL);
        void *desc = mgpuSpGEMMCreateDescr(NULL);
        intptr_t sz = mgpuSpGEMMWorkEstimation(desc, ta, 0, sa.handle, sb.handle, c, dt, 0, NULL, NULL);
        sz = mgpuSpGEMMWorkEstimation(desc, ta, 0, sa.handle, sb.handle, c, dt, sz, NULL, NULL);
        sz = mgpuSpGEMMCompute(desc, ta, 0, sa.handle, sb.handle, c, dt, 0, NULL, NULL);
        sz = mgpuSpGEMMCompute(desc, ta, 0, sa.handle, sb.handle, c, dt, sz, NULL, NULL);
        CHECK(sz == 0, "compute asks for %lld bytes", (long long)sz);
        int64_t rows = -1, cols = -1, nnz = -1;
        mgpuSpMatGetSize(c, &rows, &cols, &nnz, NULL);
        int64_t want_nnz = 0;
        for (int64_t i = 0; i < m; i++)
          for (int64_t j = 0; j < n; j++) {
            int hit = 0;
            for (int64_t q = 0; q < k; q++)
              hit |= at(a, acols, ta, i, q) != 0 && b[q * n + j] != 0;
            want_nnz += hit;
          }
        CHECK(rows == m && cols == n && nnz == want_nnz, "spgemm size %lldx%lld, %lld entries; want "
              "%lldx%lld, %lld", (long long)rows, (long long)cols, (long long)nnz, (long long)m,
              (long long)n, (long long)want_nnz);
        void *cidx = malloc(ibytes(it) * (size_t)(nnz + 1)), *cvals = malloc(vbytes(dt) * (size_t)(nnz + 1));
        mgpuSetCsrPointers(c, cpos, cidx, cvals, NULL);
        mgpuSpGEMMCopy(desc, ta, 0, sa.handle, sb.handle, c, dt, NULL);
        /* dense product, then compare entry by entry, columns ascending */
        double *got = calloc((size_t)(m * n), sizeof *got);
        CHECK(iget(it, cpos, 0) == 0 && iget(it, cpos, m) == nnz, "spgemm offsets");
        for (int64_t i = 0; i < m; i++)
          for (int64_t p = iget(it, cpos, i); p < iget(it, cpos, i + 1); p++) {
            int64_t j = iget(it, cidx, p);
            CHECK(p == iget(it, cpos, i) || iget(it, cidx, p - 1) < j, "spgemm row %lld unsorted", (long long)i);
            got[i * n + j] = vget(dt, cvals, p);
          }
        for (int64_t i = 0; i < m; i++)
          for (int64_t j = 0; j < n; j++) {
            double want = 0;
            for (int64_t q = 0; q < k; q++)
              want += at(a, acols, ta, i, q) * b[q * n + j];
            CHECK(got[i * n + j] == want, "spgemm itype %d dtype %d ta %d: C[%lld][%lld] = %g, want %g",
                  it, dt, ta, (long long)i, (long long)j, got[i * n + j], want);
          }
        mgpuSpGEMMDestroyDescr(desc, NULL);
        mgpuDestroySpMat(c, NULL);
        free_sparse(&sa);
        free_sparse(&sb);
        free(a), free(b), free(cpos), free(cidx), free(cvals), free(got);
      }
}

/* 2:4: pruning in place keeps the 2 largest magnitudes of each group of 4,
 * and the product uses the pruned values. */
static void test_2to4(void) {
  static const int dts[] = {R_16F, R_32F};
  for (int di = 0; di < 2; di++) {
    int dt = dts[di];
    int64_t m = 4, k = 8, n = 5;
    double a[4 * 8], pruned[4 * 8];
    for (int64_t r = 0; r < m; r++)
      for (int64_t g = 0; g < k; g += 4) {
        /* distinct magnitudes 1..4 in a random order and signs */
        int perm[4] = {1, 2, 3, 4};
        for (int t = 3; t > 0; t--) {
          int j = (int)(rnd() % (unsigned)(t + 1)), x = perm[t];
          perm[t] = perm[j];
          perm[j] = x;
        }
        for (int t = 0; t < 4; t++) {
          double v = rnd() % 2 ? perm[t] : -perm[t];
          a[r * k + g + t] = v;
          pruned[r * k + g + t] = perm[t] >= 3 ? v : 0;
        }
      }
    double *b = random_dense(k, n, 90), *c = random_dense(m, n, 50);
    void *av = vdense(dt, a, m * k), *bv = vdense(dt, b, k * n), *cv = vdense(dt, c, m * n);
    void *sa = calloc(1, 44104), *sb = calloc(1, 11032), *sc = calloc(1, 11032);
    mgpuCusparseLtCreate2To4SpMat(sa, m, k, av, dt, NULL);
    mgpuCreateCuSparseLtDnMat(sb, k, n, bv, dt, NULL);
    mgpuCreateCuSparseLtDnMat(sc, m, n, cv, dt, NULL);
    size_t sizes[3] = {7, 7, 7};
    mgpuCuSparseLtSpMMBufferSize(sizes, 0, 0, sa, sb, sc, 0, 2, NULL);
    CHECK(sizes[0] == 0 && sizes[1] == 0 && sizes[2] == 0, "2:4 buffer sizes");
    for (int64_t i = 0; i < m * k; i++)
      CHECK(vget(dt, av, i) == pruned[i], "2:4 prune dtype %d: A[%lld] = %g, want %g", dt,
            (long long)i, vget(dt, av, i), pruned[i]);
    mgpuCuSparseLtSpMM(sa, sb, sc, NULL, NULL, NULL, NULL);
    for (int64_t i = 0; i < m; i++)
      for (int64_t j = 0; j < n; j++) {
        double want = c[i * n + j];
        for (int64_t q = 0; q < k; q++)
          want += pruned[i * k + q] * b[q * n + j];
        CHECK(vget(dt, cv, i * n + j) == want, "2:4 spmm dtype %d: C[%lld][%lld] = %g, want %g",
              dt, (long long)i, (long long)j, vget(dt, cv, i * n + j), want);
      }
    mgpuDestroyCuSparseLtSpMat(sa, NULL);
    mgpuDestroyCuSparseLtDnMat(sb, NULL);
    mgpuDestroyCuSparseLtDnMat(sc, NULL);
    free(sa), free(sb), free(sc), free(av), free(bv), free(cv), free(b), free(c);
  }
}

/* ---- errors: reported, through the handler, naming what is wrong ---- */

static char last_error[1024];
static int errors_seen;
static void catch_error(const char *message, void *data) {
  (void)data;
  errors_seen++;
  snprintf(last_error, sizeof last_error, "%s", message);
}

static void expect_error(const char *want) {
  CHECK(errors_seen == 1 && strstr(last_error, want), "expected one error containing '%s', got %d: "
        "'%s'", want, errors_seen, last_error);
  errors_seen = 0;
  last_error[0] = '\0';
}

static void test_errors(void) {
  gpuccSetErrorHandler(catch_error, NULL);
  int32_t pos[3] = {0, 1, 2}, bad_col[2] = {0, 9};
  float vals[2] = {1, 2}, x[4] = {1, 1, 1, 1}, y[2] = {0, 0};
  void *a = mgpuCreateCsr(2, 4, 2, pos, bad_col, vals, I_32I, I_32I, R_32F, NULL);
  void *dx = mgpuCreateDnVec(4, x, R_32F, NULL), *dy = mgpuCreateDnVec(2, y, R_32F, NULL);
  CHECK(a && dx && dy && errors_seen == 0, "creating the operands: %s", last_error);
  mgpuSpMV(0, a, dx, dy, R_32F, NULL, NULL);
  expect_error("mgpuSpMV: A: CSR column of entry 1 is 9, outside 0..3 of a 2x4 matrix");
  CHECK(y[0] == 0 && y[1] == 0, "a failed SpMV wrote y");

  mgpuSpMV(1, a, dx, dy, R_32F, NULL, NULL); /* transposed: x must have 2 rows */
  expect_error("mgpuSpMV: gpu.spmv: op(A) times x does not fit y");

  mgpuSpMV(0, dx, dx, dy, R_32F, NULL, NULL);
  expect_error("is not a sparse matrix");

  int32_t bad_pos[3] = {0, 2, 1};
  void *b = mgpuCreateCsr(2, 4, 2, bad_pos, bad_col, vals, I_32I, I_32I, R_32F, NULL);
  mgpuSpMV(0, b, dx, dy, R_32F, NULL, NULL);
  expect_error("CSR offset 2 is 1 (after 2");
  mgpuDestroySpMat(b, NULL);

  CHECK(mgpuCreateCoo(2, 4, 2, pos, bad_col, vals, 7, R_32F, NULL) == NULL, "unknown index type");
  expect_error("mgpuCreateCoo: gpu.create_coo: unknown index type 7");
  CHECK(mgpuCreateDnVec(4, x, 4 /* complex<f32> */, NULL) == NULL, "complex on the CPU");
  expect_error("the host backend computes with f16, bf16, f32 and f64 tensors only, not complex<f32>");

  mgpuDestroyDnMat(dx, NULL);
  expect_error("is a dense vector, not a matrix");

  void *c = mgpuCreateCsr(2, 2, 0, pos, NULL, NULL, I_32I, I_32I, R_32F, NULL);
  void *desc = mgpuSpGEMMCreateDescr(NULL);
  mgpuSpGEMMCopy(desc, 0, 0, c, c, c, R_32F, NULL);
  expect_error("mgpuSpGEMMCopy: no product to copy");
  mgpuSpGEMMDestroyDescr(desc, NULL);
  mgpuSpGEMMDestroyDescr(desc, NULL);
  expect_error("is not an SpGEMM descriptor");

  mgpuDestroySpMat(c, NULL);
  mgpuDestroySpMat(a, NULL);
  mgpuDestroyDnVec(dx, NULL);
  mgpuDestroyDnVec(dy, NULL);
  CHECK(errors_seen == 0, "unexpected error: %s", last_error);
  gpuccSetErrorHandler(NULL, NULL);
}

/* On a GPU backend whose sparse libraries are missing, the first op of
 * each library says which library, which op, and where it looked. */
static int test_missing_library(void) {
  gpuccSetErrorHandler(catch_error, NULL);
  float x[2] = {1, 2};
  CHECK(mgpuCreateDnVec(2, x, R_32F, NULL) == NULL, "a vector without cuSPARSE");
  expect_error("mgpuCreateDnVec: gpu.create_dn_tensor needs cuSPARSE, which could not be loaded: "
               "/nonexistent/libcusparse.so.12 not found (from GPUCC_CUSPARSE_LIBRARY)");
  char storage[11032];
  mgpuCreateCuSparseLtDnMat(storage, 1, 2, x, R_32F, NULL);
  expect_error("mgpuCreateCuSparseLtDnMat: gpu.create_dn_tensor needs cuSPARSELt, which could not "
               "be loaded");
  CHECK(gpuccBackendName() && strcmp(gpuccBackendName(), "cuda") == 0, "backend %s",
        gpuccBackendName() ? gpuccBackendName() : "(none)");
  return failures ? 1 : (printf("ok\n"), 0);
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "missing-library") == 0)
    return test_missing_library();
  test_spmv();
  test_spmm();
  test_sddmm();
  test_spgemm();
  test_2to4();
  test_errors();
  CHECK(gpuccBackendName() && strcmp(gpuccBackendName(), "host") == 0, "backend %s",
        gpuccBackendName() ? gpuccBackendName() : "(none)");
  if (failures) {
    printf("%d failures\n", failures);
    return 1;
  }
  printf("ok\n");
  return 0;
}
