/* cpu_lt.c: 2:4 structured sparsity (the cuSPARSELt functions) on the CPU.
 *
 * cuSPARSELt multiplies a matrix that has at most 2 nonzeros in each group
 * of 4 consecutive elements of a row, compressed to its kept values. The
 * product of that compressed matrix is the product of the dense matrix
 * holding the kept values and zeros, so the CPU keeps A dense and computes
 * C = op(A) op(B) + C with A's values as they are after pruning.
 *
 * Pruning (prune flag 1 or 2 of the plan step) happens in place in A's
 * array, as cuSPARSELt's does, so the program sees the pruned matrix: in
 * each group of 4 the two values of largest magnitude stay (the first on
 * ties; cuSPARSELt's tie order is not documented). A matrix that was not
 * pruned and is not 2:4 gets a warning at the multiplication: a GPU would
 * compute with a compressed copy that cannot hold it, the CPU with every
 * value.
 *
 * The handles are the program's storage (sparse.h); a struct of this file
 * is laid out at its start, with a magic number so that a dense handle
 * passed for a sparse one is reported. */
#include <inttypes.h>
#include <stdlib.h>

#include "sparse.h"

enum { LT_MAGIC_DENSE = 0x4c54444eu, LT_MAGIC_SPARSE = 0x4c545350u };

struct lt_matrix {
  uint32_t magic;
  int dtype;
  int64_t rows, cols;
  void *vals;
  /* sparse only, set by the plan step */
  int planned, pruned, mode_a, mode_b;
};

_Static_assert(sizeof(struct lt_matrix) <= SP_LT_DNMAT_BYTES, "fits the dense handle storage");

static int lt_start(const char *op, struct rt_err *e) {
  (void)op;
  (void)e;
  return 0;
}

static int lt_create(void *storage, uint32_t magic, int64_t rows, int64_t cols, void *vals,
                     int dtype, struct rt_err *e) {
  if (!sp_cpu_value_type(dtype)) {
    char buf[32];
    return rt_fail_msg(e, "the host backend computes with f16, bf16, f32 and f64 matrices only, "
                          "not %s", sp_value_name(dtype, buf, sizeof buf));
  }
  *(struct lt_matrix *)storage = (struct lt_matrix){
      .magic = magic, .dtype = dtype, .rows = rows, .cols = cols, .vals = vals};
  return 0;
}

static int lt_dense_create(void *storage, int64_t rows, int64_t cols, void *vals, int dtype,
                           struct rt_err *e) {
  return lt_create(storage, LT_MAGIC_DENSE, rows, cols, vals, dtype, e);
}

static int lt_sparse_create(void *storage, int64_t rows, int64_t cols, void *vals, int dtype,
                            struct rt_err *e) {
  return lt_create(storage, LT_MAGIC_SPARSE, rows, cols, vals, dtype, e);
}

static struct lt_matrix *lt_of(void *storage, uint32_t magic, const char *what,
                               struct rt_err *e) {
  struct lt_matrix *m = storage;
  if (m && m->magic == magic)
    return m;
  rt_fail_msg(e, "%s is not a %s made by gpu.create_%s (or was destroyed)", what,
              magic == LT_MAGIC_SPARSE ? "2:4 sparse matrix" : "dense matrix",
              magic == LT_MAGIC_SPARSE ? "2to4_spmat" : "dn_tensor");
  return NULL;
}

static int lt_destroy(void *storage, uint32_t magic, struct rt_err *e) {
  struct lt_matrix *m = lt_of(storage, magic, "the handle", e);
  if (!m)
    return -1;
  m->magic = 0;
  return 0;
}

static int lt_dense_destroy(void *storage, struct rt_err *e) {
  return lt_destroy(storage, LT_MAGIC_DENSE, e);
}

static int lt_sparse_destroy(void *storage, struct rt_err *e) {
  return lt_destroy(storage, LT_MAGIC_SPARSE, e);
}

static double *lt_read(const struct lt_matrix *m, struct rt_err *e) {
  int64_t n = m->rows * m->cols;
  double *v = malloc((size_t)(n > 0 ? n : 1) * sizeof *v);
  if (!v) {
    rt_fail_msg(e, "out of memory for a %" PRId64 "x%" PRId64 " matrix", m->rows, m->cols);
    return NULL;
  }
  for (int64_t i = 0; i < n; i++)
    v[i] = sp_load(m->dtype, m->vals, i);
  return v;
}

static void lt_write(const struct lt_matrix *m, const double *v) {
  for (int64_t i = 0; i < m->rows * m->cols; i++)
    sp_store(m->dtype, m->vals, i, v[i]);
}

static int wait_stream(void *stream, struct rt_err *e) {
  const struct rt_backend *b = rt_backend_peek();
  return stream && b ? b->stream_synchronize(stream, e) : 0;
}

static int lt_spmm_plan(size_t sizes[3], int mode_a, int mode_b, void *a, void *b, void *c,
                        int compute_type, int prune, void *stream, struct rt_err *e) {
  (void)compute_type; /* the CPU computes in double */
  struct lt_matrix *ma = lt_of(a, LT_MAGIC_SPARSE, "A", e), *mb, *mc;
  if (!ma || !(mb = lt_of(b, LT_MAGIC_DENSE, "B", e)) || !(mc = lt_of(c, LT_MAGIC_DENSE, "C", e)))
    return -1;
  int64_t ar = mode_a ? ma->cols : ma->rows, ac = mode_a ? ma->rows : ma->cols;
  int64_t br = mode_b ? mb->cols : mb->rows, bc = mode_b ? mb->rows : mb->cols;
  if (ac != br || mc->rows != ar || mc->cols != bc)
    return rt_fail_msg(e, "shapes do not fit C = op(A) op(B) + C: op(A) %" PRId64 "x%" PRId64
                       ", op(B) %" PRId64 "x%" PRId64 ", C %" PRId64 "x%" PRId64, ar, ac, br, bc,
                       mc->rows, mc->cols);
  if (prune < 0 || prune > 2)
    return rt_fail_msg(e, "unknown prune flag %d (0, 1 or 2)", prune);
  if (wait_stream(stream, e) != 0)
    return -1;
  if (prune > 0) {
    double *v = lt_read(ma, e);
    if (!v)
      return -1;
    sp_cpu_prune_2to4(v, ma->rows, ma->cols);
    /* the check (flag 2) cannot fail after this pruning; done anyway, so
     * that a bug here shows as upstream's warning rather than silently */
    if (prune == 2 && !sp_cpu_is_2to4(v, ma->rows, ma->cols))
      rt_warning("the sparse matrix is not 2:4 after pruning; results will be wrong");
    lt_write(ma, v);
    free(v);
  }
  ma->planned = 1;
  ma->pruned = prune > 0;
  ma->mode_a = mode_a;
  ma->mode_b = mode_b;
  sizes[0] = sizes[1] = sizes[2] = 0;
  return 0;
}

static int lt_spmm(void *a, void *b, void *c, void *workspace, void *compressed,
                   void *compress_buffer, void *stream, struct rt_err *e) {
  (void)workspace;
  (void)compressed;
  (void)compress_buffer;
  struct lt_matrix *ma = lt_of(a, LT_MAGIC_SPARSE, "A", e), *mb, *mc;
  if (!ma || !(mb = lt_of(b, LT_MAGIC_DENSE, "B", e)) || !(mc = lt_of(c, LT_MAGIC_DENSE, "C", e)))
    return -1;
  if (!ma->planned)
    return rt_fail_msg(e, "A has no plan: gpu.spmm_buffer_size did not run on it");
  if (wait_stream(stream, e) != 0)
    return -1;
  double *va = lt_read(ma, e), *vb = va ? lt_read(mb, e) : NULL, *vc = vb ? lt_read(mc, e) : NULL;
  if (!vc) {
    free(va);
    free(vb);
    return -1;
  }
  if (!ma->pruned && !sp_cpu_is_2to4(va, ma->rows, ma->cols))
    rt_warning("mgpuCuSparseLtSpMM: the sparse matrix is not 2:4 and was not pruned; a GPU "
               "computes with a compressed copy that cannot hold it, the CPU with every value");
  /* A as entries: the dense kernel of cpu_kernels.c does the rest */
  int64_t n = ma->rows * ma->cols;
  struct sp_entries ea = {.rows = ma->rows, .cols = ma->cols, .count = 0};
  ea.row = malloc((size_t)(n > 0 ? n : 1) * sizeof *ea.row);
  ea.col = malloc((size_t)(n > 0 ? n : 1) * sizeof *ea.col);
  ea.val = malloc((size_t)(n > 0 ? n : 1) * sizeof *ea.val);
  int rc = -1;
  if (ea.row && ea.col && ea.val) {
    for (int64_t i = 0; i < n; i++)
      if (va[i] != 0) {
        ea.row[ea.count] = i / ma->cols;
        ea.col[ea.count] = i % ma->cols;
        ea.val[ea.count++] = va[i];
      }
    sp_cpu_spmm(&ea, ma->mode_a != SP_OP_NON_TRANSPOSE, vb, mb->cols,
                ma->mode_b != SP_OP_NON_TRANSPOSE, vc, mc->cols);
    lt_write(mc, vc);
    rc = 0;
  } else {
    rt_fail_msg(e, "out of memory");
  }
  sp_entries_free(&ea);
  free(va);
  free(vb);
  free(vc);
  return rc;
}

const struct sp_lt_backend sp_lt_backend_cpu = {
    .label = "the CPU",
    .start = lt_start,
    .stop = NULL,
    .dense_create = lt_dense_create,
    .sparse_create = lt_sparse_create,
    .dense_destroy = lt_dense_destroy,
    .sparse_destroy = lt_sparse_destroy,
    .spmm_plan = lt_spmm_plan,
    .spmm = lt_spmm,
};
