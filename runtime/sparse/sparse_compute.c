/* sparse_compute.c: SpMV, SpMM, SDDMM and SpGEMM, with their buffer-size
 * queries.
 *
 * Shapes are checked here for every backend, so that a mismatch is one
 * line naming the op and both shapes rather than a library status code
 * (or, on the CPU, a read past an array). Each op then goes to the sparse
 * row of the backend in use, with the stream it was issued on. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "sparse.h"

/* The shape of op(M) in elements (BSR counts blocks). */
static void sparse_shape(const struct sp_matrix *m, int trans, int64_t *rows, int64_t *cols) {
  int64_t r = m->format == SP_BSR ? m->rows * m->rblock : m->rows;
  int64_t c = m->format == SP_BSR ? m->cols * m->cblock : m->cols;
  *rows = trans ? c : r;
  *cols = trans ? r : c;
}

static void dense_shape(const struct sp_dense *d, int trans, int64_t *rows, int64_t *cols) {
  *rows = trans ? d->cols : d->rows;
  *cols = trans ? d->rows : d->cols;
}

static int check_mode(const char *fn, const char *op, const char *which, int32_t mode) {
  if (mode >= SP_OP_NON_TRANSPOSE && mode <= SP_OP_CONJUGATE_TRANSPOSE)
    return 0;
  rt_error("%s: %s: unknown operation mode %d for %s", fn, op, mode, which);
  return -1;
}

static int mismatch(const char *fn, const char *op, const char *what, int64_t r1, int64_t c1,
                    int64_t r2, int64_t c2) {
  rt_error("%s: %s: %s (%" PRId64 "x%" PRId64 " and %" PRId64 "x%" PRId64 ")", fn, op, what, r1,
           c1, r2, c2);
  return -1;
}

/* Resolves the handles of op and checks its shapes. */
static int prepare(const char *fn, struct sp_op *op, void *a, void *b, void *c) {
  if (check_mode(fn, op->name, "A", op->mode_a) != 0 || check_mode(fn, op->name, "B", op->mode_b) != 0)
    return -1;
  int ta = op->mode_a != SP_OP_NON_TRANSPOSE, tb = op->mode_b != SP_OP_NON_TRANSPOSE;
  int64_t ar, ac, br, bc, cr, cc;
  switch (op->kind) {
  case SP_SPMV:
    if (!(op->sa = sp_matrix_of(fn, "A", a)) || !(op->db = sp_dense_of(fn, "x", b)) ||
        !(op->dc = sp_dense_of(fn, "y", c)))
      return -1;
    sparse_shape(op->sa, ta, &ar, &ac);
    if (op->db->rank != 1 || op->dc->rank != 1)
      return rt_error("%s: %s: x and y must be vectors", fn, op->name), -1;
    if (op->db->rows != ac || op->dc->rows != ar)
      return mismatch(fn, op->name, "op(A) times x does not fit y: op(A) is", ar, ac,
                      op->db->rows, op->dc->rows);
    return 0;
  case SP_SPMM:
    if (!(op->sa = sp_matrix_of(fn, "A", a)) || !(op->db = sp_dense_of(fn, "B", b)) ||
        !(op->dc = sp_dense_of(fn, "C", c)))
      return -1;
    sparse_shape(op->sa, ta, &ar, &ac);
    dense_shape(op->db, tb, &br, &bc);
    if (ac != br)
      return mismatch(fn, op->name, "op(A) and op(B) do not multiply", ar, ac, br, bc);
    if (op->dc->rows != ar || op->dc->cols != bc)
      return mismatch(fn, op->name, "C does not have the shape of op(A) op(B)", op->dc->rows,
                      op->dc->cols, ar, bc);
    return 0;
  case SP_SDDMM:
    if (!(op->da = sp_dense_of(fn, "A", a)) || !(op->db = sp_dense_of(fn, "B", b)) ||
        !(op->sc_sparse = sp_matrix_of(fn, "C", c)))
      return -1;
    dense_shape(op->da, ta, &ar, &ac);
    dense_shape(op->db, tb, &br, &bc);
    sparse_shape(op->sc_sparse, 0, &cr, &cc);
    if (ac != br)
      return mismatch(fn, op->name, "op(A) and op(B) do not multiply", ar, ac, br, bc);
    if (cr != ar || cc != bc)
      return mismatch(fn, op->name, "C does not have the shape of op(A) op(B)", cr, cc, ar, bc);
    return 0;
  default: /* the SpGEMM steps */
    if (!(op->sa = sp_matrix_of(fn, "A", a)) || !(op->sb_sparse = sp_matrix_of(fn, "B", b)) ||
        !(op->sc_sparse = sp_matrix_of(fn, "C", c)))
      return -1;
    sparse_shape(op->sa, ta, &ar, &ac);
    sparse_shape(op->sb_sparse, tb, &br, &bc);
    sparse_shape(op->sc_sparse, 0, &cr, &cc);
    if (ac != br)
      return mismatch(fn, op->name, "op(A) and op(B) do not multiply", ar, ac, br, bc);
    if (cr != ar || cc != bc)
      return mismatch(fn, op->name, "C does not have the shape of op(A) op(B)", cr, cc, ar, bc);
    if (op->sc_sparse->format != SP_CSR)
      return rt_error("%s: %s: C must be CSR, not %s", fn, op->name,
                      sp_format_name(op->sc_sparse->format)), -1;
    return 0;
  }
}

static intptr_t buffer_size(const char *fn, struct sp_op op, void *a, void *b, void *c) {
  if (prepare(fn, &op, a, b, c) != 0)
    return 0;
  const struct sp_backend *s = sp_get(fn, op.name);
  if (!s)
    return 0;
  size_t bytes = 0;
  struct rt_err e;
  if (s->buffer_size(&op, &bytes, &e) != 0) {
    sp_report(fn, &e);
    return 0;
  }
  return (intptr_t)bytes;
}

static intptr_t run(const char *fn, struct sp_op op, void *a, void *b, void *c) {
  if (prepare(fn, &op, a, b, c) != 0)
    return 0;
  const struct sp_backend *s = sp_get(fn, op.name);
  if (!s)
    return 0;
  size_t bytes = op.buffer_size;
  struct rt_err e;
  if (s->run(&op, &bytes, &e) != 0) {
    sp_report(fn, &e);
    return 0;
  }
  return (intptr_t)bytes;
}

RT_EXPORT intptr_t mgpuSpMVBufferSize(int32_t ma, void *a, void *x, void *y, int32_t ctp,
                                      void *stream) {
  return buffer_size("mgpuSpMVBufferSize",
                     (struct sp_op){.kind = SP_SPMV, .name = "gpu.spmv_buffer_size", .mode_a = ma,
                                    .compute_type = ctp, .stream = stream},
                     a, x, y);
}

RT_EXPORT void mgpuSpMV(int32_t ma, void *a, void *x, void *y, int32_t ctp, void *buf,
                        void *stream) {
  run("mgpuSpMV",
      (struct sp_op){.kind = SP_SPMV, .name = "gpu.spmv", .mode_a = ma, .compute_type = ctp,
                     .buffer = buf, .stream = stream},
      a, x, y);
}

RT_EXPORT intptr_t mgpuSpMMBufferSize(int32_t ma, int32_t mb, void *a, void *b, void *c,
                                      int32_t ctp, void *stream) {
  return buffer_size("mgpuSpMMBufferSize",
                     (struct sp_op){.kind = SP_SPMM, .name = "gpu.spmm_buffer_size", .mode_a = ma,
                                    .mode_b = mb, .compute_type = ctp, .stream = stream},
                     a, b, c);
}

RT_EXPORT void mgpuSpMM(int32_t ma, int32_t mb, void *a, void *b, void *c, int32_t ctp,
                        void *buf, void *stream) {
  run("mgpuSpMM",
      (struct sp_op){.kind = SP_SPMM, .name = "gpu.spmm", .mode_a = ma, .mode_b = mb,
                     .compute_type = ctp, .buffer = buf, .stream = stream},
      a, b, c);
}

RT_EXPORT intptr_t mgpuSDDMMBufferSize(int32_t ma, int32_t mb, void *a, void *b, void *c,
                                       int32_t ctp, void *stream) {
  return buffer_size("mgpuSDDMMBufferSize",
                     (struct sp_op){.kind = SP_SDDMM, .name = "gpu.sddmm_buffer_size",
                                    .mode_a = ma, .mode_b = mb, .compute_type = ctp,
                                    .stream = stream},
                     a, b, c);
}

RT_EXPORT void mgpuSDDMM(int32_t ma, int32_t mb, void *a, void *b, void *c, int32_t ctp,
                         void *buf, void *stream) {
  run("mgpuSDDMM",
      (struct sp_op){.kind = SP_SDDMM, .name = "gpu.sddmm", .mode_a = ma, .mode_b = mb,
                     .compute_type = ctp, .buffer = buf, .stream = stream},
      a, b, c);
}

/* ---- SpGEMM: descriptor, work estimation, compute, copy ---- */

RT_EXPORT void *mgpuSpGEMMCreateDescr(void *stream) {
  static const char fn[] = "mgpuSpGEMMCreateDescr";
  (void)stream;
  const struct sp_backend *s = sp_get(fn, "gpu.spgemm_create_descr");
  if (!s)
    return NULL;
  struct sp_spgemm *g = calloc(1, sizeof *g);
  if (!g) {
    rt_error("%s: out of memory", fn);
    return NULL;
  }
  g->magic = SP_MAGIC_SPGEMM;
  struct rt_err e;
  if (s->spgemm_create(g, &e) != 0) {
    free(g);
    sp_report(fn, &e);
    return NULL;
  }
  return g;
}

RT_EXPORT void mgpuSpGEMMDestroyDescr(void *desc, void *stream) {
  static const char fn[] = "mgpuSpGEMMDestroyDescr";
  (void)stream;
  struct sp_spgemm *g = sp_spgemm_of(fn, desc);
  if (!g)
    return;
  const struct sp_backend *s = sp_get(fn, "gpu.spgemm_destroy_descr");
  if (!s)
    return;
  struct rt_err e;
  int rc = s->spgemm_destroy(g, &e);
  g->magic = 0;
  free(g);
  if (rc != 0)
    sp_report(fn, &e);
}

static intptr_t spgemm_step(const char *fn, enum sp_kind kind, const char *name, void *desc,
                            int32_t ma, int32_t mb, void *a, void *b, void *c, int32_t ctp,
                            intptr_t bs, void *buf, void *stream) {
  struct sp_spgemm *g = sp_spgemm_of(fn, desc);
  if (!g)
    return 0;
  if (bs < 0) {
    rt_error("%s: %s: negative buffer size %" PRIdPTR, fn, name, bs);
    return 0;
  }
  return run(fn,
             (struct sp_op){.kind = kind, .name = name, .mode_a = ma, .mode_b = mb,
                            .compute_type = ctp, .spgemm = g, .buffer = buf,
                            .buffer_size = (size_t)bs, .stream = stream},
             a, b, c);
}

RT_EXPORT intptr_t mgpuSpGEMMWorkEstimation(void *desc, int32_t ma, int32_t mb, void *a, void *b,
                                            void *c, int32_t ctp, intptr_t bs, void *buf,
                                            void *stream) {
  return spgemm_step("mgpuSpGEMMWorkEstimation", SP_SPGEMM_ESTIMATE,
                     "gpu.spgemm_work_estimation_or_compute {WORK_ESTIMATION}", desc, ma, mb, a,
                     b, c, ctp, bs, buf, stream);
}

RT_EXPORT intptr_t mgpuSpGEMMCompute(void *desc, int32_t ma, int32_t mb, void *a, void *b, void *c,
                                     int32_t ctp, intptr_t bs, void *buf, void *stream) {
  return spgemm_step("mgpuSpGEMMCompute", SP_SPGEMM_COMPUTE,
                     "gpu.spgemm_work_estimation_or_compute {COMPUTE}", desc, ma, mb, a, b, c, ctp,
                     bs, buf, stream);
}

RT_EXPORT void mgpuSpGEMMCopy(void *desc, int32_t ma, int32_t mb, void *a, void *b, void *c,
                              int32_t ctp, void *stream) {
  spgemm_step("mgpuSpGEMMCopy", SP_SPGEMM_COPY, "gpu.spgemm_copy", desc, ma, mb, a, b, c, ctp, 0,
              NULL, stream);
}
