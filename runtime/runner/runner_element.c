/* runner_element.c: the element types of printMemref* and verifyMemRef*.
 *
 * Each row says how upstream's C++ prints one element and when its verifier
 * counts two as equal. Upstream writes elements with std::ostream <<, whose
 * defaults we reproduce with stdio:
 *  - floating point: "%g" of the value as a double (precision 6, "inf",
 *    "-nan", "-0", "1e+30"); f16 and bf16 are converted to float first;
 *  - i8 is a char to an ostream, so the byte itself is written, not a number;
 *  - i16, i32, i64 in decimal; index (uint64_t) in decimal, unsigned;
 *  - complex as "(real,imaginary)", no space;
 *  - vector<4x4xf32> as "((a, b, c, d),   (e, ...),   (...),  (...))", the
 *    spacing of upstream's Vector printer.
 * Equality: integers, complex numbers (both parts ==, so NaN never matches)
 * and f16/bf16 (same 16 bits, so -0 differs from 0 and a NaN matches itself)
 * compare exactly; f32 and f64 must be finite and within a relative error
 * of 1e-6 and 1e-12 of the expected value, computed in their own precision.
 *
 * Elements are read with memcpy: a descriptor's data pointer need not be
 * aligned for the type. */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "runner.h"

#define LOAD(type, p) (*(type *)memcpy(&(type){0}, (p), sizeof(type)))

static void print_i8(FILE *out, const void *p) { fputc(LOAD(unsigned char, p), out); }
static void print_i16(FILE *out, const void *p) { fprintf(out, "%d", LOAD(int16_t, p)); }
static void print_i32(FILE *out, const void *p) { fprintf(out, "%" PRId32, LOAD(int32_t, p)); }
static void print_i64(FILE *out, const void *p) { fprintf(out, "%" PRId64, LOAD(int64_t, p)); }
static void print_index(FILE *out, const void *p) { fprintf(out, "%" PRIu64, LOAD(uint64_t, p)); }
static void print_f16(FILE *out, const void *p) {
  fprintf(out, "%g", rt_f16_to_float(LOAD(uint16_t, p)));
}
static void print_bf16(FILE *out, const void *p) {
  fprintf(out, "%g", rt_bf16_to_float(LOAD(uint16_t, p)));
}
static void print_f32(FILE *out, const void *p) { fprintf(out, "%g", LOAD(float, p)); }
static void print_f64(FILE *out, const void *p) { fprintf(out, "%g", LOAD(double, p)); }

static void print_c32(FILE *out, const void *p) {
  const char *c = p;
  fprintf(out, "(%g,%g)", LOAD(float, c), LOAD(float, c + sizeof(float)));
}

static void print_c64(FILE *out, const void *p) {
  const char *c = p;
  fprintf(out, "(%g,%g)", LOAD(double, c), LOAD(double, c + sizeof(double)));
}

/* Upstream's Vector printer puts 2 * (inner dimensions) spaces before the
 * middle entries and (inner dimensions) before the last one, so rows of a
 * 4x4 vector are separated by ", " + 2 spaces, the last by ", " + 1. */
static void print_v4x4f32(FILE *out, const void *p) {
  const char *v = p;
  fputc('(', out);
  for (size_t row = 0; row < 4; row++) {
    if (row > 0)
      fputs(row < 3 ? ",   " : ",  ", out);
    fputc('(', out);
    for (size_t col = 0; col < 4; col++)
      fprintf(out, col ? ", %g" : "%g", LOAD(float, v + (row * 4 + col) * sizeof(float)));
    fputc(')', out);
  }
  fputc(')', out);
}

static bool same_bytes_1(const void *a, const void *e) { return memcmp(a, e, 1) == 0; }
static bool same_bytes_2(const void *a, const void *e) { return memcmp(a, e, 2) == 0; }
static bool same_bytes_4(const void *a, const void *e) { return memcmp(a, e, 4) == 0; }
static bool same_bytes_8(const void *a, const void *e) { return memcmp(a, e, 8) == 0; }

static bool close_f32(const void *a, const void *e) {
  float actual = LOAD(float, a), expected = LOAD(float, e);
  if (!isfinite(actual) || !isfinite(expected))
    return false;
  return fabsf(actual - expected) <= 1e-6f * fabsf(expected);
}

static bool close_f64(const void *a, const void *e) {
  double actual = LOAD(double, a), expected = LOAD(double, e);
  if (!isfinite(actual) || !isfinite(expected))
    return false;
  return fabs(actual - expected) <= 1e-12 * fabs(expected);
}

static bool equal_c32(const void *a, const void *e) {
  const char *x = a, *y = e;
  return LOAD(float, x) == LOAD(float, y) &&
         LOAD(float, x + sizeof(float)) == LOAD(float, y + sizeof(float));
}

static bool equal_c64(const void *a, const void *e) {
  const char *x = a, *y = e;
  return LOAD(double, x) == LOAD(double, y) &&
         LOAD(double, x + sizeof(double)) == LOAD(double, y + sizeof(double));
}

/* Upstream has no verifier for vectors; never called. */
static bool never(const void *a, const void *e) { return false; }

const struct rt_elem_type rt_elem_types[RT_ELEM_COUNT] = {
    [RT_ELEM_I8] = {1, print_i8, same_bytes_1},
    [RT_ELEM_I16] = {2, print_i16, same_bytes_2},
    [RT_ELEM_I32] = {4, print_i32, same_bytes_4},
    [RT_ELEM_I64] = {8, print_i64, same_bytes_8},
    [RT_ELEM_INDEX] = {8, print_index, same_bytes_8},
    [RT_ELEM_F16] = {2, print_f16, same_bytes_2},
    [RT_ELEM_BF16] = {2, print_bf16, same_bytes_2},
    [RT_ELEM_F32] = {4, print_f32, close_f32},
    [RT_ELEM_F64] = {8, print_f64, close_f64},
    [RT_ELEM_C32] = {8, print_c32, equal_c32},
    [RT_ELEM_C64] = {16, print_c64, equal_c64},
    [RT_ELEM_V4X4F32] = {64, print_v4x4f32, never},
};
