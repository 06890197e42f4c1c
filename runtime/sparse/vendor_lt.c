/* vendor_lt.c: 2:4 structured sparsity on the CUDA backend, over
 * cuSPARSELt (libcusparseLt.so.0), dlopen()ed at the first 2:4 op.
 *
 * The handle storage MLIR's lowering alloca's is laid out as upstream's
 * wrappers lay it out, which is what fixes its sizes: a sparse matrix is
 * four cuSPARSELt objects of 11024 bytes (matrix descriptor, algorithm
 * selection, plan, matmul descriptor) and the values pointer (44104
 * bytes); a dense one is a descriptor and the values pointer (11032). The
 * library handle is one per process, initialized at first use.
 *
 * The plan step (mgpuCuSparseLtSpMMBufferSize) makes the matmul descriptor,
 * algorithm and plan, prunes A in place (strip pruning) when asked, checks
 * it (which waits for the stream, as upstream's does), and returns the
 * workspace and compression sizes. The multiply compresses A and computes
 * C = op(A) op(B) + C in place (D = C), then ends the plan. Alpha and beta
 * are float 1, which cuSPARSELt reads for its f16, bf16 and f32 kinds. */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "sparse.h"

typedef int status_t;

/* Every cuSPARSELt object is an opaque 11024-byte struct. */
struct lt_object {
  uint64_t data[11024 / 8];
};
struct lt_sparse {
  struct lt_object mat, alg_sel, plan, matmul;
  void *values;
};
struct lt_dense {
  struct lt_object mat;
  void *values;
};
_Static_assert(sizeof(struct lt_sparse) == SP_LT_SPMAT_BYTES, "MLIR's 2:4 matrix storage");
_Static_assert(sizeof(struct lt_dense) == SP_LT_DNMAT_BYTES, "MLIR's 2:4 dense storage");

enum {
  ORDER_ROW = 2,
  SPARSITY_50_PERCENT = 0,
  MATMUL_ALG_DEFAULT = 0,
  MATMUL_ALG_CONFIG_ID = 0,
  PRUNE_SPMMA_STRIP = 1,
  ALIGNMENT = 16,
};

typedef struct lt_object obj;
static struct {
  status_t (*Init)(obj *h);
  status_t (*Destroy)(const obj *h);
  const char *(*GetErrorString)(status_t s);
  status_t (*DenseDescriptorInit)(const obj *h, obj *mat, int64_t rows, int64_t cols, int64_t ld,
                                  uint32_t alignment, int dtype, int order);
  status_t (*StructuredDescriptorInit)(const obj *h, obj *mat, int64_t rows, int64_t cols,
                                       int64_t ld, uint32_t alignment, int dtype, int order,
                                       int sparsity);
  status_t (*MatDescriptorDestroy)(const obj *mat);
  status_t (*MatmulDescriptorInit)(const obj *h, obj *matmul, int opa, int opb, const obj *a,
                                   const obj *b, const obj *c, const obj *d, int compute);
  status_t (*MatmulAlgSelectionInit)(const obj *h, obj *sel, const obj *matmul, int alg);
  status_t (*MatmulAlgSetAttribute)(const obj *h, obj *sel, int attr, const void *data,
                                    size_t size);
  status_t (*MatmulPlanInit)(const obj *h, obj *plan, const obj *matmul, const obj *sel);
  status_t (*MatmulPlanDestroy)(const obj *plan);
  status_t (*MatmulGetWorkspace)(const obj *h, const obj *plan, size_t *size);
  status_t (*SpMMACompressedSize)(const obj *h, const obj *plan, size_t *size,
                                  size_t *buffer_size);
  status_t (*SpMMAPrune)(const obj *h, const obj *matmul, const void *in, void *out, int alg,
                         void *stream);
  status_t (*SpMMAPruneCheck)(const obj *h, const obj *matmul, const void *in, int *valid,
                              void *stream);
  status_t (*SpMMACompress)(const obj *h, const obj *plan, const void *dense, void *compressed,
                            void *buffer, void *stream);
  status_t (*Matmul)(const obj *h, const obj *plan, const void *alpha, const void *a,
                     const void *b, const void *beta, const void *c, void *d, void *workspace,
                     void **streams, int32_t nstreams);
} lt;

static const struct {
  const char *name;
  void **slot;
  int optional;
} lt_functions[] = {
    {"cusparseLtInit", (void **)&lt.Init, 0},
    {"cusparseLtDestroy", (void **)&lt.Destroy, 0},
    {"cusparseLtGetErrorString", (void **)&lt.GetErrorString, 1},
    {"cusparseLtDenseDescriptorInit", (void **)&lt.DenseDescriptorInit, 0},
    {"cusparseLtStructuredDescriptorInit", (void **)&lt.StructuredDescriptorInit, 0},
    {"cusparseLtMatDescriptorDestroy", (void **)&lt.MatDescriptorDestroy, 0},
    {"cusparseLtMatmulDescriptorInit", (void **)&lt.MatmulDescriptorInit, 0},
    {"cusparseLtMatmulAlgSelectionInit", (void **)&lt.MatmulAlgSelectionInit, 0},
    {"cusparseLtMatmulAlgSetAttribute", (void **)&lt.MatmulAlgSetAttribute, 0},
    {"cusparseLtMatmulPlanInit", (void **)&lt.MatmulPlanInit, 0},
    {"cusparseLtMatmulPlanDestroy", (void **)&lt.MatmulPlanDestroy, 0},
    {"cusparseLtMatmulGetWorkspace", (void **)&lt.MatmulGetWorkspace, 0},
    {"cusparseLtSpMMACompressedSize", (void **)&lt.SpMMACompressedSize, 0},
    {"cusparseLtSpMMAPrune", (void **)&lt.SpMMAPrune, 0},
    {"cusparseLtSpMMAPruneCheck", (void **)&lt.SpMMAPruneCheck, 0},
    {"cusparseLtSpMMACompress", (void **)&lt.SpMMACompress, 0},
    {"cusparseLtMatmul", (void **)&lt.Matmul, 0},
};

static pthread_mutex_t lt_lock = PTHREAD_MUTEX_INITIALIZER;
static int lt_tried, lt_ready;
static void *lt_lib;
static char lt_why[512];
static _Alignas(16) obj lt_handle;

static int lt_fail(const char *call, status_t s, struct rt_err *e) {
  const char *text = lt.GetErrorString ? lt.GetErrorString(s) : NULL;
  if (text)
    return rt_fail_msg(e, "%s failed: %s", call, text);
  return rt_fail_msg(e, "%s failed with status %d", call, s);
}

static int lt_load(void) {
  static const char *const names[] = {"libcusparseLt.so.0", "libcusparseLt.so",
                                      "/usr/local/cuda/lib64/libcusparseLt.so.0", NULL};
  if (lt_tried)
    return lt_lib ? 0 : -1;
  lt_tried = 1;
  lt_lib = rt_dlopen_first("GPUCC_CUSPARSELT_LIBRARY", names, lt_why, sizeof lt_why);
  if (!lt_lib)
    return -1;
  for (size_t i = 0; i < sizeof lt_functions / sizeof lt_functions[0]; i++) {
    *lt_functions[i].slot = dlsym(lt_lib, lt_functions[i].name);
    if (!*lt_functions[i].slot && !lt_functions[i].optional) {
      snprintf(lt_why, sizeof lt_why, "the library has no %s", lt_functions[i].name);
      dlclose(lt_lib);
      lt_lib = NULL;
      return -1;
    }
  }
  return 0;
}

/* Takes the lock, makes the library and handle ready and enters the
 * device's context; on success the caller calls lt_end. */
static int lt_begin(const char *op, struct rt_err *e) {
  pthread_mutex_lock(&lt_lock);
  if (lt_load() != 0) {
    pthread_mutex_unlock(&lt_lock);
    return rt_fail_msg(e, "%s needs cuSPARSELt, which could not be loaded: %s "
                          "(GPUCC_CUSPARSELT_LIBRARY names the file to load)", op, lt_why);
  }
  if (sp_context_enter(e) != 0) {
    pthread_mutex_unlock(&lt_lock);
    return -1;
  }
  status_t s;
  if (!lt_ready && (s = lt.Init(&lt_handle)) != 0) {
    lt_fail("cusparseLtInit", s, e);
    sp_context_leave();
    pthread_mutex_unlock(&lt_lock);
    return -1;
  }
  lt_ready = 1;
  return 0;
}

static void lt_end(void) {
  sp_context_leave();
  pthread_mutex_unlock(&lt_lock);
}

static int lt_done(const char *call, status_t s, struct rt_err *e) {
  lt_end();
  return s == 0 ? 0 : lt_fail(call, s, e);
}

static int cl_start(const char *op, struct rt_err *e) {
  if (lt_begin(op, e) != 0)
    return -1;
  lt_end();
  return 0;
}

static void cl_stop(void) {
  pthread_mutex_lock(&lt_lock);
  if (lt_ready) {
    struct rt_err e;
    if (sp_context_enter(&e) == 0) {
      lt.Destroy(&lt_handle);
      sp_context_leave();
    }
    lt_ready = 0;
  }
  pthread_mutex_unlock(&lt_lock);
}

static int cl_dense_create(void *storage, int64_t rows, int64_t cols, void *vals, int dtype,
                           struct rt_err *e) {
  struct lt_dense *d = storage;
  /* cuSPARSELt expects its objects zeroed before they are initialized */
  memset(d, 0, sizeof *d);
  d->values = vals;
  if (lt_begin("gpu.create_dn_tensor", e) != 0)
    return -1;
  return lt_done("cusparseLtDenseDescriptorInit",
                 lt.DenseDescriptorInit(&lt_handle, &d->mat, rows, cols, cols, ALIGNMENT, dtype,
                                        ORDER_ROW),
                 e);
}

static int cl_sparse_create(void *storage, int64_t rows, int64_t cols, void *vals, int dtype,
                            struct rt_err *e) {
  struct lt_sparse *m = storage;
  memset(m, 0, sizeof *m);
  m->values = vals;
  if (lt_begin("gpu.create_2to4_spmat", e) != 0)
    return -1;
  return lt_done("cusparseLtStructuredDescriptorInit",
                 lt.StructuredDescriptorInit(&lt_handle, &m->mat, rows, cols, cols, ALIGNMENT,
                                             dtype, ORDER_ROW, SPARSITY_50_PERCENT),
                 e);
}

static int cl_dense_destroy(void *storage, struct rt_err *e) {
  struct lt_dense *d = storage;
  if (lt_begin("gpu.destroy_dn_tensor", e) != 0)
    return -1;
  return lt_done("cusparseLtMatDescriptorDestroy", lt.MatDescriptorDestroy(&d->mat), e);
}

static int cl_sparse_destroy(void *storage, struct rt_err *e) {
  struct lt_sparse *m = storage;
  if (lt_begin("gpu.destroy_sp_mat", e) != 0)
    return -1;
  return lt_done("cusparseLtMatDescriptorDestroy", lt.MatDescriptorDestroy(&m->mat), e);
}

/* Whether A passes cuSPARSELt's 2:4 check; waits for the stream. */
static int lt_check(struct lt_sparse *a, void *stream, struct rt_err *e) {
  const struct rt_backend *b = rt_backend_peek();
  void *valid_dev = NULL;
  int valid = 1;
  if (b->mem_alloc(sizeof(int), 0, &valid_dev, e) != 0)
    return -1;
  status_t s = lt.SpMMAPruneCheck(&lt_handle, &a->matmul, a->values, valid_dev, stream);
  int rc = 0;
  if (s != 0)
    rc = lt_fail("cusparseLtSpMMAPruneCheck", s, e);
  else if (b->mem_copy(&valid, valid_dev, sizeof valid, stream, e) != 0 ||
           b->stream_synchronize(stream, e) != 0)
    rc = -1;
  struct rt_err ignored;
  b->mem_free(valid_dev, &ignored);
  if (rc == 0 && valid != 0)
    rt_warning("mgpuCuSparseLtSpMMBufferSize: the sparse matrix is not 2:4; results will be "
               "wrong");
  return rc;
}

static int cl_spmm_plan(size_t sizes[3], int mode_a, int mode_b, void *pa, void *pb, void *pc,
                        int compute_type, int prune, void *stream, struct rt_err *e) {
  struct lt_sparse *a = pa;
  struct lt_dense *b = pb, *c = pc;
  if (lt_begin("gpu.spmm_buffer_size", e) != 0)
    return -1;
  status_t s;
  int alg = 0;
  const char *call;
  if ((s = lt.MatmulDescriptorInit(&lt_handle, &a->matmul, mode_a, mode_b, &a->mat, &b->mat,
                                   &c->mat, &c->mat, compute_type)) != 0) {
    call = "cusparseLtMatmulDescriptorInit";
  } else if ((s = lt.MatmulAlgSelectionInit(&lt_handle, &a->alg_sel, &a->matmul,
                                            MATMUL_ALG_DEFAULT)) != 0) {
    call = "cusparseLtMatmulAlgSelectionInit";
  } else if ((s = lt.MatmulAlgSetAttribute(&lt_handle, &a->alg_sel, MATMUL_ALG_CONFIG_ID, &alg,
                                           sizeof alg)) != 0) {
    call = "cusparseLtMatmulAlgSetAttribute";
  } else if ((s = lt.MatmulPlanInit(&lt_handle, &a->plan, &a->matmul, &a->alg_sel)) != 0) {
    call = "cusparseLtMatmulPlanInit";
  } else if (prune > 0 && (s = lt.SpMMAPrune(&lt_handle, &a->matmul, a->values, a->values,
                                              PRUNE_SPMMA_STRIP, stream)) != 0) {
    call = "cusparseLtSpMMAPrune";
  } else if (prune == 2 && lt_check(a, stream, e) != 0) {
    lt_end();
    return -1;
  } else if ((s = lt.MatmulGetWorkspace(&lt_handle, &a->plan, &sizes[0])) != 0) {
    call = "cusparseLtMatmulGetWorkspace";
  } else {
    call = "cusparseLtSpMMACompressedSize";
    s = lt.SpMMACompressedSize(&lt_handle, &a->plan, &sizes[1], &sizes[2]);
  }
  return lt_done(call, s, e);
}

static int cl_spmm(void *pa, void *pb, void *pc, void *workspace, void *compressed,
                   void *compress_buffer, void *stream, struct rt_err *e) {
  struct lt_sparse *a = pa;
  struct lt_dense *b = pb, *c = pc;
  static const float one = 1;
  if (lt_begin("gpu.spmm", e) != 0)
    return -1;
  status_t s = lt.SpMMACompress(&lt_handle, &a->plan, a->values, compressed, compress_buffer,
                                stream);
  const char *call = "cusparseLtSpMMACompress";
  if (s == 0) {
    call = "cusparseLtMatmul";
    s = lt.Matmul(&lt_handle, &a->plan, &one, compressed, b->values, &one, c->values, c->values,
                  workspace, &stream, 1);
  }
  /* the plan serves one multiplication, as in upstream's wrappers */
  lt.MatmulPlanDestroy(&a->plan);
  return lt_done(call, s, e);
}

const struct sp_lt_backend sp_lt_backend_cusparselt = {
    .label = "cuSPARSELt",
    .start = cl_start,
    .stop = cl_stop,
    .dense_create = cl_dense_create,
    .sparse_create = cl_sparse_create,
    .dense_destroy = cl_dense_destroy,
    .sparse_destroy = cl_sparse_destroy,
    .spmm_plan = cl_spmm_plan,
    .spmm = cl_spmm,
};
