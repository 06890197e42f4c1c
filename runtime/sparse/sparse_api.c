/* sparse_api.c: the sparse handles (dense vectors and matrices, sparse
 * matrices, SpGEMM states), the library environment, and dispatch.
 *
 * The backend the runtime chose decides which sparse library does the work:
 * the CPU on the host backend, cuSPARSE on CUDA, hipSPARSE on HIP (one row
 * each, struct sp_backend). Arguments are checked here, once for all three,
 * so that a wrong index type or a NULL array reads the same everywhere:
 * "mgpuCreateCsr: gpu.create_csr: unknown index type 7". A library that
 * cannot be loaded is reported at the first sparse op that needs it, naming
 * the library and the op. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sparse.h"

void sp_report(const char *fn, const struct rt_err *e) {
  if (e->call)
    rt_error("%s: %s failed with status %d", fn, e->call, e->code);
  else
    rt_error("%s: %s", fn, e->detail);
}

/* The sparse libraries of each runtime backend, by the backend's name
 * (its row's `name`, as GPUCC_BACKEND spells it): the one place that knows
 * which library runs on which vendor's devices. A backend not here (a
 * test's) has none. hipSPARSELt exists, but MLIR's 2:4 lowering is written
 * against cuSPARSELt's handle sizes and codes only. */
static const struct {
  const char *backend;
  const struct sp_backend *sparse;
  const struct sp_lt_backend *lt; /* 2:4 structured sparsity, or NULL */
} libraries[] = {
    {"host", &sp_backend_cpu, &sp_lt_backend_cpu},
    {"cuda", &sp_backend_cusparse, &sp_lt_backend_cusparselt},
    {"hip", &sp_backend_hipsparse, NULL},
};

static int sp_library(const struct rt_backend *b) {
  for (size_t i = 0; b && i < sizeof libraries / sizeof libraries[0]; i++)
    if (!strcmp(b->name, libraries[i].backend))
      return (int)i;
  return -1;
}

static const struct sp_backend *sp_row(const struct rt_backend *b) {
  int i = sp_library(b);
  return i < 0 ? NULL : libraries[i].sparse;
}

const struct sp_lt_backend *sp_lt_row(const struct rt_backend *b) {
  int i = sp_library(b);
  return i < 0 ? NULL : libraries[i].lt;
}

const struct sp_backend *sp_get(const char *fn, const char *op) {
  const struct rt_backend *b = rt_backend_get(fn);
  if (!b)
    return NULL;
  const struct sp_backend *s = sp_row(b);
  if (!s) {
    rt_error("%s: %s: the %s backend has no sparse library", fn, op, b->label);
    return NULL;
  }
  struct rt_err e;
  if (s->start(op, &e) != 0) {
    sp_report(fn, &e);
    return NULL;
  }
  return s;
}

const struct sp_lt_backend *sp_lt_get(const char *fn, const char *op) {
  const struct rt_backend *b = rt_backend_get(fn);
  if (!b)
    return NULL;
  const struct sp_lt_backend *s = sp_lt_row(b);
  if (!s) {
    rt_error("%s: %s: 2:4 structured sparsity needs cuSPARSELt (NVIDIA) or the host backend; "
             "the %s backend has none", fn, op, b->label);
    return NULL;
  }
  struct rt_err e;
  if (s->start(op, &e) != 0) {
    sp_report(fn, &e);
    return NULL;
  }
  return s;
}

struct sp_matrix *sp_matrix_of(const char *fn, const char *what, void *h) {
  struct sp_matrix *m = h;
  if (!m || m->magic != SP_MAGIC_MATRIX) {
    rt_error("%s: %s %p is not a sparse matrix (gpu.create_coo/csr/csc/bsr failed or it "
             "was destroyed)", fn, what, h);
    return NULL;
  }
  return m;
}

struct sp_dense *sp_dense_of(const char *fn, const char *what, void *h) {
  struct sp_dense *d = h;
  if (!d || d->magic != SP_MAGIC_DENSE) {
    rt_error("%s: %s %p is not a dense tensor (gpu.create_dn_tensor failed or it was "
             "destroyed)", fn, what, h);
    return NULL;
  }
  return d;
}

struct sp_spgemm *sp_spgemm_of(const char *fn, void *h) {
  struct sp_spgemm *g = h;
  if (!g || g->magic != SP_MAGIC_SPGEMM) {
    rt_error("%s: %p is not an SpGEMM descriptor (gpu.spgemm_create_descr failed or it "
             "was destroyed)", fn, h);
    return NULL;
  }
  return g;
}

/* ---- environment ---- */

RT_EXPORT void mgpuCreateSparseEnv(void) {
  sp_get("mgpuCreateSparseEnv", "the sparse environment");
}

RT_EXPORT void mgpuDestroySparseEnv(void) {
  const struct rt_backend *b = rt_backend_peek();
  const struct sp_backend *s = b ? sp_row(b) : NULL;
  if (s && s->stop)
    s->stop();
}

/* ---- dense tensors ---- */

static int check_value_type(const char *fn, const char *op, int dtype) {
  if (sp_value_bytes(dtype) != 0)
    return 0;
  rt_error("%s: %s: unknown data type %d", fn, op, dtype);
  return -1;
}

static void *dense_create(const char *fn, int rank, intptr_t rows, intptr_t cols, void *values,
                          int32_t dtp) {
  static const char op[] = "gpu.create_dn_tensor";
  if (rows < 0 || cols < 0) {
    rt_error("%s: %s: negative size %" PRIdPTR "x%" PRIdPTR, fn, op, rows, cols);
    return NULL;
  }
  if (!values && rows * cols > 0) {
    rt_error("%s: %s: no values (NULL)", fn, op);
    return NULL;
  }
  if (check_value_type(fn, op, dtp) != 0)
    return NULL;
  const struct sp_backend *s = sp_get(fn, op);
  if (!s)
    return NULL;
  struct sp_dense *d = calloc(1, sizeof *d);
  if (!d) {
    rt_error("%s: out of memory", fn);
    return NULL;
  }
  *d = (struct sp_dense){.magic = SP_MAGIC_DENSE, .rank = rank, .rows = rows, .cols = cols,
                         .vals = values, .dtype = dtp};
  struct rt_err e;
  if (s->dense_create(d, &e) != 0) {
    free(d);
    sp_report(fn, &e);
    return NULL;
  }
  return d;
}

static void dense_destroy(const char *fn, int rank, void *h) {
  struct sp_dense *d = sp_dense_of(fn, "the tensor", h);
  if (!d)
    return;
  if (d->rank != rank) {
    rt_error("%s: %p is a dense %s, not a %s", fn, h, d->rank == 1 ? "vector" : "matrix",
             rank == 1 ? "vector" : "matrix");
    return;
  }
  const struct sp_backend *s = sp_get(fn, "gpu.destroy_dn_tensor");
  if (!s)
    return;
  struct rt_err e;
  int rc = s->dense_destroy(d, &e);
  d->magic = 0;
  free(d);
  if (rc != 0)
    sp_report(fn, &e);
}

RT_EXPORT void *mgpuCreateDnVec(intptr_t size, void *values, int32_t dtp, void *stream) {
  (void)stream;
  return dense_create("mgpuCreateDnVec", 1, size, 1, values, dtp);
}

RT_EXPORT void mgpuDestroyDnVec(void *v, void *stream) {
  (void)stream;
  dense_destroy("mgpuDestroyDnVec", 1, v);
}

RT_EXPORT void *mgpuCreateDnMat(intptr_t rows, intptr_t cols, void *values, int32_t dtp,
                                void *stream) {
  (void)stream;
  return dense_create("mgpuCreateDnMat", 2, rows, cols, values, dtp);
}

RT_EXPORT void mgpuDestroyDnMat(void *m, void *stream) {
  (void)stream;
  dense_destroy("mgpuDestroyDnMat", 2, m);
}

/* ---- sparse matrices ---- */

static const char *format_op(enum sp_format f) {
  switch (f) {
  case SP_COO: return "gpu.create_coo";
  case SP_COO_AOS: return "gpu.create_coo_aos";
  case SP_CSR: return "gpu.create_csr";
  case SP_CSC: return "gpu.create_csc";
  case SP_BSR: return "gpu.create_bsr";
  }
  return "?";
}

static void *matrix_create(const char *fn, struct sp_matrix m) {
  const char *op = format_op(m.format);
  if (m.rows < 0 || m.cols < 0 || m.nnz < 0 || m.rblock <= 0 || m.cblock <= 0) {
    rt_error("%s: %s: negative or zero size (%" PRId64 "x%" PRId64 ", %" PRId64 " entries)", fn,
             op, m.rows, m.cols, m.nnz);
    return NULL;
  }
  if (sp_index_bytes(m.itype) == 0 || sp_index_bytes(m.ptype) == 0) {
    rt_error("%s: %s: unknown index type %d", fn, op,
             sp_index_bytes(m.itype) == 0 ? m.itype : m.ptype);
    return NULL;
  }
  if (check_value_type(fn, op, m.dtype) != 0)
    return NULL;
  /* CSR/CSC/BSR offsets always exist; a matrix with no entries may come
   * without index and value arrays (an SpGEMM result before
   * gpu.set_csr_pointers). */
  int compressed = m.format == SP_CSR || m.format == SP_CSC || m.format == SP_BSR;
  if ((compressed && !m.pos) || (m.nnz > 0 && (!m.idx || !m.vals || (m.format == SP_COO && !m.pos)))) {
    rt_error("%s: %s: an index or value array is NULL", fn, op);
    return NULL;
  }
  const struct sp_backend *s = sp_get(fn, op);
  if (!s)
    return NULL;
  struct sp_matrix *h = malloc(sizeof *h);
  if (!h) {
    rt_error("%s: out of memory", fn);
    return NULL;
  }
  *h = m;
  h->magic = SP_MAGIC_MATRIX;
  struct rt_err e;
  if (s->matrix_create(h, &e) != 0) {
    free(h);
    sp_report(fn, &e);
    return NULL;
  }
  return h;
}

RT_EXPORT void *mgpuCreateCoo(intptr_t rows, intptr_t cols, intptr_t nnz, void *rowIdxs,
                              void *colIdxs, void *values, int32_t itp, int32_t dtp,
                              void *stream) {
  (void)stream;
  return matrix_create("mgpuCreateCoo",
                       (struct sp_matrix){.format = SP_COO, .rows = rows, .cols = cols,
                                          .nnz = nnz, .rblock = 1, .cblock = 1, .pos = rowIdxs,
                                          .idx = colIdxs, .vals = values, .ptype = itp,
                                          .itype = itp, .dtype = dtp});
}

RT_EXPORT void *mgpuCreateCooAoS(intptr_t rows, intptr_t cols, intptr_t nnz, void *idxs,
                                 void *values, int32_t itp, int32_t dtp, void *stream) {
  (void)stream;
  return matrix_create("mgpuCreateCooAoS",
                       (struct sp_matrix){.format = SP_COO_AOS, .rows = rows, .cols = cols,
                                          .nnz = nnz, .rblock = 1, .cblock = 1, .idx = idxs,
                                          .vals = values, .ptype = itp, .itype = itp,
                                          .dtype = dtp});
}

RT_EXPORT void *mgpuCreateCsr(intptr_t rows, intptr_t cols, intptr_t nnz, void *rowPos,
                              void *colIdxs, void *values, int32_t ptp, int32_t itp,
                              int32_t dtp, void *stream) {
  (void)stream;
  return matrix_create("mgpuCreateCsr",
                       (struct sp_matrix){.format = SP_CSR, .rows = rows, .cols = cols,
                                          .nnz = nnz, .rblock = 1, .cblock = 1, .pos = rowPos,
                                          .idx = colIdxs, .vals = values, .ptype = ptp,
                                          .itype = itp, .dtype = dtp});
}

RT_EXPORT void *mgpuCreateCsc(intptr_t rows, intptr_t cols, intptr_t nnz, void *colPos,
                              void *rowIdxs, void *values, int32_t ptp, int32_t itp,
                              int32_t dtp, void *stream) {
  (void)stream;
  return matrix_create("mgpuCreateCsc",
                       (struct sp_matrix){.format = SP_CSC, .rows = rows, .cols = cols,
                                          .nnz = nnz, .rblock = 1, .cblock = 1, .pos = colPos,
                                          .idx = rowIdxs, .vals = values, .ptype = ptp,
                                          .itype = itp, .dtype = dtp});
}

RT_EXPORT void *mgpuCreateBsr(intptr_t brows, intptr_t bcols, intptr_t bnnz, intptr_t rBsz,
                              intptr_t cBsz, void *rowPos, void *colIdxs, void *values,
                              int32_t ptp, int32_t itp, int32_t dtp, void *stream) {
  (void)stream;
  return matrix_create("mgpuCreateBsr",
                       (struct sp_matrix){.format = SP_BSR, .rows = brows, .cols = bcols,
                                          .nnz = bnnz, .rblock = rBsz, .cblock = cBsz,
                                          .pos = rowPos, .idx = colIdxs, .vals = values,
                                          .ptype = ptp, .itype = itp, .dtype = dtp});
}

RT_EXPORT void mgpuDestroySpMat(void *m, void *stream) {
  static const char fn[] = "mgpuDestroySpMat";
  (void)stream;
  struct sp_matrix *h = sp_matrix_of(fn, "the matrix", m);
  if (!h)
    return;
  const struct sp_backend *s = sp_get(fn, "gpu.destroy_sp_mat");
  if (!s)
    return;
  struct rt_err e;
  int rc = s->matrix_destroy(h, &e);
  h->magic = 0;
  free(h);
  if (rc != 0)
    sp_report(fn, &e);
}

RT_EXPORT void mgpuSpMatGetSize(void *m, void *rows, void *cols, void *nnz, void *stream) {
  static const char fn[] = "mgpuSpMatGetSize";
  (void)stream;
  struct sp_matrix *h = sp_matrix_of(fn, "the matrix", m);
  if (!h)
    return;
  const struct sp_backend *s = sp_get(fn, "gpu.spmat_get_size");
  if (!s)
    return;
  int64_t size[3];
  struct rt_err e;
  if (s->matrix_size(h, size, &e) != 0) {
    sp_report(fn, &e);
    return;
  }
  *(int64_t *)rows = size[0];
  *(int64_t *)cols = size[1];
  *(int64_t *)nnz = size[2];
}

RT_EXPORT void mgpuSetCsrPointers(void *m, void *pos, void *crd, void *values, void *stream) {
  static const char fn[] = "mgpuSetCsrPointers";
  (void)stream;
  struct sp_matrix *h = sp_matrix_of(fn, "the matrix", m);
  if (!h)
    return;
  if (h->format != SP_CSR) {
    rt_error("%s: gpu.set_csr_pointers: the matrix is %s, not CSR", fn, sp_format_name(h->format));
    return;
  }
  const struct sp_backend *s = sp_get(fn, "gpu.set_csr_pointers");
  if (!s)
    return;
  h->pos = pos;
  h->idx = crd;
  h->vals = values;
  struct rt_err e;
  if (s->set_csr_pointers(h, &e) != 0)
    sp_report(fn, &e);
}
