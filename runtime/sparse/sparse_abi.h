/* sparse_abi.h: the sparse mgpu* functions, with the signatures MLIR 22's
 * gpu-to-llvm lowering declares for the gpu sparse ops (index is intptr_t,
 * i32 int32_t, every handle and stream a pointer).
 *
 * Handles returned here belong to the caller until passed to the matching
 * destroy function; the arrays passed in stay the caller's. Alpha and beta
 * are 1, as in upstream's wrappers. A failure is reported as every runtime
 * error is (gpucc_rt.h): the program ends, or, with a handler installed,
 * the function returns NULL / 0 / nothing. */
#ifndef GPUCC_RT_SPARSE_ABI_H
#define GPUCC_RT_SPARSE_ABI_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The library handle: made on first use anyway; these only let sparsifier
 * code start and end it where it wants. */
void mgpuCreateSparseEnv(void);
void mgpuDestroySparseEnv(void);

/* gpu.create_dn_tensor (rank 1, rank 2), gpu.destroy_dn_tensor. */
void *mgpuCreateDnVec(intptr_t size, void *values, int32_t dtp, void *stream);
void mgpuDestroyDnVec(void *v, void *stream);
void *mgpuCreateDnMat(intptr_t rows, intptr_t cols, void *values, int32_t dtp, void *stream);
void mgpuDestroyDnMat(void *m, void *stream);

/* gpu.create_coo, create_coo_aos, create_csr, create_csc, create_bsr,
 * destroy_sp_mat. */
void *mgpuCreateCoo(intptr_t rows, intptr_t cols, intptr_t nnz, void *rowIdxs, void *colIdxs,
                    void *values, int32_t itp, int32_t dtp, void *stream);
void *mgpuCreateCooAoS(intptr_t rows, intptr_t cols, intptr_t nnz, void *idxs, void *values,
                       int32_t itp, int32_t dtp, void *stream);
void *mgpuCreateCsr(intptr_t rows, intptr_t cols, intptr_t nnz, void *rowPos, void *colIdxs,
                    void *values, int32_t ptp, int32_t itp, int32_t dtp, void *stream);
void *mgpuCreateCsc(intptr_t rows, intptr_t cols, intptr_t nnz, void *colPos, void *rowIdxs,
                    void *values, int32_t ptp, int32_t itp, int32_t dtp, void *stream);
void *mgpuCreateBsr(intptr_t brows, intptr_t bcols, intptr_t bnnz, intptr_t rBsz, intptr_t cBsz,
                    void *rowPos, void *colIdxs, void *values, int32_t ptp, int32_t itp,
                    int32_t dtp, void *stream);
void mgpuDestroySpMat(void *m, void *stream);

/* gpu.spmat_get_size (rows, cols, nnz as int64), gpu.set_csr_pointers. */
void mgpuSpMatGetSize(void *m, void *rows, void *cols, void *nnz, void *stream);
void mgpuSetCsrPointers(void *m, void *pos, void *crd, void *values, void *stream);

/* gpu.spmv_buffer_size, spmv, spmm_buffer_size, spmm, sddmm_buffer_size,
 * sddmm. Modes are cusparseOperation_t, ctp a data type code. */
intptr_t mgpuSpMVBufferSize(int32_t ma, void *a, void *x, void *y, int32_t ctp, void *stream);
void mgpuSpMV(int32_t ma, void *a, void *x, void *y, int32_t ctp, void *buf, void *stream);
intptr_t mgpuSpMMBufferSize(int32_t ma, int32_t mb, void *a, void *b, void *c, int32_t ctp,
                            void *stream);
void mgpuSpMM(int32_t ma, int32_t mb, void *a, void *b, void *c, int32_t ctp, void *buf,
              void *stream);
intptr_t mgpuSDDMMBufferSize(int32_t ma, int32_t mb, void *a, void *b, void *c, int32_t ctp,
                             void *stream);
void mgpuSDDMM(int32_t ma, int32_t mb, void *a, void *b, void *c, int32_t ctp, void *buf,
               void *stream);

/* gpu.spgemm_create_descr, spgemm_destroy_descr,
 * spgemm_work_estimation_or_compute {WORK_ESTIMATION, COMPUTE}, spgemm_copy. */
void *mgpuSpGEMMCreateDescr(void *stream);
void mgpuSpGEMMDestroyDescr(void *desc, void *stream);
intptr_t mgpuSpGEMMWorkEstimation(void *desc, int32_t ma, int32_t mb, void *a, void *b, void *c,
                                  int32_t ctp, intptr_t bs, void *buf, void *stream);
intptr_t mgpuSpGEMMCompute(void *desc, int32_t ma, int32_t mb, void *a, void *b, void *c,
                           int32_t ctp, intptr_t bs, void *buf, void *stream);
void mgpuSpGEMMCopy(void *desc, int32_t ma, int32_t mb, void *a, void *b, void *c, int32_t ctp,
                    void *stream);

/* 2:4 sparsity (cuSPARSELt): gpu.create_2to4_spmat, and gpu.create_dn_tensor,
 * spmm_buffer_size, spmm, destroy_* on such matrices. The handles are
 * storage the caller provides (44104 bytes for the sparse matrix, 11032 for
 * a dense one). sizes receives 3 size_t: workspace, compressed matrix,
 * compression buffer; prune is 0 (none), 1 (prune A in place) or 2 (prune
 * and check). */
void mgpuCreateSparseLtEnv(void);
void mgpuDestroySparseLtEnv(void);
void mgpuCreateCuSparseLtDnMat(void *dh, intptr_t rows, intptr_t cols, void *values, int32_t dtp,
                               void *stream);
void mgpuDestroyCuSparseLtDnMat(void *dh, void *stream);
void mgpuCusparseLtCreate2To4SpMat(void *sh, intptr_t rows, intptr_t cols, void *values,
                                   int32_t dtp, void *stream);
void mgpuDestroyCuSparseLtSpMat(void *sh, void *stream);
void mgpuCuSparseLtSpMMBufferSize(void *sizes, int32_t ma, int32_t mb, void *a, void *b, void *c,
                                  int32_t ctp, int32_t prune, void *stream);
void mgpuCuSparseLtSpMM(void *a, void *b, void *c, void *workspace, void *compressed,
                        void *compressBuffer, void *stream);

#ifdef __cplusplus
}
#endif

#endif
