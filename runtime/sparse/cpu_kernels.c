/* cpu_kernels.c: SpMV, SpMM, SDDMM, SpGEMM and 2:4 pruning on the CPU.
 *
 * Pure functions over doubles and the entry lists of cpu_expand.c; the
 * host row (cpu_backend.c) converts the program's arrays in and out. They
 * run in the calling thread: the host backend's sparse calls are library
 * calls of the host program, like cuSPARSE's, not kernels, and their sizes
 * in tests and examples do not call for the worker pool.
 *
 * A transposed operand is read in place (sp_dense_at, or an entry's row and
 * column swapped), never copied. For real types the conjugate transpose is
 * the transpose. */
#include <stdlib.h>
#include <string.h>

#include "sparse.h"

void sp_cpu_spmv(const struct sp_entries *a, int trans, const double *x, double *y) {
  for (int64_t k = 0; k < a->count; k++) {
    int64_t r = trans ? a->col[k] : a->row[k], c = trans ? a->row[k] : a->col[k];
    y[r] += a->val[k] * x[c];
  }
}

void sp_cpu_spmm(const struct sp_entries *a, int trans_a, const double *b, int64_t bcols,
                 int trans_b, double *c, int64_t n) {
  for (int64_t k = 0; k < a->count; k++) {
    int64_t r = trans_a ? a->col[k] : a->row[k], m = trans_a ? a->row[k] : a->col[k];
    double v = a->val[k];
    double *crow = c + r * n;
    if (!trans_b) {
      const double *brow = b + m * bcols; /* contiguous: the loop vectorizes */
      for (int64_t j = 0; j < n; j++)
        crow[j] += v * brow[j];
    } else {
      for (int64_t j = 0; j < n; j++)
        crow[j] += v * b[j * bcols + m];
    }
  }
}

void sp_cpu_sddmm(const double *a, int64_t acols, int trans_a, const double *b, int64_t bcols,
                  int trans_b, int64_t k, const struct sp_entries *c, double *vals) {
  for (int64_t e = 0; e < c->count; e++) {
    int64_t r = c->row[e], col = c->col[e];
    double sum = 0;
    for (int64_t t = 0; t < k; t++)
      sum += sp_dense_at(a, acols, trans_a, r, t) * sp_dense_at(b, bcols, trans_b, t, col);
    vals[e] += sum;
  }
}

/* The rows of op(M) as CSR over M's entries: for each row of op(M), the
 * entry numbers in it, in storage order. */
struct rows_of {
  int64_t *start; /* rows + 1 */
  int64_t *entry;
};

static int rows_of_make(const struct sp_entries *m, int trans, int64_t rows, struct rows_of *out) {
  out->start = calloc((size_t)rows + 1, sizeof *out->start);
  out->entry = malloc((size_t)(m->count > 0 ? m->count : 1) * sizeof *out->entry);
  if (!out->start || !out->entry)
    return -1;
  for (int64_t k = 0; k < m->count; k++)
    out->start[(trans ? m->col[k] : m->row[k]) + 1]++;
  for (int64_t r = 0; r < rows; r++)
    out->start[r + 1] += out->start[r];
  int64_t *fill = malloc(((size_t)rows + 1) * sizeof *fill);
  if (!fill)
    return -1;
  memcpy(fill, out->start, ((size_t)rows + 1) * sizeof *fill);
  for (int64_t k = 0; k < m->count; k++)
    out->entry[fill[trans ? m->col[k] : m->row[k]]++] = k;
  free(fill);
  return 0;
}

static void rows_of_free(struct rows_of *r) {
  free(r->start);
  free(r->entry);
}

/* Gustavson's algorithm, twice over the rows: once to count each row's
 * distinct columns (the structure), once to fill them. A dense marker per
 * column of the result finds repeats in O(1); each row's columns are then
 * sorted, as cuSPARSE's result is. */
static int cmp_i64(const void *x, const void *y) {
  int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
  return (a > b) - (a < b);
}

int sp_cpu_spgemm(const struct sp_entries *a, int trans_a, const struct sp_entries *b,
                  int trans_b, struct sp_spgemm *c) {
  int64_t rows = trans_a ? a->cols : a->rows, inner = trans_a ? a->rows : a->cols;
  int64_t cols = trans_b ? b->rows : b->cols;
  struct rows_of ar = {0}, br = {0};
  int64_t *mark = NULL, *pos = NULL, *idx = NULL;
  double *acc = NULL, *vals = NULL;
  int rc = -1;
  if (rows_of_make(a, trans_a, rows, &ar) != 0 || rows_of_make(b, trans_b, inner, &br) != 0)
    goto out;
  mark = malloc(((size_t)cols + 1) * sizeof *mark);
  acc = calloc((size_t)cols + 1, sizeof *acc);
  pos = calloc((size_t)rows + 1, sizeof *pos);
  if (!mark || !acc || !pos)
    goto out;
  for (int64_t j = 0; j < cols; j++)
    mark[j] = -1;

  for (int64_t i = 0; i < rows; i++) {
    int64_t n = 0;
    for (int64_t p = ar.start[i]; p < ar.start[i + 1]; p++) {
      int64_t ka = ar.entry[p], m = trans_a ? a->row[ka] : a->col[ka];
      for (int64_t q = br.start[m]; q < br.start[m + 1]; q++) {
        int64_t kb = br.entry[q], j = trans_b ? b->row[kb] : b->col[kb];
        if (mark[j] != i) {
          mark[j] = i;
          n++;
        }
      }
    }
    pos[i + 1] = pos[i] + n;
  }

  int64_t nnz = pos[rows];
  idx = malloc((size_t)(nnz > 0 ? nnz : 1) * sizeof *idx);
  vals = malloc((size_t)(nnz > 0 ? nnz : 1) * sizeof *vals);
  if (!idx || !vals)
    goto out;
  for (int64_t j = 0; j < cols; j++)
    mark[j] = -1;
  for (int64_t i = 0; i < rows; i++) {
    int64_t *row = idx + pos[i], n = 0;
    for (int64_t p = ar.start[i]; p < ar.start[i + 1]; p++) {
      int64_t ka = ar.entry[p], m = trans_a ? a->row[ka] : a->col[ka];
      for (int64_t q = br.start[m]; q < br.start[m + 1]; q++) {
        int64_t kb = br.entry[q], j = trans_b ? b->row[kb] : b->col[kb];
        if (mark[j] != i) {
          mark[j] = i;
          acc[j] = 0;
          row[n++] = j;
        }
        acc[j] += a->val[ka] * b->val[kb];
      }
    }
    qsort(row, (size_t)n, sizeof *row, cmp_i64);
    for (int64_t t = 0; t < n; t++)
      vals[pos[i] + t] = acc[row[t]];
  }

  free(c->pos);
  free(c->idx);
  free(c->vals);
  c->rows = rows;
  c->cols = cols;
  c->nnz = nnz;
  c->pos = pos;
  c->idx = idx;
  c->vals = vals;
  pos = idx = NULL;
  vals = NULL;
  rc = 0;
out:
  rows_of_free(&ar);
  rows_of_free(&br);
  free(mark);
  free(acc);
  free(pos);
  free(idx);
  free(vals);
  return rc;
}

void sp_cpu_prune_2to4(double *m, int64_t rows, int64_t cols) {
  for (int64_t r = 0; r < rows; r++) {
    for (int64_t g = 0; g < cols; g += 4) {
      double *v = m + r * cols + g;
      int64_t n = cols - g < 4 ? cols - g : 4;
      /* the two largest magnitudes; strict > keeps the first on ties */
      int64_t first = -1, second = -1;
      for (int64_t t = 0; t < n; t++) {
        double x = v[t] < 0 ? -v[t] : v[t];
        if (first < 0 || x > (v[first] < 0 ? -v[first] : v[first])) {
          second = first;
          first = t;
        } else if (second < 0 || x > (v[second] < 0 ? -v[second] : v[second])) {
          second = t;
        }
      }
      for (int64_t t = 0; t < n; t++)
        if (t != first && t != second)
          v[t] = 0;
    }
  }
}

int sp_cpu_is_2to4(const double *m, int64_t rows, int64_t cols) {
  for (int64_t r = 0; r < rows; r++)
    for (int64_t g = 0; g < cols; g += 4) {
      int nonzero = 0;
      for (int64_t t = g; t < g + 4 && t < cols; t++)
        nonzero += m[r * cols + t] != 0;
      if (nonzero > 2)
        return 0;
    }
  return 1;
}
