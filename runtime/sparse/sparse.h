/* sparse.h: what the sparse files (runtime/sparse/) share.
 *
 * MLIR's gpu sparse ops (gpu.create_csr, gpu.spmv, gpu.spgemm_*, ...) lower
 * to calls of the mgpu* functions of sparse_abi.h, which upstream implements
 * over cuSPARSE and cuSPARSELt only. Here the exported functions check their
 * arguments and report errors once (sparse_api.c, sparse_compute.c,
 * sparse_lt.c) and hand the work to the sparse row of the backend the
 * runtime chose: the CPU (cpu_backend.c), cuSPARSE or hipSPARSE (vendor.c),
 * cuSPARSELt (vendor_lt.c). Everything here is hidden.
 *
 * Handles. Every matrix or vector handle the functions return is a struct
 * of this header, made by common code, tagged with a magic number (a handle
 * of another kind, or a stale one, is reported instead of followed), holding
 * what the program passed and, on a GPU backend, the library's descriptor.
 * The arrays are the program's (device memory); handles never own them.
 *
 * Codes. Element, index and operation codes are the values of CUDA's
 * library_types.h and cusparse.h, which MLIR's lowering passes as i32 and
 * hipSPARSE shares. */
#ifndef GPUCC_RT_SPARSE_H
#define GPUCC_RT_SPARSE_H

#include <stddef.h>
#include <stdint.h>

#include "rt.h"
#include "sparse_abi.h"

/* cudaDataType_t (library_types.h). */
enum {
  SP_R_32F = 0,
  SP_R_64F = 1,
  SP_R_16F = 2,
  SP_R_8I = 3,
  SP_C_32F = 4,
  SP_C_64F = 5,
  SP_C_16F = 6,
  SP_R_32I = 10,
  SP_R_16BF = 14,
  SP_C_16BF = 15,
};
/* cusparseIndexType_t. */
enum { SP_INDEX_16U = 1, SP_INDEX_32I = 2, SP_INDEX_64I = 3 };
/* cusparseOperation_t. */
enum { SP_OP_NON_TRANSPOSE = 0, SP_OP_TRANSPOSE = 1, SP_OP_CONJUGATE_TRANSPOSE = 2 };

enum sp_format { SP_COO, SP_COO_AOS, SP_CSR, SP_CSC, SP_BSR };

enum { SP_MAGIC_MATRIX = 0x5350a7u, SP_MAGIC_DENSE = 0x5344e5u, SP_MAGIC_SPGEMM = 0x5347e3u };

/* A sparse matrix. rows/cols/nnz are in elements, except BSR: block rows,
 * block columns, blocks, each rblock x cblock (row-major inside a block).
 *   COO      pos: row of each entry, idx: column of each entry
 *   COO_AOS  idx: (row, column) pairs; pos unused
 *   CSR      pos: rows + 1 offsets, idx: columns
 *   CSC      pos: cols + 1 offsets, idx: rows
 *   BSR      pos: block rows + 1 offsets, idx: block columns */
struct sp_matrix {
  uint32_t magic;
  enum sp_format format;
  int64_t rows, cols, nnz;
  int64_t rblock, cblock;
  void *pos, *idx, *vals;
  int ptype, itype, dtype; /* ptype: of pos for CSR/CSC/BSR, else itype */
  void *vendor;            /* the library's descriptor; NULL on the CPU */
};

/* A dense vector (rank 1, cols 1) or row-major matrix (leading dimension
 * cols). */
struct sp_dense {
  uint32_t magic;
  int rank;
  int64_t rows, cols;
  void *vals;
  int dtype;
  void *vendor;
};

/* The state of one SpGEMM: on a GPU the library's descriptor; on the CPU
 * the product, made by the compute step and copied out by the copy step. */
struct sp_spgemm {
  uint32_t magic;
  void *vendor;
  int computed;
  int64_t rows, cols, nnz;
  int64_t *pos, *idx; /* CSR, rows + 1 and nnz entries */
  double *vals;
};

enum sp_kind { SP_SPMV, SP_SPMM, SP_SDDMM, SP_SPGEMM_ESTIMATE, SP_SPGEMM_COMPUTE, SP_SPGEMM_COPY };

/* One computation, alpha = beta = 1 as in upstream's wrappers:
 *   SpMV    y = op(A) x + y                 a: sp, x: dn(b), y: dn(c)
 *   SpMM    C = op(A) op(B) + C             a: sp, b: dn, c: dn
 *   SDDMM   C = (op(A) op(B)) .* spy(C) + C a: dn, b: dn, c: sp
 *   SpGEMM  C = op(A) op(B) (estimate, compute, copy; C replaced)  a, b, c: sp */
struct sp_op {
  enum sp_kind kind;
  const char *name; /* "gpu.spmv", for messages */
  int mode_a, mode_b, compute_type;
  struct sp_matrix *sa, *sc_sparse;
  struct sp_dense *da, *db, *dc;
  struct sp_matrix *sb_sparse; /* SpGEMM's B */
  struct sp_spgemm *spgemm;
  void *buffer;
  size_t buffer_size;
  void *stream;
};

/* One sparse library: the row of a runtime backend. Every operation returns
 * 0, or -1 with e set (e->detail a complete sentence); `op` names the gpu op
 * for messages ("gpu.spmv"). */
struct sp_backend {
  const char *label; /* "cuSPARSE", "the CPU" */
  /* Makes the library usable (dlopen, handle) on first use; -1 with e set
   * when it cannot be (the library is missing). */
  int (*start)(const char *op, struct rt_err *e);
  int (*matrix_create)(struct sp_matrix *m, struct rt_err *e);
  int (*matrix_destroy)(struct sp_matrix *m, struct rt_err *e);
  int (*dense_create)(struct sp_dense *d, struct rt_err *e);
  int (*dense_destroy)(struct sp_dense *d, struct rt_err *e);
  /* The current rows, cols, nnz (an SpGEMM result's nnz is known only
   * after its compute step). */
  int (*matrix_size)(struct sp_matrix *m, int64_t out[3], struct rt_err *e);
  /* m's pos, idx and vals were just replaced (gpu.set_csr_pointers). */
  int (*set_csr_pointers)(struct sp_matrix *m, struct rt_err *e);
  int (*spgemm_create)(struct sp_spgemm *g, struct rt_err *e);
  int (*spgemm_destroy)(struct sp_spgemm *g, struct rt_err *e);
  /* The work buffer op needs, in bytes (SpMV, SpMM, SDDMM). */
  int (*buffer_size)(const struct sp_op *op, size_t *bytes, struct rt_err *e);
  /* Runs op; for the SpGEMM steps, *bytes is the buffer size in and the
   * size the step wants out (cuSPARSE's protocol). */
  int (*run)(const struct sp_op *op, size_t *bytes, struct rt_err *e);
  /* Ends the library's handle (mgpuDestroySparseEnv); a later operation
   * starts it again. NULL when there is none. */
  void (*stop)(void);
};

/* 2:4 structured sparsity (cuSPARSELt). The program provides each handle's
 * storage (alloca'ed by MLIR's lowering: SP_LT_SPMAT_BYTES for a sparse
 * matrix, SP_LT_DNMAT_BYTES for a dense one, 16-byte aligned); a backend
 * lays its state out in it. */
enum { SP_LT_SPMAT_BYTES = 44104, SP_LT_DNMAT_BYTES = 11032 };

struct sp_lt_backend {
  const char *label;
  int (*start)(const char *op, struct rt_err *e);
  void (*stop)(void);
  int (*dense_create)(void *storage, int64_t rows, int64_t cols, void *vals, int dtype,
                      struct rt_err *e);
  int (*sparse_create)(void *storage, int64_t rows, int64_t cols, void *vals, int dtype,
                       struct rt_err *e);
  int (*dense_destroy)(void *storage, struct rt_err *e);
  int (*sparse_destroy)(void *storage, struct rt_err *e);
  /* Plans C = op(A) op(B) + C, prunes A in place (prune 1, 2) and checks
   * it (2); sizes[3]: workspace, compressed A, compression buffer. */
  int (*spmm_plan)(size_t sizes[3], int mode_a, int mode_b, void *a, void *b, void *c,
                   int compute_type, int prune, void *stream, struct rt_err *e);
  int (*spmm)(void *a, void *b, void *c, void *workspace, void *compressed,
              void *compress_buffer, void *stream, struct rt_err *e);
};

/* ---- the rows (cpu_backend.c, vendor.c, vendor_lt.c, cpu_lt.c) ---- */

extern const struct sp_backend sp_backend_cpu;
extern const struct sp_backend sp_backend_cusparse;
extern const struct sp_backend sp_backend_hipsparse;
extern const struct sp_lt_backend sp_lt_backend_cpu;
extern const struct sp_lt_backend sp_lt_backend_cusparselt;

/* ---- sparse_api.c: dispatch and reports ---- */

/* Starts the runtime and the sparse library of its backend for op (of
 * mgpu function fn); NULL after reporting when either cannot start. */
const struct sp_backend *sp_get(const char *fn, const char *op);
const struct sp_lt_backend *sp_lt_get(const char *fn, const char *op);
/* The 2:4 library of runtime backend b (NULL: it has none), without
 * starting it. */
const struct sp_lt_backend *sp_lt_row(const struct rt_backend *b);
/* Reports e on behalf of fn (rt_error). */
void sp_report(const char *fn, const struct rt_err *e);
/* The handle h as a matrix, dense vector/matrix or SpGEMM state; NULL after
 * reporting "<fn>: <what> is not a ..." when it is not one. */
struct sp_matrix *sp_matrix_of(const char *fn, const char *what, void *h);
struct sp_dense *sp_dense_of(const char *fn, const char *what, void *h);
struct sp_spgemm *sp_spgemm_of(const char *fn, void *h);

/* ---- sparse_types.c: codes ---- */

/* Bytes of one element of a value type; 0 for a code not known. */
size_t sp_value_bytes(int dtype);
/* "f32", "complex<f64>", or "data type 42". Returns buf or a constant. */
const char *sp_value_name(int dtype, char *buf, size_t len);
/* Bytes of one index; 0 for a code not known. */
size_t sp_index_bytes(int itype);
const char *sp_format_name(enum sp_format f);
/* Whether the CPU computes with this value type (real: f16, bf16, f32,
 * f64). */
int sp_cpu_value_type(int dtype);

/* Element i of an array of the value type, as a double, and back (rounded
 * to nearest, ties to even). Only for sp_cpu_value_type types. */
double sp_load(int dtype, const void *base, int64_t i);
void sp_store(int dtype, void *base, int64_t i, double v);
/* Index i of an index array, and back. */
int64_t sp_index_load(int itype, const void *base, int64_t i);
void sp_index_store(int itype, void *base, int64_t i, int64_t v);

/* ---- cpu_expand.c: any format as entries ---- */

/* A sparse matrix as its entries (row, column, value), in storage order:
 * entry k is the k-th value of the matrix's vals (BSR: of its blocks'
 * elements), so results can be written back at slot k. */
struct sp_entries {
  int64_t rows, cols, count;
  int64_t *row, *col;
  double *val;
};

/* Reads m's arrays (host memory) into e, checking every offset and index
 * against the shape; on failure writes why and returns -1. */
int sp_entries_read(const struct sp_matrix *m, struct sp_entries *e, char *why, size_t len);
void sp_entries_free(struct sp_entries *e);

/* ---- cpu_kernels.c: the computations, in double ---- */

/* The element (r, c) of op(M) for a row-major rows x cols matrix M. */
static inline double sp_dense_at(const double *m, int64_t cols, int trans, int64_t r, int64_t c) {
  return trans ? m[c * cols + r] : m[r * cols + c];
}

/* y += op(A) x. */
void sp_cpu_spmv(const struct sp_entries *a, int trans, const double *x, double *y);
/* C += op(A) op(B): B is brows x bcols row-major, C has n columns. */
void sp_cpu_spmm(const struct sp_entries *a, int trans_a, const double *b, int64_t bcols,
                 int trans_b, double *c, int64_t n);
/* vals[k] += (op(A) op(B))(row k, col k) for each entry of c: A is
 * arows x acols, B brows x bcols, row-major; k = op(A)'s columns. */
void sp_cpu_sddmm(const double *a, int64_t acols, int trans_a, const double *b, int64_t bcols,
                  int trans_b, int64_t k, const struct sp_entries *c, double *vals);
/* C = op(A) op(B) as CSR (columns sorted within each row; entries that sum
 * to zero are kept, as structural nonzeros). -1 when out of memory. */
int sp_cpu_spgemm(const struct sp_entries *a, int trans_a, const struct sp_entries *b,
                  int trans_b, struct sp_spgemm *c);
/* Keeps, in each group of 4 consecutive elements of a row, the 2 of
 * largest magnitude (the first on ties) and zeroes the others; a last
 * group shorter than 4 keeps 2 as well. In place. */
void sp_cpu_prune_2to4(double *m, int64_t rows, int64_t cols);
/* Whether every group of 4 of every row has at most 2 nonzeros. */
int sp_cpu_is_2to4(const double *m, int64_t rows, int64_t cols);

/* ---- vendor.c / vendor_lt.c: the vendor libraries ---- */

/* Makes the device's context current around library calls (the hook of
 * struct rt_backend); both do nothing on a backend without one. */
int sp_context_enter(struct rt_err *e);
void sp_context_leave(void);

#endif
