/* cpu_backend.c: the sparse row of the host backend.
 *
 * On the host backend "device" memory is host memory, so the program's
 * arrays are read and written directly. Each computation converts its
 * operands to doubles (cpu_expand.c for sparse ones), runs the kernel of
 * cpu_kernels.c, and stores the results back in the output's own type.
 *
 * Ordering: the host backend queues copies and launches on a stream and
 * runs them on another thread. A sparse op issued on that stream must see
 * what was queued before it, so it first waits for the stream, then
 * computes in the calling thread; what the program queues after it starts
 * only once it has returned. That is the order a GPU library call on the
 * same stream would give.
 *
 * Buffers: the CPU needs no work buffer, so every buffer size is 0 (a
 * gpu.alloc of 0 bytes is NULL, which these functions never touch). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sparse.h"

static int cpu_start(const char *op, struct rt_err *e) {
  (void)op;
  (void)e;
  return 0;
}

static int check_type(int dtype, const char *what, struct rt_err *e) {
  if (sp_cpu_value_type(dtype))
    return 0;
  char buf[32];
  return rt_fail_msg(e, "the host backend computes with f16, bf16, f32 and f64 %s only, not %s",
                     what, sp_value_name(dtype, buf, sizeof buf));
}

static int cpu_matrix_create(struct sp_matrix *m, struct rt_err *e) {
  return check_type(m->dtype, "matrices", e);
}

static int cpu_dense_create(struct sp_dense *d, struct rt_err *e) {
  return check_type(d->dtype, "tensors", e);
}

static int cpu_nothing_matrix(struct sp_matrix *m, struct rt_err *e) {
  (void)m;
  (void)e;
  return 0;
}

static int cpu_nothing_dense(struct sp_dense *d, struct rt_err *e) {
  (void)d;
  (void)e;
  return 0;
}

static int cpu_matrix_size(struct sp_matrix *m, int64_t out[3], struct rt_err *e) {
  (void)e;
  out[0] = m->rows;
  out[1] = m->cols;
  out[2] = m->nnz;
  return 0;
}

static int cpu_spgemm_create(struct sp_spgemm *g, struct rt_err *e) {
  (void)g;
  (void)e;
  return 0;
}

static int cpu_spgemm_destroy(struct sp_spgemm *g, struct rt_err *e) {
  (void)e;
  free(g->pos);
  free(g->idx);
  free(g->vals);
  return 0;
}

static int cpu_buffer_size(const struct sp_op *op, size_t *bytes, struct rt_err *e) {
  (void)op;
  (void)e;
  *bytes = 0;
  return 0;
}

/* Waits for what the program queued on the stream before this op. */
static int wait_stream(void *stream, struct rt_err *e) {
  const struct rt_backend *b = rt_backend_peek();
  return stream && b ? b->stream_synchronize(stream, e) : 0;
}

/* A dense operand as doubles (malloc'ed), or NULL after setting e. */
static double *dense_read(const struct sp_dense *d, struct rt_err *e) {
  int64_t n = d->rows * d->cols;
  double *v = malloc((size_t)(n > 0 ? n : 1) * sizeof *v);
  if (!v) {
    rt_fail_msg(e, "out of memory for a %" PRId64 "x%" PRId64 " dense operand", d->rows, d->cols);
    return NULL;
  }
  for (int64_t i = 0; i < n; i++)
    v[i] = sp_load(d->dtype, d->vals, i);
  return v;
}

static void dense_write(const struct sp_dense *d, const double *v) {
  int64_t n = d->rows * d->cols;
  for (int64_t i = 0; i < n; i++)
    sp_store(d->dtype, d->vals, i, v[i]);
}

static int entries_read(const struct sp_matrix *m, const char *what, struct sp_entries *out,
                        struct rt_err *e) {
  char why[512];
  if (sp_entries_read(m, out, why, sizeof why) == 0)
    return 0;
  return rt_fail_msg(e, "%s: %s", what, why);
}

static int run_spmv(const struct sp_op *op, struct rt_err *e) {
  struct sp_entries a;
  if (entries_read(op->sa, "A", &a, e) != 0)
    return -1;
  double *x = dense_read(op->db, e), *y = x ? dense_read(op->dc, e) : NULL;
  int rc = -1;
  if (y) {
    sp_cpu_spmv(&a, op->mode_a != SP_OP_NON_TRANSPOSE, x, y);
    dense_write(op->dc, y);
    rc = 0;
  }
  free(x);
  free(y);
  sp_entries_free(&a);
  return rc;
}

static int run_spmm(const struct sp_op *op, struct rt_err *e) {
  struct sp_entries a;
  if (entries_read(op->sa, "A", &a, e) != 0)
    return -1;
  double *b = dense_read(op->db, e), *c = b ? dense_read(op->dc, e) : NULL;
  int rc = -1;
  if (c) {
    sp_cpu_spmm(&a, op->mode_a != SP_OP_NON_TRANSPOSE, b, op->db->cols,
                op->mode_b != SP_OP_NON_TRANSPOSE, c, op->dc->cols);
    dense_write(op->dc, c);
    rc = 0;
  }
  free(b);
  free(c);
  sp_entries_free(&a);
  return rc;
}

static int run_sddmm(const struct sp_op *op, struct rt_err *e) {
  struct sp_entries c;
  if (entries_read(op->sc_sparse, "C", &c, e) != 0)
    return -1;
  double *a = dense_read(op->da, e), *b = a ? dense_read(op->db, e) : NULL;
  int rc = -1;
  if (b) {
    int ta = op->mode_a != SP_OP_NON_TRANSPOSE;
    int64_t k = ta ? op->da->rows : op->da->cols;
    sp_cpu_sddmm(a, op->da->cols, ta, b, op->db->cols, op->mode_b != SP_OP_NON_TRANSPOSE, k, &c,
                 c.val);
    for (int64_t i = 0; i < c.count; i++)
      sp_store(op->sc_sparse->dtype, op->sc_sparse->vals, i, c.val[i]);
    rc = 0;
  }
  free(a);
  free(b);
  sp_entries_free(&c);
  return rc;
}

/* The compute step makes the product; C then reports its size, and the
 * copy step writes it into the arrays gpu.set_csr_pointers gave C. */
static int run_spgemm_compute(const struct sp_op *op, struct rt_err *e) {
  struct sp_entries a, b;
  if (entries_read(op->sa, "A", &a, e) != 0)
    return -1;
  if (entries_read(op->sb_sparse, "B", &b, e) != 0) {
    sp_entries_free(&a);
    return -1;
  }
  int rc = sp_cpu_spgemm(&a, op->mode_a != SP_OP_NON_TRANSPOSE, &b,
                         op->mode_b != SP_OP_NON_TRANSPOSE, op->spgemm);
  sp_entries_free(&a);
  sp_entries_free(&b);
  if (rc != 0)
    return rt_fail_msg(e, "out of memory computing the product");
  op->spgemm->computed = 1;
  op->sc_sparse->nnz = op->spgemm->nnz;
  return 0;
}

static int run_spgemm_copy(const struct sp_op *op, struct rt_err *e) {
  struct sp_spgemm *g = op->spgemm;
  struct sp_matrix *c = op->sc_sparse;
  if (!g->computed)
    return rt_fail_msg(e, "no product to copy: gpu.spgemm_work_estimation_or_compute {COMPUTE} "
                          "did not run on this descriptor");
  if (c->nnz != g->nnz || c->rows != g->rows)
    return rt_fail_msg(e, "C (%" PRId64 " rows, %" PRId64 " entries) is not the matrix the "
                       "product (%" PRId64 " rows, %" PRId64 " entries) was computed for",
                       c->rows, c->nnz, g->rows, g->nnz);
  if (!c->pos || (g->nnz > 0 && (!c->idx || !c->vals)))
    return rt_fail_msg(e, "C has no arrays for the product (gpu.set_csr_pointers first)");
  for (int64_t i = 0; i <= g->rows; i++)
    sp_index_store(c->ptype, c->pos, i, g->pos[i]);
  for (int64_t k = 0; k < g->nnz; k++) {
    sp_index_store(c->itype, c->idx, k, g->idx[k]);
    sp_store(c->dtype, c->vals, k, g->vals[k]);
  }
  return 0;
}

static int cpu_run(const struct sp_op *op, size_t *bytes, struct rt_err *e) {
  if (wait_stream(op->stream, e) != 0)
    return -1;
  switch (op->kind) {
  case SP_SPMV:
    return run_spmv(op, e);
  case SP_SPMM:
    return run_spmm(op, e);
  case SP_SDDMM:
    return run_sddmm(op, e);
  case SP_SPGEMM_ESTIMATE:
    *bytes = 0;
    return 0;
  case SP_SPGEMM_COMPUTE:
    *bytes = 0;
    return run_spgemm_compute(op, e);
  case SP_SPGEMM_COPY:
    return run_spgemm_copy(op, e);
  }
  return 0;
}

const struct sp_backend sp_backend_cpu = {
    .label = "the CPU",
    .start = cpu_start,
    .matrix_create = cpu_matrix_create,
    .matrix_destroy = cpu_nothing_matrix,
    .dense_create = cpu_dense_create,
    .dense_destroy = cpu_nothing_dense,
    .matrix_size = cpu_matrix_size,
    .set_csr_pointers = cpu_nothing_matrix,
    .spgemm_create = cpu_spgemm_create,
    .spgemm_destroy = cpu_spgemm_destroy,
    .buffer_size = cpu_buffer_size,
    .run = cpu_run,
    .stop = NULL,
};
