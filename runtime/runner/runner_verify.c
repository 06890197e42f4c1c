/* runner_verify.c: verifyMemRef*, comparing a result with a reference.
 *
 * Returns the number of elements that differ (runner_element.c says what
 * "differ" means per type) and prints the first 10 of them to stderr as
 * "<actual> != <expected> offset = <n>\n". When the two descriptors do not
 * have the same rank, offset, sizes and strides, it prints both descriptors
 * (no newline, no separator, as upstream) and returns -1. As upstream, the
 * shapes are compared only when the actual memref has rank > 0, and elements
 * of both are located with the actual memref's offset and strides.
 *
 * Upstream writes these messages to std::cerr, which flushes std::cout
 * before every write; we flush stdout before writing to stderr, so that
 * with both on one file (2>&1) the lines come in the same order. */
#include <inttypes.h>

#include "runner.h"

enum { print_limit = 10 };

struct verify {
  const struct rt_elem_type *type;
  const char *actual;
  const char *expected;
  int64_t printed;
};

static bool same_shape(const struct rt_memref *a, const struct rt_memref *e) {
  for (int64_t i = 0; i < a->rank; i++)
    if (e->rank != a->rank || a->offset != e->offset ||
        a->sizes[i] != e->sizes[i] || a->strides[i] != e->strides[i])
      return false;
  return true;
}

static int64_t count_differences(struct verify *v, int64_t dims, int64_t offset,
                                 const int64_t *sizes, const int64_t *strides) {
  if (dims > 0) {
    int64_t errors = 0;
    for (int64_t i = 0; i < sizes[0]; i++)
      errors += count_differences(v, dims - 1, offset + i * strides[0],
                                  sizes + 1, strides + 1);
    return errors;
  }
  const char *a = v->actual + offset * (int64_t)v->type->size;
  const char *e = v->expected + offset * (int64_t)v->type->size;
  if (v->type->matches(a, e))
    return 0;
  if (v->printed < print_limit) {
    fflush(stdout);
    v->type->print(stderr, a);
    fputs(" != ", stderr);
    v->type->print(stderr, e);
    fprintf(stderr, " offset = %" PRId64 "\n", offset);
    v->printed++;
  }
  return 1;
}

static int64_t verify(const struct rt_memref *actual, const struct rt_memref *expected,
                      enum rt_elem_kind kind) {
  if (!same_shape(actual, expected)) {
    fflush(stdout);
    rt_memref_print_metadata(stderr, actual);
    rt_memref_print_metadata(stderr, expected);
    return -1;
  }
  struct verify v = {&rt_elem_types[kind], actual->data, expected->data, 0};
  return count_differences(&v, actual->rank, actual->offset, actual->sizes,
                           actual->strides);
}

static int64_t verify_unranked(const struct rt_unranked_memref *actual,
                               const struct rt_unranked_memref *expected,
                               enum rt_elem_kind kind) {
  struct rt_memref a = rt_memref_unranked(actual->rank, actual->descriptor);
  struct rt_memref e = rt_memref_unranked(expected->rank, expected->descriptor);
  return verify(&a, &e, kind);
}

/* The plain form: one rank for both descriptors. */
static int64_t verify_plain(int64_t rank, const void *actual, const void *expected,
                            enum rt_elem_kind kind) {
  struct rt_memref a = rt_memref_unranked(rank, actual);
  struct rt_memref e = rt_memref_unranked(rank, expected);
  return verify(&a, &e, kind);
}

RT_EXPORT int64_t _mlir_ciface_verifyMemRefI8(struct rt_unranked_memref *actual,
                                              struct rt_unranked_memref *expected) {
  return verify_unranked(actual, expected, RT_ELEM_I8);
}

RT_EXPORT int64_t _mlir_ciface_verifyMemRefI16(struct rt_unranked_memref *actual,
                                               struct rt_unranked_memref *expected) {
  return verify_unranked(actual, expected, RT_ELEM_I16);
}

RT_EXPORT int64_t _mlir_ciface_verifyMemRefI32(struct rt_unranked_memref *actual,
                                               struct rt_unranked_memref *expected) {
  return verify_unranked(actual, expected, RT_ELEM_I32);
}

RT_EXPORT int64_t _mlir_ciface_verifyMemRefI64(struct rt_unranked_memref *actual,
                                               struct rt_unranked_memref *expected) {
  return verify_unranked(actual, expected, RT_ELEM_I64);
}

RT_EXPORT int64_t _mlir_ciface_verifyMemRefInd(struct rt_unranked_memref *actual,
                                               struct rt_unranked_memref *expected) {
  return verify_unranked(actual, expected, RT_ELEM_INDEX);
}

RT_EXPORT int64_t _mlir_ciface_verifyMemRefF16(struct rt_unranked_memref *actual,
                                               struct rt_unranked_memref *expected) {
  return verify_unranked(actual, expected, RT_ELEM_F16);
}

RT_EXPORT int64_t _mlir_ciface_verifyMemRefBF16(struct rt_unranked_memref *actual,
                                                struct rt_unranked_memref *expected) {
  return verify_unranked(actual, expected, RT_ELEM_BF16);
}

RT_EXPORT int64_t _mlir_ciface_verifyMemRefF32(struct rt_unranked_memref *actual,
                                               struct rt_unranked_memref *expected) {
  return verify_unranked(actual, expected, RT_ELEM_F32);
}

RT_EXPORT int64_t _mlir_ciface_verifyMemRefF64(struct rt_unranked_memref *actual,
                                               struct rt_unranked_memref *expected) {
  return verify_unranked(actual, expected, RT_ELEM_F64);
}

RT_EXPORT int64_t _mlir_ciface_verifyMemRefC32(struct rt_unranked_memref *actual,
                                               struct rt_unranked_memref *expected) {
  return verify_unranked(actual, expected, RT_ELEM_C32);
}

RT_EXPORT int64_t _mlir_ciface_verifyMemRefC64(struct rt_unranked_memref *actual,
                                               struct rt_unranked_memref *expected) {
  return verify_unranked(actual, expected, RT_ELEM_C64);
}

RT_EXPORT int64_t verifyMemRefI32(int64_t rank, void *actual, void *expected) {
  return verify_plain(rank, actual, expected, RT_ELEM_I32);
}

RT_EXPORT int64_t verifyMemRefInd(int64_t rank, void *actual, void *expected) {
  return verify_plain(rank, actual, expected, RT_ELEM_INDEX);
}

RT_EXPORT int64_t verifyMemRefF32(int64_t rank, void *actual, void *expected) {
  return verify_plain(rank, actual, expected, RT_ELEM_F32);
}

RT_EXPORT int64_t verifyMemRefF64(int64_t rank, void *actual, void *expected) {
  return verify_plain(rank, actual, expected, RT_ELEM_F64);
}

RT_EXPORT int64_t verifyMemRefC32(int64_t rank, void *actual, void *expected) {
  return verify_plain(rank, actual, expected, RT_ELEM_C32);
}

RT_EXPORT int64_t verifyMemRefC64(int64_t rank, void *actual, void *expected) {
  return verify_plain(rank, actual, expected, RT_ELEM_C64);
}
