/* sparse_lt.c: the cuSPARSELt functions of MLIR's 2:4 sparse lowering.
 *
 * gpu.create_2to4_spmat, and gpu.create_dn_tensor / spmm_buffer_size /
 * spmm / destroy_* when they work on such a matrix, lower to these instead
 * of the cuSPARSE ones. The handles are storage the lowering alloca's
 * (sparse.h); the library environment is one per process, started on first
 * use (upstream's wrappers require an explicit mgpuCreateSparseLtEnv, which
 * gpu-to-llvm never emits for a program's own ops). */
#include <inttypes.h>
#include <stddef.h>

#include "sparse.h"

static const char op_create[] = "gpu.create_2to4_spmat";
static const char op_dense[] = "gpu.create_dn_tensor";

static void report_if(const char *fn, int rc, const struct rt_err *e) {
  if (rc != 0)
    sp_report(fn, e);
}

RT_EXPORT void mgpuCreateSparseLtEnv(void) {
  sp_lt_get("mgpuCreateSparseLtEnv", "the 2:4 sparse environment");
}

RT_EXPORT void mgpuDestroySparseLtEnv(void) {
  const struct sp_lt_backend *s = sp_lt_row(rt_backend_peek());
  if (s && s->stop)
    s->stop();
}

static int check_create(const char *fn, const char *op, void *storage, intptr_t rows,
                        intptr_t cols, void *values, int32_t dtp) {
  if (!storage) {
    rt_error("%s: %s: no handle storage (NULL)", fn, op);
    return -1;
  }
  if (rows < 0 || cols < 0) {
    rt_error("%s: %s: negative size %" PRIdPTR "x%" PRIdPTR, fn, op, rows, cols);
    return -1;
  }
  if (!values && rows * cols > 0) {
    rt_error("%s: %s: no values (NULL)", fn, op);
    return -1;
  }
  if (sp_value_bytes(dtp) == 0) {
    rt_error("%s: %s: unknown data type %d", fn, op, dtp);
    return -1;
  }
  return 0;
}

RT_EXPORT void mgpuCreateCuSparseLtDnMat(void *dh, intptr_t rows, intptr_t cols, void *values,
                                         int32_t dtp, void *stream) {
  static const char fn[] = "mgpuCreateCuSparseLtDnMat";
  (void)stream;
  if (check_create(fn, op_dense, dh, rows, cols, values, dtp) != 0)
    return;
  const struct sp_lt_backend *s = sp_lt_get(fn, op_dense);
  struct rt_err e;
  if (s)
    report_if(fn, s->dense_create(dh, rows, cols, values, dtp, &e), &e);
}

RT_EXPORT void mgpuCusparseLtCreate2To4SpMat(void *sh, intptr_t rows, intptr_t cols,
                                             void *values, int32_t dtp, void *stream) {
  static const char fn[] = "mgpuCusparseLtCreate2To4SpMat";
  (void)stream;
  if (check_create(fn, op_create, sh, rows, cols, values, dtp) != 0)
    return;
  const struct sp_lt_backend *s = sp_lt_get(fn, op_create);
  struct rt_err e;
  if (s)
    report_if(fn, s->sparse_create(sh, rows, cols, values, dtp, &e), &e);
}

RT_EXPORT void mgpuDestroyCuSparseLtDnMat(void *dh, void *stream) {
  static const char fn[] = "mgpuDestroyCuSparseLtDnMat";
  (void)stream;
  const struct sp_lt_backend *s = sp_lt_get(fn, "gpu.destroy_dn_tensor");
  struct rt_err e;
  if (s)
    report_if(fn, s->dense_destroy(dh, &e), &e);
}

RT_EXPORT void mgpuDestroyCuSparseLtSpMat(void *sh, void *stream) {
  static const char fn[] = "mgpuDestroyCuSparseLtSpMat";
  (void)stream;
  const struct sp_lt_backend *s = sp_lt_get(fn, "gpu.destroy_sp_mat");
  struct rt_err e;
  if (s)
    report_if(fn, s->sparse_destroy(sh, &e), &e);
}

RT_EXPORT void mgpuCuSparseLtSpMMBufferSize(void *sizes, int32_t ma, int32_t mb, void *a, void *b,
                                            void *c, int32_t ctp, int32_t prune, void *stream) {
  static const char fn[] = "mgpuCuSparseLtSpMMBufferSize";
  static const char op[] = "gpu.spmm_buffer_size";
  if (!sizes || !a || !b || !c) {
    rt_error("%s: %s: a handle or the sizes are NULL", fn, op);
    return;
  }
  if (ma < SP_OP_NON_TRANSPOSE || ma > SP_OP_CONJUGATE_TRANSPOSE || mb < SP_OP_NON_TRANSPOSE ||
      mb > SP_OP_CONJUGATE_TRANSPOSE) {
    rt_error("%s: %s: unknown operation modes %d, %d", fn, op, ma, mb);
    return;
  }
  const struct sp_lt_backend *s = sp_lt_get(fn, op);
  struct rt_err e;
  if (s)
    report_if(fn, s->spmm_plan((size_t *)sizes, ma, mb, a, b, c, ctp, prune, stream, &e), &e);
}

RT_EXPORT void mgpuCuSparseLtSpMM(void *a, void *b, void *c, void *workspace, void *compressed,
                                  void *compressBuffer, void *stream) {
  static const char fn[] = "mgpuCuSparseLtSpMM";
  if (!a || !b || !c) {
    rt_error("%s: gpu.spmm: a handle is NULL", fn);
    return;
  }
  const struct sp_lt_backend *s = sp_lt_get(fn, "gpu.spmm");
  struct rt_err e;
  if (s)
    report_if(fn, s->spmm(a, b, c, workspace, compressed, compressBuffer, stream, &e), &e);
}
