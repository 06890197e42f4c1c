/* runner_print_memref.c: the printMemref* and printMemrefShape* entry points.
 *
 * One function per element type and form, as upstream names them; each
 * turns its descriptor into a view and hands it to runner_memref.c. The
 * prefix tells the forms apart in the output, as upstream's does: unranked
 * ones (_mlir_ciface_printMemrefF32, printMemrefF32(rank, desc)) print
 * "Unranked Memref ", the ranked ones (_mlir_ciface_printMemref2dF32)
 * "Memref ". Upstream has no plain form for i8, i16, f16 and bf16, no
 * ranked form beyond these and no Shape form for i16, f16 and bf16; neither
 * have we. */
#include "runner.h"

static const char unranked_prefix[] = "Unranked Memref ";
static const char ranked_prefix[] = "Memref ";

static void print_unranked(const struct rt_unranked_memref *m, enum rt_elem_kind kind) {
  struct rt_memref view = rt_memref_unranked(m->rank, m->descriptor);
  rt_memref_print(unranked_prefix, &view, kind);
}

static void print_plain(int64_t rank, const void *descriptor, enum rt_elem_kind kind) {
  struct rt_memref view = rt_memref_unranked(rank, descriptor);
  rt_memref_print(unranked_prefix, &view, kind);
}

static void print_ranked(const struct rt_ranked_memref *m, int64_t rank,
                         enum rt_elem_kind kind) {
  struct rt_memref view = rt_memref_ranked(m, rank);
  rt_memref_print(ranked_prefix, &view, kind);
}

/* The descriptor alone, on one line, not flushed. */
static void print_shape(const struct rt_unranked_memref *m) {
  struct rt_memref view = rt_memref_unranked(m->rank, m->descriptor);
  fputs(unranked_prefix, stdout);
  rt_memref_print_metadata(stdout, &view);
  fputc('\n', stdout);
}

RT_EXPORT void _mlir_ciface_printMemrefI8(struct rt_unranked_memref *m) {
  print_unranked(m, RT_ELEM_I8);
}

RT_EXPORT void _mlir_ciface_printMemrefI16(struct rt_unranked_memref *m) {
  print_unranked(m, RT_ELEM_I16);
}

RT_EXPORT void _mlir_ciface_printMemrefI32(struct rt_unranked_memref *m) {
  print_unranked(m, RT_ELEM_I32);
}

RT_EXPORT void _mlir_ciface_printMemrefI64(struct rt_unranked_memref *m) {
  print_unranked(m, RT_ELEM_I64);
}

RT_EXPORT void _mlir_ciface_printMemrefInd(struct rt_unranked_memref *m) {
  print_unranked(m, RT_ELEM_INDEX);
}

RT_EXPORT void _mlir_ciface_printMemrefF16(struct rt_unranked_memref *m) {
  print_unranked(m, RT_ELEM_F16);
}

RT_EXPORT void _mlir_ciface_printMemrefBF16(struct rt_unranked_memref *m) {
  print_unranked(m, RT_ELEM_BF16);
}

RT_EXPORT void _mlir_ciface_printMemrefF32(struct rt_unranked_memref *m) {
  print_unranked(m, RT_ELEM_F32);
}

RT_EXPORT void _mlir_ciface_printMemrefF64(struct rt_unranked_memref *m) {
  print_unranked(m, RT_ELEM_F64);
}

RT_EXPORT void _mlir_ciface_printMemrefC32(struct rt_unranked_memref *m) {
  print_unranked(m, RT_ELEM_C32);
}

RT_EXPORT void _mlir_ciface_printMemrefC64(struct rt_unranked_memref *m) {
  print_unranked(m, RT_ELEM_C64);
}

/* Upstream has no plain I8, I16, F16 and BF16 versions (only the
 * _mlir_ciface_ ones); a program that declares them without
 * llvm.emit_c_interface links here all the same. */
RT_EXPORT void printMemrefI8(int64_t rank, void *desc) {
  print_plain(rank, desc, RT_ELEM_I8);
}

RT_EXPORT void printMemrefI16(int64_t rank, void *desc) {
  print_plain(rank, desc, RT_ELEM_I16);
}

RT_EXPORT void printMemrefF16(int64_t rank, void *desc) {
  print_plain(rank, desc, RT_ELEM_F16);
}

RT_EXPORT void printMemrefBF16(int64_t rank, void *desc) {
  print_plain(rank, desc, RT_ELEM_BF16);
}

RT_EXPORT void printMemrefI32(int64_t rank, void *desc) {
  print_plain(rank, desc, RT_ELEM_I32);
}

RT_EXPORT void printMemrefI64(int64_t rank, void *desc) {
  print_plain(rank, desc, RT_ELEM_I64);
}

RT_EXPORT void printMemrefInd(int64_t rank, void *desc) {
  print_plain(rank, desc, RT_ELEM_INDEX);
}

RT_EXPORT void printMemrefF32(int64_t rank, void *desc) {
  print_plain(rank, desc, RT_ELEM_F32);
}

RT_EXPORT void printMemrefF64(int64_t rank, void *desc) {
  print_plain(rank, desc, RT_ELEM_F64);
}

RT_EXPORT void printMemrefC32(int64_t rank, void *desc) {
  print_plain(rank, desc, RT_ELEM_C32);
}

RT_EXPORT void printMemrefC64(int64_t rank, void *desc) {
  print_plain(rank, desc, RT_ELEM_C64);
}

RT_EXPORT void _mlir_ciface_printMemref0dF32(struct rt_ranked_memref *m) {
  print_ranked(m, 0, RT_ELEM_F32);
}

RT_EXPORT void _mlir_ciface_printMemref1dF32(struct rt_ranked_memref *m) {
  print_ranked(m, 1, RT_ELEM_F32);
}

RT_EXPORT void _mlir_ciface_printMemref2dF32(struct rt_ranked_memref *m) {
  print_ranked(m, 2, RT_ELEM_F32);
}

RT_EXPORT void _mlir_ciface_printMemref3dF32(struct rt_ranked_memref *m) {
  print_ranked(m, 3, RT_ELEM_F32);
}

RT_EXPORT void _mlir_ciface_printMemref4dF32(struct rt_ranked_memref *m) {
  print_ranked(m, 4, RT_ELEM_F32);
}

RT_EXPORT void _mlir_ciface_printMemref1dI8(struct rt_ranked_memref *m) {
  print_ranked(m, 1, RT_ELEM_I8);
}

RT_EXPORT void _mlir_ciface_printMemref1dI32(struct rt_ranked_memref *m) {
  print_ranked(m, 1, RT_ELEM_I32);
}

RT_EXPORT void _mlir_ciface_printMemref1dI64(struct rt_ranked_memref *m) {
  print_ranked(m, 1, RT_ELEM_I64);
}

RT_EXPORT void _mlir_ciface_printMemref1dInd(struct rt_ranked_memref *m) {
  print_ranked(m, 1, RT_ELEM_INDEX);
}

RT_EXPORT void _mlir_ciface_printMemref1dF64(struct rt_ranked_memref *m) {
  print_ranked(m, 1, RT_ELEM_F64);
}

RT_EXPORT void _mlir_ciface_printMemref1dC32(struct rt_ranked_memref *m) {
  print_ranked(m, 1, RT_ELEM_C32);
}

RT_EXPORT void _mlir_ciface_printMemref1dC64(struct rt_ranked_memref *m) {
  print_ranked(m, 1, RT_ELEM_C64);
}

RT_EXPORT void _mlir_ciface_printMemrefVector4x4xf32(struct rt_ranked_memref *m) {
  print_ranked(m, 2, RT_ELEM_V4X4F32);
}

RT_EXPORT void _mlir_ciface_printMemrefShapeI8(struct rt_unranked_memref *m) {
  print_shape(m);
}

RT_EXPORT void _mlir_ciface_printMemrefShapeI32(struct rt_unranked_memref *m) {
  print_shape(m);
}

RT_EXPORT void _mlir_ciface_printMemrefShapeI64(struct rt_unranked_memref *m) {
  print_shape(m);
}

RT_EXPORT void _mlir_ciface_printMemrefShapeInd(struct rt_unranked_memref *m) {
  print_shape(m);
}

RT_EXPORT void _mlir_ciface_printMemrefShapeF32(struct rt_unranked_memref *m) {
  print_shape(m);
}

RT_EXPORT void _mlir_ciface_printMemrefShapeF64(struct rt_unranked_memref *m) {
  print_shape(m);
}

RT_EXPORT void _mlir_ciface_printMemrefShapeC32(struct rt_unranked_memref *m) {
  print_shape(m);
}

RT_EXPORT void _mlir_ciface_printMemrefShapeC64(struct rt_unranked_memref *m) {
  print_shape(m);
}
