/* vendor.c: the sparse rows of the CUDA and HIP backends, over cuSPARSE
 * and hipSPARSE.
 *
 * hipSPARSE's generic API is cuSPARSE's under another prefix: the same
 * functions with the same arguments, and the same values for the codes
 * MLIR passes (data types, index types, operations) and for the ones used
 * here (index base zero 0, row order 2, default algorithms 0). So one table
 * of functions serves both, resolved as prefix + name ("cusparse" +
 * "SpMV") from the library of the row.
 *
 * Like the drivers (dynlib.c), the library is dlopen()ed at the first
 * sparse op, so that programs without sparse ops, and machines without the
 * library, never need it; a missing library is reported at that op, naming
 * it. One library handle per process (upstream's wrappers have one too),
 * made at first use; each call takes a lock, makes the device current
 * (struct rt_backend's context_enter), binds the op's stream to the handle
 * and calls, so that the op is ordered on its stream with the program's
 * copies and kernels. Upstream leaves the handle on the default stream,
 * which a non-blocking stream does not wait for.
 *
 * Alpha and beta are 1 in the compute type (complex: 1 + 0i; upstream
 * passes a real 1 there). */
#include <dlfcn.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "sparse.h"

typedef int status_t;

/* cuSPARSE's and hipSPARSE's generic API, types erased to void * and int. */
struct api {
  status_t (*Create)(void **handle);
  status_t (*Destroy)(void *handle);
  status_t (*SetStream)(void *handle, void *stream);
  const char *(*GetErrorName)(status_t s);
  const char *(*GetErrorString)(status_t s);
  status_t (*CreateDnVec)(void **d, int64_t size, void *vals, int dtype);
  status_t (*DestroyDnVec)(void *d);
  status_t (*CreateDnMat)(void **d, int64_t rows, int64_t cols, int64_t ld, void *vals,
                          int dtype, int order);
  status_t (*DestroyDnMat)(void *d);
  status_t (*CreateCoo)(void **m, int64_t rows, int64_t cols, int64_t nnz, void *rowind,
                        void *colind, void *vals, int itype, int base, int dtype);
  status_t (*CreateCooAoS)(void **m, int64_t rows, int64_t cols, int64_t nnz, void *ind,
                           void *vals, int itype, int base, int dtype);
  status_t (*CreateCsr)(void **m, int64_t rows, int64_t cols, int64_t nnz, void *offsets,
                        void *ind, void *vals, int ptype, int itype, int base, int dtype);
  status_t (*CreateCsc)(void **m, int64_t rows, int64_t cols, int64_t nnz, void *offsets,
                        void *ind, void *vals, int ptype, int itype, int base, int dtype);
  status_t (*CreateBsr)(void **m, int64_t brows, int64_t bcols, int64_t bnnz, int64_t rblock,
                        int64_t cblock, void *offsets, void *ind, void *vals, int ptype,
                        int itype, int base, int dtype, int order);
  status_t (*DestroySpMat)(void *m);
  status_t (*SpMatGetSize)(void *m, int64_t *rows, int64_t *cols, int64_t *nnz);
  status_t (*CsrSetPointers)(void *m, void *offsets, void *ind, void *vals);
  status_t (*SpMV_bufferSize)(void *h, int op, const void *alpha, void *a, void *x,
                              const void *beta, void *y, int ctype, int alg, size_t *size);
  status_t (*SpMV)(void *h, int op, const void *alpha, void *a, void *x, const void *beta,
                   void *y, int ctype, int alg, void *buf);
  /* SpMM and SDDMM share their shape */
  status_t (*SpMM_bufferSize)(void *h, int opa, int opb, const void *alpha, void *a, void *b,
                              const void *beta, void *c, int ctype, int alg, size_t *size);
  status_t (*SpMM)(void *h, int opa, int opb, const void *alpha, void *a, void *b,
                   const void *beta, void *c, int ctype, int alg, void *buf);
  status_t (*SDDMM_bufferSize)(void *h, int opa, int opb, const void *alpha, void *a, void *b,
                               const void *beta, void *c, int ctype, int alg, size_t *size);
  status_t (*SDDMM)(void *h, int opa, int opb, const void *alpha, void *a, void *b,
                    const void *beta, void *c, int ctype, int alg, void *buf);
  status_t (*SpGEMM_createDescr)(void **d);
  status_t (*SpGEMM_destroyDescr)(void *d);
  status_t (*SpGEMM_workEstimation)(void *h, int opa, int opb, const void *alpha, void *a,
                                    void *b, const void *beta, void *c, int ctype, int alg,
                                    void *desc, size_t *size, void *buf);
  status_t (*SpGEMM_compute)(void *h, int opa, int opb, const void *alpha, void *a, void *b,
                             const void *beta, void *c, int ctype, int alg, void *desc,
                             size_t *size, void *buf);
  status_t (*SpGEMM_copy)(void *h, int opa, int opb, const void *alpha, void *a, void *b,
                          const void *beta, void *c, int ctype, int alg, void *desc);
};

enum { INDEX_BASE_ZERO = 0, ORDER_ROW = 2, ALG_DEFAULT = 0 };

/* A function of the table: its name after the prefix, its slot, and
 * whether the library is unusable without it. Optional ones are reported
 * when an op needs them (cusparseCreateCooAoS is gone from cuSPARSE 12,
 * cusparseCreateBsr came with 12.1). */
struct fn_entry {
  const char *name;
  size_t offset;
  int optional;
};

#define ENTRY(n, opt) {#n, offsetof(struct api, n), opt}
static const struct fn_entry fn_table[] = {
    ENTRY(Create, 0),          ENTRY(Destroy, 0),          ENTRY(SetStream, 0),
    ENTRY(GetErrorName, 1),    ENTRY(GetErrorString, 1),   ENTRY(CreateDnVec, 0),
    ENTRY(DestroyDnVec, 0),    ENTRY(CreateDnMat, 0),      ENTRY(DestroyDnMat, 0),
    ENTRY(CreateCoo, 0),       ENTRY(CreateCooAoS, 1),     ENTRY(CreateCsr, 0),
    ENTRY(CreateCsc, 1),       ENTRY(CreateBsr, 1),        ENTRY(DestroySpMat, 0),
    ENTRY(SpMatGetSize, 0),    ENTRY(CsrSetPointers, 1),   ENTRY(SpMV_bufferSize, 0),
    ENTRY(SpMV, 0),            ENTRY(SpMM_bufferSize, 0),  ENTRY(SpMM, 0),
    ENTRY(SDDMM_bufferSize, 1), ENTRY(SDDMM, 1),           ENTRY(SpGEMM_createDescr, 1),
    ENTRY(SpGEMM_destroyDescr, 1), ENTRY(SpGEMM_workEstimation, 1), ENTRY(SpGEMM_compute, 1),
    ENTRY(SpGEMM_copy, 1),
};
#undef ENTRY

/* One vendor library: what to load, and its state once loaded. */
struct vendor {
  const char *label;  /* "cuSPARSE" */
  const char *prefix; /* "cusparse" */
  const char *env;    /* GPUCC_CUSPARSE_LIBRARY */
  const char *const *names;
  pthread_mutex_t lock;
  int tried;          /* loading was tried: lib and api are final */
  void *lib;
  char why[512];      /* why it did not load */
  struct api api;
  void *handle;       /* NULL until first use, and after stop */
};

static const char *const cusparse_names[] = {"libcusparse.so.12", "libcusparse.so.11",
                                             "libcusparse.so",
                                             "/usr/local/cuda/lib64/libcusparse.so.12", NULL};
static const char *const hipsparse_names[] = {"libhipsparse.so", "libhipsparse.so.4",
                                              "libhipsparse.so.1", "libhipsparse.so.0",
                                              "/opt/rocm/lib/libhipsparse.so", NULL};

static struct vendor cusparse = {.label = "cuSPARSE", .prefix = "cusparse",
                                 .env = "GPUCC_CUSPARSE_LIBRARY", .names = cusparse_names,
                                 .lock = PTHREAD_MUTEX_INITIALIZER};
static struct vendor hipsparse = {.label = "hipSPARSE", .prefix = "hipsparse",
                                  .env = "GPUCC_HIPSPARSE_LIBRARY", .names = hipsparse_names,
                                  .lock = PTHREAD_MUTEX_INITIALIZER};

int sp_context_enter(struct rt_err *e) {
  const struct rt_backend *b = rt_backend_peek();
  return b && b->context_enter ? b->context_enter(e) : 0;
}

void sp_context_leave(void) {
  const struct rt_backend *b = rt_backend_peek();
  if (b && b->context_leave)
    b->context_leave();
}

/* Sets e for a failed library call: "cusparseSpMV failed:
 * CUSPARSE_STATUS_INVALID_VALUE (invalid value)". */
static int vendor_fail(const struct vendor *v, const char *call, status_t s, struct rt_err *e) {
  const char *name = v->api.GetErrorName ? v->api.GetErrorName(s) : NULL;
  const char *text = v->api.GetErrorString ? v->api.GetErrorString(s) : NULL;
  if (name)
    return rt_fail_msg(e, "%s%s failed: %s%s%s%s", v->prefix, call, name, text ? " (" : "",
                       text ? text : "", text ? ")" : "");
  return rt_fail_msg(e, "%s%s failed with status %d", v->prefix, call, s);
}

/* Loads the library and resolves the table, once; with the lock held. */
static int vendor_load(struct vendor *v) {
  if (v->tried)
    return v->lib ? 0 : -1;
  v->tried = 1;
  v->lib = rt_dlopen_first(v->env, v->names, v->why, sizeof v->why);
  if (!v->lib)
    return -1;
  for (size_t i = 0; i < sizeof fn_table / sizeof fn_table[0]; i++) {
    char name[96];
    snprintf(name, sizeof name, "%s%s", v->prefix, fn_table[i].name);
    void *f = dlsym(v->lib, name);
    if (!f && !fn_table[i].optional) {
      snprintf(v->why, sizeof v->why, "the library has no %s", name);
      dlclose(v->lib);
      v->lib = NULL;
      memset(&v->api, 0, sizeof v->api);
      return -1;
    }
    memcpy((char *)&v->api + fn_table[i].offset, &f, sizeof f);
  }
  return 0;
}

/* Takes the lock, makes the library and its handle ready, enters the
 * device's context and binds stream; on success the caller calls
 * vendor_end. */
static int vendor_begin(struct vendor *v, const char *op, void *stream, struct rt_err *e) {
  pthread_mutex_lock(&v->lock);
  if (vendor_load(v) != 0) {
    pthread_mutex_unlock(&v->lock);
    return rt_fail_msg(e, "%s needs %s, which could not be loaded: %s (%s names the file to "
                          "load)", op, v->label, v->why, v->env);
  }
  if (sp_context_enter(e) != 0) {
    pthread_mutex_unlock(&v->lock);
    return -1;
  }
  status_t s;
  if (!v->handle && (s = v->api.Create(&v->handle)) != 0) {
    v->handle = NULL;
    vendor_fail(v, "Create", s, e);
    goto fail;
  }
  if ((s = v->api.SetStream(v->handle, stream)) != 0) {
    vendor_fail(v, "SetStream", s, e);
    goto fail;
  }
  return 0;
fail:
  sp_context_leave();
  pthread_mutex_unlock(&v->lock);
  return -1;
}

static void vendor_end(struct vendor *v) {
  sp_context_leave();
  pthread_mutex_unlock(&v->lock);
}

/* Ends an op that made one library call. */
static int vendor_done(struct vendor *v, const char *call, status_t s, struct rt_err *e) {
  vendor_end(v);
  return s == 0 ? 0 : vendor_fail(v, call, s, e);
}

static int vendor_missing(const struct vendor *v, const char *call, const char *why,
                          struct rt_err *e) {
  return rt_fail_msg(e, "this %s has no %s%s%s", v->label, v->prefix, call, why);
}

static void vendor_stop(struct vendor *v) {
  pthread_mutex_lock(&v->lock);
  if (v->handle) {
    struct rt_err e;
    if (sp_context_enter(&e) == 0) {
      v->api.Destroy(v->handle);
      sp_context_leave();
    }
    v->handle = NULL;
  }
  pthread_mutex_unlock(&v->lock);
}

/* 1 in the compute type, as the library reads alpha and beta. */
union one {
  double d[2];
  float f[2];
  uint16_t h[2];
  int32_t i;
};

static union one one_of(int ctype) {
  union one o;
  memset(&o, 0, sizeof o);
  switch (ctype) {
  case SP_R_64F:
  case SP_C_64F:
    o.d[0] = 1;
    break;
  case SP_R_16F:
  case SP_C_16F:
    o.h[0] = 0x3c00; /* 1.0 in IEEE half */
    break;
  case SP_R_16BF:
  case SP_C_16BF:
    o.h[0] = 0x3f80; /* 1.0 in bfloat16 */
    break;
  case SP_R_32I:
  case SP_R_8I:
    o.i = 1;
    break;
  default:
    o.f[0] = 1;
    break;
  }
  return o;
}

/* ---- the row's operations, for one vendor ---- */

static int v_start(struct vendor *v, const char *op, struct rt_err *e) {
  if (vendor_begin(v, op, NULL, e) != 0)
    return -1;
  vendor_end(v);
  return 0;
}

static int v_matrix_create(struct vendor *v, struct sp_matrix *m, struct rt_err *e) {
  const struct api *a = &v->api;
  if (m->format == SP_COO_AOS && !a->CreateCooAoS)
    return vendor_missing(v, "CreateCooAoS", " (cuSPARSE 12 removed COO AoS; use gpu.create_coo)", e);
  if (m->format == SP_BSR && !a->CreateBsr)
    return vendor_missing(v, "CreateBsr", " (cuSPARSE has it from 12.1)", e);
  if (m->format == SP_CSC && !a->CreateCsc)
    return vendor_missing(v, "CreateCsc", "", e);
  if (vendor_begin(v, "a sparse matrix", NULL, e) != 0)
    return -1;
  status_t s = 0;
  const char *call = "";
  switch (m->format) {
  case SP_COO:
    call = "CreateCoo";
    s = a->CreateCoo(&m->vendor, m->rows, m->cols, m->nnz, m->pos, m->idx, m->vals, m->itype,
                     INDEX_BASE_ZERO, m->dtype);
    break;
  case SP_COO_AOS:
    call = "CreateCooAoS";
    s = a->CreateCooAoS(&m->vendor, m->rows, m->cols, m->nnz, m->idx, m->vals, m->itype,
                        INDEX_BASE_ZERO, m->dtype);
    break;
  case SP_CSR:
    call = "CreateCsr";
    s = a->CreateCsr(&m->vendor, m->rows, m->cols, m->nnz, m->pos, m->idx, m->vals, m->ptype,
                     m->itype, INDEX_BASE_ZERO, m->dtype);
    break;
  case SP_CSC:
    call = "CreateCsc";
    s = a->CreateCsc(&m->vendor, m->rows, m->cols, m->nnz, m->pos, m->idx, m->vals, m->ptype,
                     m->itype, INDEX_BASE_ZERO, m->dtype);
    break;
  case SP_BSR:
    call = "CreateBsr";
    s = a->CreateBsr(&m->vendor, m->rows, m->cols, m->nnz, m->rblock, m->cblock, m->pos, m->idx,
                     m->vals, m->ptype, m->itype, INDEX_BASE_ZERO, m->dtype, ORDER_ROW);
    break;
  }
  return vendor_done(v, call, s, e);
}

static int v_matrix_destroy(struct vendor *v, struct sp_matrix *m, struct rt_err *e) {
  if (vendor_begin(v, "gpu.destroy_sp_mat", NULL, e) != 0)
    return -1;
  return vendor_done(v, "DestroySpMat", v->api.DestroySpMat(m->vendor), e);
}

static int v_dense_create(struct vendor *v, struct sp_dense *d, struct rt_err *e) {
  if (vendor_begin(v, "gpu.create_dn_tensor", NULL, e) != 0)
    return -1;
  if (d->rank == 1)
    return vendor_done(v, "CreateDnVec", v->api.CreateDnVec(&d->vendor, d->rows, d->vals, d->dtype), e);
  return vendor_done(v, "CreateDnMat",
                     v->api.CreateDnMat(&d->vendor, d->rows, d->cols, d->cols, d->vals, d->dtype,
                                        ORDER_ROW),
                     e);
}

static int v_dense_destroy(struct vendor *v, struct sp_dense *d, struct rt_err *e) {
  if (vendor_begin(v, "gpu.destroy_dn_tensor", NULL, e) != 0)
    return -1;
  if (d->rank == 1)
    return vendor_done(v, "DestroyDnVec", v->api.DestroyDnVec(d->vendor), e);
  return vendor_done(v, "DestroyDnMat", v->api.DestroyDnMat(d->vendor), e);
}

static int v_matrix_size(struct vendor *v, struct sp_matrix *m, int64_t out[3], struct rt_err *e) {
  if (vendor_begin(v, "gpu.spmat_get_size", NULL, e) != 0)
    return -1;
  if (vendor_done(v, "SpMatGetSize", v->api.SpMatGetSize(m->vendor, &out[0], &out[1], &out[2]), e) != 0)
    return -1;
  m->nnz = out[2]; /* an SpGEMM result's grows at its compute step */
  return 0;
}

static int v_set_csr_pointers(struct vendor *v, struct sp_matrix *m, struct rt_err *e) {
  if (!v->api.CsrSetPointers)
    return vendor_missing(v, "CsrSetPointers", "", e);
  if (vendor_begin(v, "gpu.set_csr_pointers", NULL, e) != 0)
    return -1;
  return vendor_done(v, "CsrSetPointers", v->api.CsrSetPointers(m->vendor, m->pos, m->idx, m->vals), e);
}

static int v_spgemm_create(struct vendor *v, struct sp_spgemm *g, struct rt_err *e) {
  if (!v->api.SpGEMM_createDescr)
    return vendor_missing(v, "SpGEMM_createDescr", "", e);
  if (vendor_begin(v, "gpu.spgemm_create_descr", NULL, e) != 0)
    return -1;
  return vendor_done(v, "SpGEMM_createDescr", v->api.SpGEMM_createDescr(&g->vendor), e);
}

static int v_spgemm_destroy(struct vendor *v, struct sp_spgemm *g, struct rt_err *e) {
  if (vendor_begin(v, "gpu.spgemm_destroy_descr", NULL, e) != 0)
    return -1;
  return vendor_done(v, "SpGEMM_destroyDescr", v->api.SpGEMM_destroyDescr(g->vendor), e);
}

static int v_buffer_size(struct vendor *v, const struct sp_op *op, size_t *bytes, struct rt_err *e) {
  const struct api *a = &v->api;
  if (op->kind == SP_SDDMM && !a->SDDMM_bufferSize)
    return vendor_missing(v, "SDDMM_bufferSize", "", e);
  union one one = one_of(op->compute_type);
  if (vendor_begin(v, op->name, op->stream, e) != 0)
    return -1;
  switch (op->kind) {
  case SP_SPMV:
    return vendor_done(v, "SpMV_bufferSize",
                       a->SpMV_bufferSize(v->handle, op->mode_a, &one, op->sa->vendor,
                                          op->db->vendor, &one, op->dc->vendor, op->compute_type,
                                          ALG_DEFAULT, bytes),
                       e);
  case SP_SPMM:
    return vendor_done(v, "SpMM_bufferSize",
                       a->SpMM_bufferSize(v->handle, op->mode_a, op->mode_b, &one, op->sa->vendor,
                                          op->db->vendor, &one, op->dc->vendor, op->compute_type,
                                          ALG_DEFAULT, bytes),
                       e);
  default:
    return vendor_done(v, "SDDMM_bufferSize",
                       a->SDDMM_bufferSize(v->handle, op->mode_a, op->mode_b, &one, op->da->vendor,
                                           op->db->vendor, &one, op->sc_sparse->vendor,
                                           op->compute_type, ALG_DEFAULT, bytes),
                       e);
  }
}

static int v_run(struct vendor *v, const struct sp_op *op, size_t *bytes, struct rt_err *e) {
  const struct api *a = &v->api;
  if ((op->kind == SP_SDDMM && !a->SDDMM) ||
      (op->kind >= SP_SPGEMM_ESTIMATE && (!a->SpGEMM_workEstimation || !a->SpGEMM_compute ||
                                          !a->SpGEMM_copy)))
    return vendor_missing(v, op->kind == SP_SDDMM ? "SDDMM" : "SpGEMM_compute", "", e);
  union one one = one_of(op->compute_type);
  if (vendor_begin(v, op->name, op->stream, e) != 0)
    return -1;
  void *h = v->handle;
  int ma = op->mode_a, mb = op->mode_b, ct = op->compute_type;
  switch (op->kind) {
  case SP_SPMV:
    return vendor_done(v, "SpMV",
                       a->SpMV(h, ma, &one, op->sa->vendor, op->db->vendor, &one, op->dc->vendor,
                               ct, ALG_DEFAULT, op->buffer),
                       e);
  case SP_SPMM:
    return vendor_done(v, "SpMM",
                       a->SpMM(h, ma, mb, &one, op->sa->vendor, op->db->vendor, &one,
                               op->dc->vendor, ct, ALG_DEFAULT, op->buffer),
                       e);
  case SP_SDDMM:
    return vendor_done(v, "SDDMM",
                       a->SDDMM(h, ma, mb, &one, op->da->vendor, op->db->vendor, &one,
                                op->sc_sparse->vendor, ct, ALG_DEFAULT, op->buffer),
                       e);
  case SP_SPGEMM_ESTIMATE:
    return vendor_done(v, "SpGEMM_workEstimation",
                       a->SpGEMM_workEstimation(h, ma, mb, &one, op->sa->vendor,
                                                op->sb_sparse->vendor, &one,
                                                op->sc_sparse->vendor, ct, ALG_DEFAULT,
                                                op->spgemm->vendor, bytes, op->buffer),
                       e);
  case SP_SPGEMM_COMPUTE:
    return vendor_done(v, "SpGEMM_compute",
                       a->SpGEMM_compute(h, ma, mb, &one, op->sa->vendor, op->sb_sparse->vendor,
                                         &one, op->sc_sparse->vendor, ct, ALG_DEFAULT,
                                         op->spgemm->vendor, bytes, op->buffer),
                       e);
  case SP_SPGEMM_COPY:
    return vendor_done(v, "SpGEMM_copy",
                       a->SpGEMM_copy(h, ma, mb, &one, op->sa->vendor, op->sb_sparse->vendor, &one,
                                      op->sc_sparse->vendor, ct, ALG_DEFAULT, op->spgemm->vendor),
                       e);
  }
  vendor_end(v);
  return 0;
}

/* ---- the two rows: each binds the functions above to its vendor (the
 * struct vendor of the same name) ---- */

#define SP_VENDOR_ROW(row)                                                                   \
  static int row##_start(const char *op, struct rt_err *e) { return v_start(&row, op, e); }       \
  static int row##_matrix_create(struct sp_matrix *m, struct rt_err *e) {                       \
    return v_matrix_create(&row, m, e);                                                           \
  }                                                                                             \
  static int row##_matrix_destroy(struct sp_matrix *m, struct rt_err *e) {                      \
    return v_matrix_destroy(&row, m, e);                                                          \
  }                                                                                             \
  static int row##_dense_create(struct sp_dense *d, struct rt_err *e) {                         \
    return v_dense_create(&row, d, e);                                                            \
  }                                                                                             \
  static int row##_dense_destroy(struct sp_dense *d, struct rt_err *e) {                        \
    return v_dense_destroy(&row, d, e);                                                           \
  }                                                                                             \
  static int row##_matrix_size(struct sp_matrix *m, int64_t out[3], struct rt_err *e) {         \
    return v_matrix_size(&row, m, out, e);                                                        \
  }                                                                                             \
  static int row##_set_csr_pointers(struct sp_matrix *m, struct rt_err *e) {                    \
    return v_set_csr_pointers(&row, m, e);                                                        \
  }                                                                                             \
  static int row##_spgemm_create(struct sp_spgemm *g, struct rt_err *e) {                       \
    return v_spgemm_create(&row, g, e);                                                           \
  }                                                                                             \
  static int row##_spgemm_destroy(struct sp_spgemm *g, struct rt_err *e) {                      \
    return v_spgemm_destroy(&row, g, e);                                                          \
  }                                                                                             \
  static int row##_buffer_size(const struct sp_op *op, size_t *bytes, struct rt_err *e) {       \
    return v_buffer_size(&row, op, bytes, e);                                                     \
  }                                                                                             \
  static int row##_run(const struct sp_op *op, size_t *bytes, struct rt_err *e) {               \
    return v_run(&row, op, bytes, e);                                                             \
  }                                                                                             \
  static void row##_stop(void) { vendor_stop(&row); }                                             \
  const struct sp_backend sp_backend_##row = {                                                  \
      .label = #row,                                                                            \
      .start = row##_start,                                                                     \
      .matrix_create = row##_matrix_create,                                                     \
      .matrix_destroy = row##_matrix_destroy,                                                   \
      .dense_create = row##_dense_create,                                                       \
      .dense_destroy = row##_dense_destroy,                                                     \
      .matrix_size = row##_matrix_size,                                                         \
      .set_csr_pointers = row##_set_csr_pointers,                                               \
      .spgemm_create = row##_spgemm_create,                                                     \
      .spgemm_destroy = row##_spgemm_destroy,                                                   \
      .buffer_size = row##_buffer_size,                                                         \
      .run = row##_run,                                                                         \
      .stop = row##_stop,                                                                       \
  };

SP_VENDOR_ROW(cusparse)
SP_VENDOR_ROW(hipsparse)
