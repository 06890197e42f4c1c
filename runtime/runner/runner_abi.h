/* runner_abi.h: the C ABI of MLIR's runner utilities, as libgpucc_rt exports it.
 *
 * These are the functions that code lowered by MLIR calls (vector.print,
 * memref.copy of non-identity layouts, printMemref* and verifyMemRef* in
 * test programs), with the names and argument lists of upstream's
 * libmlir_c_runner_utils, libmlir_runner_utils and libmlir_float16_utils, so
 * that a program links against libgpucc_rt instead of those three (which pull
 * in libMLIR and libLLVM). What they print is byte for byte what upstream
 * prints; runtime/runner/README.md lists the quirks that this requires.
 *
 * Memrefs come in two forms:
 *  - ranked: a pointer to the descriptor itself, struct rt_ranked_memref
 *    followed by sizes[rank] and strides[rank] (int64_t each, in elements);
 *  - unranked: {rank, pointer to a ranked descriptor}, passed by pointer to
 *    the _mlir_ciface_* functions and as two arguments (rank, descriptor) to
 *    the plain ones (printMemrefF32(rank, desc)).
 * Elements are located at aligned + offset + sum(index[i] * strides[i]).
 * f16 and bf16 elements and arguments are their 16 bits (uint16_t), complex
 * elements are {real, imaginary} pairs, index elements are uint64_t.
 *
 * Nothing here allocates except mlirAlloc, mlirAlignedAlloc and rtsrand,
 * whose results the caller frees with mlirFree, mlirAlignedFree and rtdrand.
 * The sparse-tensor runtime of libmlir_c_runner_utils is not provided. */
#ifndef GPUCC_RUNNER_ABI_H
#define GPUCC_RUNNER_ABI_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The fixed head of every ranked descriptor; sizes then strides follow. */
struct rt_ranked_memref {
  void *allocated;
  void *aligned;
  int64_t offset;
  int64_t sizes_and_strides[];
};

/* What MLIR passes for a memref of unknown rank. */
struct rt_unranked_memref {
  int64_t rank;
  void *descriptor; /* a struct rt_ranked_memref with that rank */
};

/* ---- vector.print (stdout, no newline unless said) ---- */
void printI64(int64_t i);
void printU64(uint64_t u);
void printF32(float f);
void printF64(double d);
void printF16(uint16_t bits);
void printBF16(uint16_t bits);
void printString(const char *s);
void printOpen(void);    /* "( " */
void printClose(void);   /* " )" */
void printComma(void);   /* ", " */
void printNewline(void); /* "\n" */
void gpuccAssertFailed(const char *message, const char *file, uint32_t line); /* gpucc's own */
void gpuccPrintEntryResultI64(int64_t v); /* gpucc's own: -e's result */
void gpuccPrintEntryResultF32(float v);

/* ---- timing ---- */
void printFlops(double flops); /* "<flops / 1e9> GFLOPS\n" on stderr */
double rtclock(void);          /* seconds since the Epoch, microsecond steps */
int64_t _mlir_ciface_nanoTime(void); /* nanoseconds since the Epoch */

/* ---- memory ---- */
/* memref.copy: copies every element of src into the same index of dst (same
 * shape, any strides); elemSize is the element size in bytes. */
void memrefCopy(int64_t elemSize, struct rt_unranked_memref *src,
                struct rt_unranked_memref *dst);
void *mlirAlloc(uint64_t size);
void *mlirAlignedAlloc(uint64_t alignment, uint64_t size);
void mlirFree(void *ptr);
void mlirAlignedFree(void *ptr);

/* ---- random numbers (std::mt19937, draws as libstdc++ makes them) ---- */
void *rtsrand(uint64_t seed);          /* a generator; free with rtdrand */
uint64_t rtrand(void *g, uint64_t m);  /* uniform in [0, m], m included */
void rtdrand(void *g);
/* Writes a random permutation of 0..sizes[0]-1 to the sizes[0] elements
 * from aligned + offset on, contiguously: the stride is not applied, as
 * upstream does not apply it. */
void _mlir_ciface_shuffle(struct rt_ranked_memref *m, void *g);

/* ---- sorting the n elements at aligned + offset (a 1-d memref) ---- */
void _mlir_ciface_stdSortI64(uint64_t n, struct rt_ranked_memref *m);
void _mlir_ciface_stdSortF64(uint64_t n, struct rt_ranked_memref *m);
void _mlir_ciface_stdSortF32(uint64_t n, struct rt_ranked_memref *m);

/* ---- printing memrefs (stdout, flushed) ---- */
void _mlir_ciface_printMemrefI8(struct rt_unranked_memref *m);
void _mlir_ciface_printMemrefI16(struct rt_unranked_memref *m);
void _mlir_ciface_printMemrefI32(struct rt_unranked_memref *m);
void _mlir_ciface_printMemrefI64(struct rt_unranked_memref *m);
void _mlir_ciface_printMemrefInd(struct rt_unranked_memref *m);
void _mlir_ciface_printMemrefF16(struct rt_unranked_memref *m);
void _mlir_ciface_printMemrefBF16(struct rt_unranked_memref *m);
void _mlir_ciface_printMemrefF32(struct rt_unranked_memref *m);
void _mlir_ciface_printMemrefF64(struct rt_unranked_memref *m);
void _mlir_ciface_printMemrefC32(struct rt_unranked_memref *m);
void _mlir_ciface_printMemrefC64(struct rt_unranked_memref *m);

void printMemrefI8(int64_t rank, void *descriptor);  /* gpucc's own */
void printMemrefI16(int64_t rank, void *descriptor); /* gpucc's own */
void printMemrefF16(int64_t rank, void *descriptor); /* gpucc's own */
void printMemrefBF16(int64_t rank, void *descriptor); /* gpucc's own */
void printMemrefI32(int64_t rank, void *descriptor);
void printMemrefI64(int64_t rank, void *descriptor);
void printMemrefInd(int64_t rank, void *descriptor);
void printMemrefF32(int64_t rank, void *descriptor);
void printMemrefF64(int64_t rank, void *descriptor);
void printMemrefC32(int64_t rank, void *descriptor);
void printMemrefC64(int64_t rank, void *descriptor);

/* Ranked: the argument is the descriptor of that rank. */
void _mlir_ciface_printMemref0dF32(struct rt_ranked_memref *m);
void _mlir_ciface_printMemref1dF32(struct rt_ranked_memref *m);
void _mlir_ciface_printMemref2dF32(struct rt_ranked_memref *m);
void _mlir_ciface_printMemref3dF32(struct rt_ranked_memref *m);
void _mlir_ciface_printMemref4dF32(struct rt_ranked_memref *m);
void _mlir_ciface_printMemref1dI8(struct rt_ranked_memref *m);
void _mlir_ciface_printMemref1dI32(struct rt_ranked_memref *m);
void _mlir_ciface_printMemref1dI64(struct rt_ranked_memref *m);
void _mlir_ciface_printMemref1dInd(struct rt_ranked_memref *m);
void _mlir_ciface_printMemref1dF64(struct rt_ranked_memref *m);
void _mlir_ciface_printMemref1dC32(struct rt_ranked_memref *m);
void _mlir_ciface_printMemref1dC64(struct rt_ranked_memref *m);
/* A 2-d memref whose elements are vector<4x4xf32> (64 bytes each). */
void _mlir_ciface_printMemrefVector4x4xf32(struct rt_ranked_memref *m);

/* Only the descriptor, one line, not flushed. */
void _mlir_ciface_printMemrefShapeI8(struct rt_unranked_memref *m);
void _mlir_ciface_printMemrefShapeI32(struct rt_unranked_memref *m);
void _mlir_ciface_printMemrefShapeI64(struct rt_unranked_memref *m);
void _mlir_ciface_printMemrefShapeInd(struct rt_unranked_memref *m);
void _mlir_ciface_printMemrefShapeF32(struct rt_unranked_memref *m);
void _mlir_ciface_printMemrefShapeF64(struct rt_unranked_memref *m);
void _mlir_ciface_printMemrefShapeC32(struct rt_unranked_memref *m);
void _mlir_ciface_printMemrefShapeC64(struct rt_unranked_memref *m);

/* ---- verifying: the number of elements that differ (at most 10 of them are
 * printed to stderr), or -1 when the descriptors' shapes differ ---- */
int64_t _mlir_ciface_verifyMemRefI8(struct rt_unranked_memref *actual,
                                    struct rt_unranked_memref *expected);
int64_t _mlir_ciface_verifyMemRefI16(struct rt_unranked_memref *actual,
                                     struct rt_unranked_memref *expected);
int64_t _mlir_ciface_verifyMemRefI32(struct rt_unranked_memref *actual,
                                     struct rt_unranked_memref *expected);
int64_t _mlir_ciface_verifyMemRefI64(struct rt_unranked_memref *actual,
                                     struct rt_unranked_memref *expected);
int64_t _mlir_ciface_verifyMemRefInd(struct rt_unranked_memref *actual,
                                     struct rt_unranked_memref *expected);
int64_t _mlir_ciface_verifyMemRefF16(struct rt_unranked_memref *actual,
                                     struct rt_unranked_memref *expected);
int64_t _mlir_ciface_verifyMemRefBF16(struct rt_unranked_memref *actual,
                                      struct rt_unranked_memref *expected);
int64_t _mlir_ciface_verifyMemRefF32(struct rt_unranked_memref *actual,
                                     struct rt_unranked_memref *expected);
int64_t _mlir_ciface_verifyMemRefF64(struct rt_unranked_memref *actual,
                                     struct rt_unranked_memref *expected);
int64_t _mlir_ciface_verifyMemRefC32(struct rt_unranked_memref *actual,
                                     struct rt_unranked_memref *expected);
int64_t _mlir_ciface_verifyMemRefC64(struct rt_unranked_memref *actual,
                                     struct rt_unranked_memref *expected);

int64_t verifyMemRefI32(int64_t rank, void *actual, void *expected);
int64_t verifyMemRefInd(int64_t rank, void *actual, void *expected);
int64_t verifyMemRefF32(int64_t rank, void *actual, void *expected);
int64_t verifyMemRefF64(int64_t rank, void *actual, void *expected);
int64_t verifyMemRefC32(int64_t rank, void *actual, void *expected);
int64_t verifyMemRefC64(int64_t rank, void *actual, void *expected);

#ifdef __cplusplus
}
#endif

#endif
