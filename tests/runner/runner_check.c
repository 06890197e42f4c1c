/* runner_check.c: calls every runner utility with awkward input and prints
 * what comes out, so that two builds of it can be compared byte for byte.
 *
 * It is built twice from this one file: against libgpucc_rt, and against
 * upstream's libmlir_c_runner_utils, libmlir_runner_utils and
 * libmlir_float16_utils. compare.sh runs both with the same section and
 * diffs stdout and stderr together (in the order they were written, so the
 * flushes count too) after masking the "base@ = 0x..." addresses, which
 * differ from run to run. Nothing else printed may depend on the build:
 * clocks are checked here and only "ok" is printed.
 *
 *   runner_check SECTION [--perturb]
 *
 * Sections: scalars, halves, memrefs, shapes, verify, copy, random, sort,
 * misc. --perturb prints one extra line, to show that the comparison
 * catches a difference. Exit status 0, or 2 for bad usage.
 *
 * Inputs upstream cannot take are left out: NaN in stdSort (std::sort may
 * then read outside the array) and NULL data in printMemref (upstream reads
 * the first element even of an empty memref). */
#define _POSIX_C_SOURCE 200809L
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "runner/runner_abi.h"

/* ---- test data ---- */

/* Deterministic data (xorshift64*), the same in both builds. */
static uint64_t rng_state = 0x9e3779b97f4a7c15u;

static uint64_t next_random(void) {
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return rng_state * 0x2545f4914f6cdd1du;
}

static float float_bits(uint32_t b) {
  float f;
  memcpy(&f, &b, sizeof f);
  return f;
}

static double double_bits(uint64_t b) {
  double d;
  memcpy(&d, &b, sizeof d);
  return d;
}

static const float special_floats[] = {
    0.0f, -0.0f, 1.0f, -1.0f, 0.1f, 1.0f / 3, 0.5f, 2.5f, 100000.0f, 999999.0f,
    1000000.0f, 1234567.0f, 123456.7f, 1e-4f, 1e-5f, 0.00012345678f, 1e30f, -1e-30f,
    FLT_MAX, -FLT_MAX, FLT_MIN, 1e-45f, 1.17e-39f, INFINITY, -INFINITY, NAN, -NAN,
    3.14159265f, -2.71828f, 65504.0f, 42.0f, 7.0f};

static const double special_doubles[] = {
    0.0, -0.0, 1.0, -1.0, 0.1, 1.0 / 3, 0.5, 2.5, 100000.0, 999999.0, 1000000.0,
    1234567.0, 123456.75, 1e-4, 1e-5, 0.000123456789, 1e300, -1e-300, DBL_MAX,
    -DBL_MAX, DBL_MIN, 5e-324, 2.2e-310, INFINITY, -INFINITY, NAN, -NAN,
    3.141592653589793, -2.718281828459045, 9007199254740993.0, 42.0, 7.0};

static const uint16_t special_f16[] = {
    0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x0400, 0x3c00, 0xbc00, 0x3555, 0x7bff,
    0xfbff, 0x7c00, 0xfc00, 0x7e00, 0xfe00, 0x7c01, 0x7fff, 0x4248, 0x2e66, 0x5640};

static const uint16_t special_bf16[] = {
    0x0000, 0x8000, 0x0001, 0x807f, 0x0080, 0x3f80, 0xbf80, 0x3eab, 0x7f7f, 0xff7f,
    0x7f80, 0xff80, 0x7fc0, 0xffc0, 0x7f81, 0x4049, 0x3dcd, 0x4f80, 0x1234, 0xc2f7};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

enum { elements = 128 }; /* per test buffer: every view below stays inside */

static int8_t data_i8[elements];
static int16_t data_i16[elements];
static int32_t data_i32[elements];
static int64_t data_i64[elements];
static uint64_t data_index[elements];
static uint16_t data_f16[elements];
static uint16_t data_bf16[elements];
static float data_f32[elements];
static double data_f64[elements];
static float data_c32[elements][2];
static double data_c64[elements][2];
static float data_v4x4[16][16]; /* 16 vector<4x4xf32> */

static void fill_data(void) {
  static const int64_t big_i64[] = {INT64_MIN, INT64_MAX, 0, -1, 1, 1000000007};
  for (int i = 0; i < elements; i++) {
    uint64_t r = next_random();
    data_i8[i] = (int8_t)(i * 37 + 11); /* raw bytes, NUL and '\n' included */
    data_i16[i] = (int16_t)(i % 5 == 0 ? (i % 2 ? INT16_MIN : INT16_MAX) : (int16_t)r);
    data_i32[i] = i % 7 == 0 ? (i % 2 ? INT32_MIN : INT32_MAX) : (int32_t)(r >> 40) - 8000000;
    data_i64[i] = i % 3 == 0 ? big_i64[i / 3 % COUNT(big_i64)] : (int64_t)r;
    data_index[i] = i % 4 == 0 ? UINT64_MAX - (uint64_t)i : r >> (i % 64);
    data_f16[i] = i < (int)COUNT(special_f16) ? special_f16[i] : (uint16_t)r;
    data_bf16[i] = i < (int)COUNT(special_bf16) ? special_bf16[i] : (uint16_t)r;
    data_f32[i] = special_floats[i % COUNT(special_floats)];
    data_f64[i] = special_doubles[i % COUNT(special_doubles)];
    data_c32[i][0] = special_floats[(i * 5) % COUNT(special_floats)];
    data_c32[i][1] = special_floats[(i * 3 + 1) % COUNT(special_floats)];
    data_c64[i][0] = special_doubles[(i * 5) % COUNT(special_doubles)];
    data_c64[i][1] = special_doubles[(i * 3 + 1) % COUNT(special_doubles)];
  }
  for (int v = 0; v < 16; v++)
    for (int j = 0; j < 16; j++)
      data_v4x4[v][j] = j == 5 ? special_floats[v] : (float)(v * 16 + j) + 0.25f;
}

/* ---- descriptors ---- */

/* Room for rank 4; a descriptor of rank r uses the first 2r dims. */
struct desc {
  void *allocated, *aligned;
  int64_t offset;
  int64_t dims[8];
};

struct shape {
  int rank;
  int64_t offset;
  int64_t sizes[4], strides[4];
};

static struct desc make_desc(void *data, const struct shape *s) {
  struct desc d = {data, data, s->offset, {0}};
  for (int i = 0; i < s->rank; i++) {
    d.dims[i] = s->sizes[i];
    d.dims[s->rank + i] = s->strides[i];
  }
  return d;
}

/* Contiguous, strided, transposed, broadcast (stride 0), reversed (negative
 * stride), offset, unit and empty views. Every element they reach, and every
 * element upstream reads for an empty one, is inside a 128-element buffer. */
static const struct shape shapes[] = {
    {0, 0, {0}, {0}},
    {0, 5, {0}, {0}},
    {1, 0, {1}, {1}},
    {1, 0, {3}, {1}},
    {1, 2, {7}, {1}},
    {1, 1, {4}, {2}},
    {1, 10, {5}, {-1}},
    {1, 4, {3}, {0}},
    {1, 3, {0}, {1}},
    {1, 0, {2}, {1}},
    {2, 0, {2, 3}, {3, 1}},
    {2, 0, {3, 2}, {1, 3}},
    {2, 9, {1, 1}, {1, 1}},
    {2, 0, {1, 4}, {4, 1}},
    {2, 0, {4, 1}, {1, 1}},
    {2, 1, {2, 3}, {6, 2}},
    {2, 0, {0, 3}, {3, 1}},
    {2, 0, {3, 0}, {1, 1}},
    {2, 8, {2, 2}, {-2, -1}},
    {2, 0, {2, 2}, {0, 1}},
    {3, 0, {2, 3, 4}, {12, 4, 1}},
    {3, 0, {2, 1, 3}, {3, 3, 1}},
    {3, 0, {4, 3, 2}, {1, 4, 12}},
    {3, 0, {2, 0, 2}, {4, 2, 1}},
    {3, 0, {0, 2, 2}, {4, 2, 1}},
    {3, 7, {1, 1, 1}, {1, 1, 1}},
    {3, 3, {2, 2, 2}, {0, 2, 1}},
    {4, 0, {2, 2, 1, 3}, {6, 3, 3, 1}},
    {4, 5, {1, 2, 3, 2}, {12, 6, 2, 1}},
    {4, 0, {2, 0, 1, 1}, {1, 1, 1, 1}},
};

/* ---- sections ---- */

static void section_scalars(void) {
  static const int64_t ints[] = {0, 1, -1, 42, INT64_MIN, INT64_MAX, 1000000007};
  static const uint64_t uints[] = {0, 1, UINT64_MAX, (uint64_t)INT64_MAX + 1};
  for (size_t i = 0; i < COUNT(ints); i++) {
    printI64(ints[i]);
    printNewline();
  }
  for (size_t i = 0; i < COUNT(uints); i++) {
    printU64(uints[i]);
    printNewline();
  }
  /* vector.print of a vector: ( a, b, c ) */
  printOpen();
  for (size_t i = 0; i < COUNT(special_floats); i++) {
    if (i)
      printComma();
    printF32(special_floats[i]);
  }
  printClose();
  printNewline();
  for (size_t i = 0; i < COUNT(special_doubles); i++) {
    printF64(special_doubles[i]);
    printNewline();
  }
  printString("");
  printString("text with %d and %s, no formatting\n");
  printString("utf-8: \xc3\xa9\n");
  for (int i = 0; i < 3000; i++) {
    uint64_t r = next_random();
    printF32(float_bits((uint32_t)r));
    printComma();
    printF64(double_bits(r));
    printNewline();
  }
  /* floats at every binary exponent, and halfway cases of %g's rounding */
  for (int e = -150; e <= 128; e++) {
    printF32(ldexpf(1.0f, e));
    printComma();
    printF32(ldexpf(1.5f, e) * 0.999999f);
    printComma();
    printF64(ldexp(1.0, e * 8));
    printNewline();
  }
  static const double flops[] = {0, 1e9, 1.5e12, -1, 123456789.123, 1e300, INFINITY, NAN};
  fflush(stdout);
  for (size_t i = 0; i < COUNT(flops); i++)
    printFlops(flops[i]);
}

static void section_halves(void) {
  for (uint32_t b = 0; b <= 0xffff; b++) {
    printF16((uint16_t)b);
    printComma();
    printBF16((uint16_t)b);
    printNewline();
  }
}

typedef void unranked_fn(struct rt_unranked_memref *);
typedef void plain_fn(int64_t, void *);
typedef void ranked_fn(struct rt_ranked_memref *);

struct print_entry {
  const char *name;
  void *data;
  unranked_fn *unranked;
  plain_fn *plain;             /* NULL where upstream has none */
  unranked_fn *shape;          /* NULL where upstream has none */
  ranked_fn *ranked[5];        /* by rank; NULL where upstream has none */
};

static const struct print_entry print_entries[] = {
    {"i8", data_i8, _mlir_ciface_printMemrefI8, NULL, _mlir_ciface_printMemrefShapeI8,
     {NULL, _mlir_ciface_printMemref1dI8}},
    {"i16", data_i16, _mlir_ciface_printMemrefI16, NULL, NULL, {NULL}},
    {"i32", data_i32, _mlir_ciface_printMemrefI32, printMemrefI32,
     _mlir_ciface_printMemrefShapeI32, {NULL, _mlir_ciface_printMemref1dI32}},
    {"i64", data_i64, _mlir_ciface_printMemrefI64, printMemrefI64,
     _mlir_ciface_printMemrefShapeI64, {NULL, _mlir_ciface_printMemref1dI64}},
    {"index", data_index, _mlir_ciface_printMemrefInd, printMemrefInd,
     _mlir_ciface_printMemrefShapeInd, {NULL, _mlir_ciface_printMemref1dInd}},
    {"f16", data_f16, _mlir_ciface_printMemrefF16, NULL, NULL, {NULL}},
    {"bf16", data_bf16, _mlir_ciface_printMemrefBF16, NULL, NULL, {NULL}},
    {"f32", data_f32, _mlir_ciface_printMemrefF32, printMemrefF32,
     _mlir_ciface_printMemrefShapeF32,
     {_mlir_ciface_printMemref0dF32, _mlir_ciface_printMemref1dF32,
      _mlir_ciface_printMemref2dF32, _mlir_ciface_printMemref3dF32,
      _mlir_ciface_printMemref4dF32}},
    {"f64", data_f64, _mlir_ciface_printMemrefF64, printMemrefF64,
     _mlir_ciface_printMemrefShapeF64, {NULL, _mlir_ciface_printMemref1dF64}},
    {"c32", data_c32, _mlir_ciface_printMemrefC32, printMemrefC32,
     _mlir_ciface_printMemrefShapeC32, {NULL, _mlir_ciface_printMemref1dC32}},
    {"c64", data_c64, _mlir_ciface_printMemrefC64, printMemrefC64,
     _mlir_ciface_printMemrefShapeC64, {NULL, _mlir_ciface_printMemref1dC64}},
};

static void section_memrefs(void) {
  for (size_t t = 0; t < COUNT(print_entries); t++) {
    const struct print_entry *e = &print_entries[t];
    for (size_t s = 0; s < COUNT(shapes); s++) {
      struct desc d = make_desc(e->data, &shapes[s]);
      struct rt_unranked_memref u = {shapes[s].rank, &d};
      printf("-- %s, shape %zu\n", e->name, s);
      e->unranked(&u);
      if (e->plain)
        e->plain(shapes[s].rank, &d);
      if (e->ranked[shapes[s].rank])
        e->ranked[shapes[s].rank]((struct rt_ranked_memref *)&d);
    }
  }
  /* memref<..xvector<4x4xf32>>: rank 2 only */
  static const struct shape vector_shapes[] = {
      {2, 0, {2, 2}, {2, 1}}, {2, 3, {1, 1}, {1, 1}}, {2, 0, {2, 3}, {1, 4}},
      {2, 0, {3, 1}, {5, 1}}, {2, 1, {0, 2}, {2, 1}}, {2, 0, {2, 0}, {1, 1}},
  };
  for (size_t s = 0; s < COUNT(vector_shapes); s++) {
    struct desc d = make_desc(data_v4x4, &vector_shapes[s]);
    printf("-- vector<4x4xf32>, shape %zu\n", s);
    _mlir_ciface_printMemrefVector4x4xf32((struct rt_ranked_memref *)&d);
  }
  /* every f16 and bf16 pattern in one listing each */
  static uint16_t all_halves[65536];
  for (uint32_t b = 0; b <= 0xffff; b++)
    all_halves[b] = (uint16_t)b;
  struct shape all = {2, 0, {256, 256}, {256, 1}};
  struct desc d = make_desc(all_halves, &all);
  struct rt_unranked_memref u = {2, &d};
  _mlir_ciface_printMemrefF16(&u);
  _mlir_ciface_printMemrefBF16(&u);
  /* stdout without a newline before a listing, then vector.print after it */
  printf("no newline before: ");
  struct desc one = make_desc(data_f32, &shapes[3]);
  printMemrefF32(1, &one);
  printF32(1.5f);
  printNewline();
  /* a listing is flushed: it comes before what is written to stderr next */
  printMemrefF32(1, &one);
  printFlops(2e9);
}

static void section_shapes(void) {
  for (size_t t = 0; t < COUNT(print_entries); t++) {
    const struct print_entry *e = &print_entries[t];
    if (!e->shape)
      continue;
    for (size_t s = 0; s < COUNT(shapes); s++) {
      struct desc d = make_desc(e->data, &shapes[s]);
      struct rt_unranked_memref u = {shapes[s].rank, &d};
      e->shape(&u);
    }
  }
  struct shape null_data = {1, 0, {0}, {1}};
  struct desc d = make_desc(NULL, &null_data);
  struct rt_unranked_memref u = {1, &d};
  _mlir_ciface_printMemrefShapeF32(&u); /* "base@ = 0" */
}

/* ---- verify ---- */

typedef int64_t verify_fn(struct rt_unranked_memref *, struct rt_unranked_memref *);
typedef int64_t verify_plain_fn(int64_t, void *, void *);

struct verify_entry {
  const char *name;
  size_t size;
  const void *data;
  verify_fn *verify;
  verify_plain_fn *plain; /* NULL where upstream has none */
};

static const struct verify_entry verify_entries[] = {
    {"i8", 1, data_i8, _mlir_ciface_verifyMemRefI8, NULL},
    {"i16", 2, data_i16, _mlir_ciface_verifyMemRefI16, NULL},
    {"i32", 4, data_i32, _mlir_ciface_verifyMemRefI32, verifyMemRefI32},
    {"i64", 8, data_i64, _mlir_ciface_verifyMemRefI64, NULL},
    {"index", 8, data_index, _mlir_ciface_verifyMemRefInd, verifyMemRefInd},
    {"f16", 2, data_f16, _mlir_ciface_verifyMemRefF16, NULL},
    {"bf16", 2, data_bf16, _mlir_ciface_verifyMemRefBF16, NULL},
    {"f32", 4, data_f32, _mlir_ciface_verifyMemRefF32, verifyMemRefF32},
    {"f64", 8, data_f64, _mlir_ciface_verifyMemRefF64, verifyMemRefF64},
    {"c32", 8, data_c32, _mlir_ciface_verifyMemRefC32, verifyMemRefC32},
    {"c64", 16, data_c64, _mlir_ciface_verifyMemRefC64, verifyMemRefC64},
};

/* Calls both forms (where the plain one exists) and prints the results. */
static void verify_both(const struct verify_entry *e, const char *what, void *actual,
                        const struct shape *as, void *expected, const struct shape *es) {
  struct desc a = make_desc(actual, as), x = make_desc(expected, es);
  struct rt_unranked_memref ua = {as->rank, &a}, ux = {es->rank, &x};
  /* No fflush here: upstream writes to std::cerr, which flushes std::cout
   * first, so what is pending on stdout comes before the messages. */
  int64_t r = e->verify(&ua, &ux);
  printf("verify %s %s: %" PRId64 "\n", e->name, what, r);
  if (e->plain && as->rank == es->rank) {
    r = e->plain(as->rank, &a, &x);
    printf("verifyMemRef %s %s: %" PRId64 "\n", e->name, what, r);
  }
}

/* Makes element i of a differ from element i of the original: a different
 * bit pattern that is also a different value for every type. */
static void perturb(const struct verify_entry *e, unsigned char *a, int i) {
  unsigned char *p = a + (size_t)i * e->size;
  if (strcmp(e->name, "f32") == 0 || strcmp(e->name, "c32") == 0) {
    float f = 1.0f + (float)i;
    memcpy(p, &f, sizeof f);
  } else if (strcmp(e->name, "f64") == 0 || strcmp(e->name, "c64") == 0) {
    double d = 1.0 + i;
    memcpy(p, &d, sizeof d);
  } else if (strcmp(e->name, "f16") == 0 || strcmp(e->name, "bf16") == 0) {
    uint16_t h = (uint16_t)(0x3c00 + i); /* f16: 1 + i/1024, bf16: some normal */
    memcpy(p, &h, sizeof h);
  } else {
    p[0] ^= 0x55;
  }
}

static void verify_generic(const struct verify_entry *e) {
  static unsigned char actual[elements * 16], expected[elements * 16];
  size_t bytes = e->size * elements;
  memcpy(expected, e->data, bytes);
  struct shape m34 = {2, 0, {3, 4}, {4, 1}};
  /* Identical content: 0, except where the value is NaN or infinite for f32
   * and f64 (never "close"), or NaN in a complex number. */
  memcpy(actual, expected, bytes);
  verify_both(e, "same", actual, &m34, expected, &m34);
  /* 3 and 15 differing elements (10 printed) in a fresh copy */
  memcpy(actual, expected, bytes);
  for (int i = 1; i < 12; i += 4)
    perturb(e, actual, i);
  verify_both(e, "three", actual, &m34, expected, &m34);
  struct shape m64 = {1, 0, {64}, {1}};
  memcpy(actual, expected, bytes);
  for (int i = 0; i < 60; i += 4)
    perturb(e, actual, i);
  verify_both(e, "fifteen", actual, &m64, expected, &m64);
  /* differences outside a strided view are not seen */
  struct shape even = {1, 0, {30}, {2}};
  memcpy(actual, expected, bytes);
  for (int i = 1; i < 60; i += 2)
    perturb(e, actual, i);
  verify_both(e, "outside view", actual, &even, expected, &even);
  struct shape reversed = {2, 40, {3, 5}, {-10, -1}};
  verify_both(e, "reversed", actual, &reversed, expected, &reversed);
  /* shapes that differ: -1 and both descriptors on stderr */
  struct shape m43 = {2, 0, {4, 3}, {3, 1}}, m34t = {2, 0, {3, 4}, {1, 3}};
  struct shape m34o = {2, 1, {3, 4}, {4, 1}}, v12 = {1, 0, {12}, {1}};
  verify_both(e, "sizes differ", actual, &m34, expected, &m43);
  verify_both(e, "strides differ", actual, &m34, expected, &m34t);
  verify_both(e, "offset differs", actual, &m34, expected, &m34o);
  verify_both(e, "rank differs", actual, &m34, expected, &v12);
  /* rank 0: no shape check at all, even against a rank-1 expected */
  struct shape r0 = {0, 3, {0}, {0}}, r0b = {0, 1, {0}, {0}};
  verify_both(e, "rank 0", actual, &r0, expected, &r0);
  verify_both(e, "rank 0 vs 1", actual, &r0, expected, &v12);
  verify_both(e, "rank 0 offsets", actual, &r0, expected, &r0b);
  struct shape empty = {2, 0, {0, 4}, {4, 1}};
  verify_both(e, "empty", actual, &empty, expected, &empty);
}

/* One (actual, expected) pair per call, so each result shows alone. */
static void verify_pair(const struct verify_entry *e, const void *actual,
                        const void *expected, int k) {
  static unsigned char a[16], x[16];
  memcpy(a, actual, e->size);
  memcpy(x, expected, e->size);
  struct shape one = {1, 0, {1}, {1}};
  char what[32];
  snprintf(what, sizeof what, "pair %d", k);
  verify_both(e, what, a, &one, x, &one);
}

static void verify_float_tolerance(void) {
  const struct verify_entry *f32 = &verify_entries[7], *f64 = &verify_entries[8];
  static const float fpairs[][2] = {
      {0, 0}, {-0.0f, 0}, {0, 1e-45f}, {1e-45f, 0}, {1e-45f, 1e-45f}, {1, 1},
      {1, -1}, {INFINITY, INFINITY}, {-INFINITY, -INFINITY}, {NAN, NAN},
      {1, NAN}, {NAN, 1}, {FLT_MAX, FLT_MAX}, {FLT_MAX, INFINITY},
      {1.0f + 1e-6f, 1}, {1, 1.0f + 1e-6f}, {1e-40f, 1.0000001e-40f}};
  int k = 0;
  for (size_t i = 0; i < COUNT(fpairs); i++)
    verify_pair(f32, &fpairs[i][0], &fpairs[i][1], k++);
  /* a sweep across the 1e-6 relative threshold, ulp by ulp */
  static const float bases[] = {1.0f, 3.0f, 1e-20f, 12345.678f, -7.5f};
  for (size_t b = 0; b < COUNT(bases); b++) {
    float lo = bases[b], hi = bases[b];
    for (int s = 0; s < 24; s++) {
      lo = nextafterf(lo, -INFINITY);
      hi = nextafterf(hi, INFINITY);
      verify_pair(f32, &lo, &bases[b], k++);
      verify_pair(f32, &hi, &bases[b], k++);
    }
  }
  /* random magnitudes just inside and outside the threshold */
  for (int i = 0; i < 3000; i++) {
    uint64_t r = next_random();
    float expected = float_bits((uint32_t)(r & 0x807fffffu) | (uint32_t)(40 + r % 170) << 23);
    double t = (0.97 + 0.06 * (double)(r >> 40) / (double)(1 << 24)) * 1e-6;
    float actual = (float)((double)expected * (1 + (r & 0x100000000u ? t : -t)));
    verify_pair(f32, &actual, &expected, k++);
  }
  /* Differences of exactly 1e-6f * |expected| (rounded to float, as the
   * verifier computes it) where that is a whole number of ulps, so that
   * expected +- it is a float: the boundary itself, which only float
   * arithmetic and <= classify as upstream does, and one ulp either side.
   * Every float in [1, 2) is tried (ulp 2^-23; other binades scale). */
  int found = 0;
  for (uint32_t bits = 0x3f800000u; bits < 0x40000000u; bits++) {
    float expected = float_bits(bits), limit = 1e-6f * expected;
    float ulps = limit * 0x1p23f;
    if (ulps != (float)(uint32_t)ulps)
      continue;
    float actual = expected + limit;
    float near[] = {actual, nextafterf(actual, 0), nextafterf(actual, INFINITY),
                    expected - limit, -actual};
    for (size_t j = 0; j < COUNT(near); j++) {
      float x = j < 4 ? expected : -expected;
      verify_pair(f32, &near[j], &x, k++);
    }
    found++;
  }
  printf("f32 boundary cases: %d\n", found);
  static const double dpairs[][2] = {
      {0, 0}, {-0.0, 0}, {0, 5e-324}, {5e-324, 5e-324}, {1, 1}, {1, -1},
      {INFINITY, INFINITY}, {NAN, NAN}, {1, NAN}, {DBL_MAX, DBL_MAX},
      {1.0 + 1e-12, 1}, {1, 1.0 + 1e-12}, {1.0 + 1e-6, 1}};
  for (size_t i = 0; i < COUNT(dpairs); i++)
    verify_pair(f64, &dpairs[i][0], &dpairs[i][1], k++);
  static const double dbases[] = {1.0, 3.0, 1e-200, 12345.678, -7.5};
  for (size_t b = 0; b < COUNT(dbases); b++) {
    double lo = dbases[b], hi = dbases[b];
    for (int s = 0; s < 4600; s++) {
      lo = nextafter(lo, -INFINITY);
      hi = nextafter(hi, INFINITY);
      if (s < 4490 && s % 500)
        continue; /* only the steps near the threshold, and a few before */
      verify_pair(f64, &lo, &dbases[b], k++);
      verify_pair(f64, &hi, &dbases[b], k++);
    }
  }
}

static void verify_special_pairs(void) {
  const struct verify_entry *f16 = &verify_entries[5], *bf16 = &verify_entries[6];
  const struct verify_entry *c32 = &verify_entries[9], *c64 = &verify_entries[10];
  static const uint16_t hpairs[][2] = {
      {0x0000, 0x8000}, {0x7e00, 0x7e00}, {0x7e00, 0xfe00}, {0x3c00, 0x3c01},
      {0x7c00, 0x7c00}, {0x0001, 0x0001}};
  int k = 1000;
  for (size_t i = 0; i < COUNT(hpairs); i++) {
    verify_pair(f16, &hpairs[i][0], &hpairs[i][1], k++);
    verify_pair(bf16, &hpairs[i][0], &hpairs[i][1], k++);
  }
  static const float cpairs[][2][2] = {
      {{1, 2}, {1, 2}}, {{-0.0f, 0}, {0, -0.0f}}, {{NAN, 0}, {NAN, 0}},
      {{1, 2}, {1, 2.0000002f}}, {{INFINITY, 1}, {INFINITY, 1}}};
  for (size_t i = 0; i < COUNT(cpairs); i++) {
    double d[2][2] = {{cpairs[i][0][0], cpairs[i][0][1]}, {cpairs[i][1][0], cpairs[i][1][1]}};
    verify_pair(c32, cpairs[i][0], cpairs[i][1], k++);
    verify_pair(c64, d[0], d[1], k++);
  }
}

static void section_verify(void) {
  for (size_t t = 0; t < COUNT(verify_entries); t++)
    verify_generic(&verify_entries[t]);
  verify_float_tolerance();
  verify_special_pairs();
}

/* ---- memrefCopy ---- */

struct copy_case {
  struct shape src, dst; /* dst sizes are src's */
};

static const struct copy_case copy_cases[] = {
    {{0, 2, {0}, {0}}, {0, 5, {0}, {0}}},
    {{1, 0, {5}, {1}}, {1, 0, {5}, {1}}},
    {{1, 0, {5}, {1}}, {1, 1, {5}, {2}}},
    {{1, 9, {5}, {-1}}, {1, 0, {5}, {1}}},
    {{1, 3, {4}, {0}}, {1, 2, {4}, {3}}},
    {{2, 0, {2, 3}, {3, 1}}, {2, 0, {2, 3}, {1, 2}}},
    {{2, 1, {3, 2}, {1, 3}}, {2, 4, {3, 2}, {2, 1}}},
    {{3, 0, {2, 3, 4}, {12, 4, 1}}, {3, 0, {2, 3, 4}, {1, 2, 6}}},
    {{3, 2, {2, 2, 2}, {8, 1, 3}}, {3, 0, {2, 2, 2}, {4, 2, 1}}},
    {{4, 0, {2, 1, 2, 3}, {6, 6, 3, 1}}, {4, 1, {2, 1, 2, 3}, {1, 1, 2, 4}}},
    {{2, 0, {0, 3}, {3, 1}}, {2, 0, {0, 3}, {3, 1}}},
    {{3, 0, {2, 3, 0}, {3, 1, 1}}, {3, 0, {2, 3, 0}, {3, 1, 1}}},
};

static void print_bytes(const unsigned char *b, size_t n) {
  for (size_t i = 0; i < n; i++)
    printf("%02x%s", b[i], i + 1 < n ? (i % 32 == 31 ? "\n" : " ") : "\n");
}

static void section_copy(void) {
  static const int64_t elem_sizes[] = {1, 2, 3, 4, 8, 16, 64};
  static unsigned char src[64 * 64], dst[64 * 64];
  for (size_t z = 0; z < COUNT(elem_sizes); z++) {
    int64_t size = elem_sizes[z];
    size_t bytes = (size_t)size * 24; /* every case stays within 24 elements */
    for (size_t c = 0; c < COUNT(copy_cases); c++) {
      for (size_t i = 0; i < sizeof src; i++)
        src[i] = (unsigned char)(i * 7 + 1);
      memset(dst, 0xee, sizeof dst);
      struct shape ds = copy_cases[c].dst;
      memcpy(ds.sizes, copy_cases[c].src.sizes, sizeof ds.sizes);
      struct desc s = make_desc(src, &copy_cases[c].src), d = make_desc(dst, &ds);
      struct rt_unranked_memref us = {copy_cases[c].src.rank, &s}, ud = {ds.rank, &d};
      memrefCopy(size, &us, &ud);
      printf("copy elem %" PRId64 " case %zu:\n", size, c);
      print_bytes(dst, bytes);
    }
    /* overlapping views of one buffer: element by element, front to back */
    for (size_t i = 0; i < sizeof src; i++)
      src[i] = (unsigned char)(i * 7 + 1);
    struct shape from = {1, 0, {8}, {1}}, to = {1, 1, {8}, {1}}, back = {1, 0, {8}, {1}};
    struct desc a = make_desc(src, &from), b = make_desc(src, &to);
    struct rt_unranked_memref ua = {1, &a}, ub = {1, &b};
    memrefCopy(size, &ua, &ub);
    printf("copy elem %" PRId64 " overlapping forward:\n", size);
    print_bytes(src, (size_t)size * 10);
    struct desc c2 = make_desc(src + size, &back), d2 = make_desc(src, &back);
    struct rt_unranked_memref uc = {1, &c2}, ud2 = {1, &d2};
    memrefCopy(size, &uc, &ud2);
    printf("copy elem %" PRId64 " overlapping backward:\n", size);
    print_bytes(src, (size_t)size * 10);
  }
}

/* ---- random numbers ---- */

static uint64_t fnv1a(const uint64_t *v, uint64_t n) {
  uint64_t h = 0xcbf29ce484222325u;
  for (uint64_t i = 0; i < n; i++)
    for (int b = 0; b < 64; b += 8) {
      h ^= (v[i] >> b) & 0xff;
      h *= 0x100000001b3u;
    }
  return h;
}

static void section_random(void) {
  static const uint64_t seeds[] = {0, 1, 42, 5489, 0x100000005u, UINT64_MAX};
  static const uint64_t maxima[] = {
      0, 1, 2, 3, 6, 9, 100, 1000003, 0x7fffffffu, 0x80000000u, 0xfffffffdu,
      0xfffffffeu, 0xffffffffu, 0x100000000u, 0x100000001u, 0x200000007u,
      (uint64_t)1 << 40, (uint64_t)INT64_MAX, (uint64_t)INT64_MAX + 1,
      UINT64_MAX - 1, UINT64_MAX};
  for (size_t s = 0; s < COUNT(seeds); s++) {
    void *g = rtsrand(seeds[s]);
    printf("seed %" PRIu64 ":", seeds[s]);
    for (size_t m = 0; m < COUNT(maxima); m++)
      for (int i = 0; i < 40; i++)
        printf("%s%" PRIu64, i ? " " : "\n", rtrand(g, maxima[m]));
    printf("\n");
    rtdrand(g);
  }
  static const uint64_t counts[] = {0, 1, 2, 3, 4, 5, 10, 17, 100, 1000, 65535, 65536, 70001};
  static uint64_t values[70001 + 8];
  void *g = rtsrand(7);
  for (size_t c = 0; c < COUNT(counts); c++) {
    uint64_t n = counts[c];
    for (size_t i = 0; i < COUNT(values); i++)
      values[i] = 0xdead;
    /* the stride is ignored: the permutation is contiguous from offset */
    struct shape s = {1, 3, {(int64_t)n}, {2}};
    struct desc d = make_desc(values, &s);
    _mlir_ciface_shuffle((struct rt_ranked_memref *)&d, g);
    printf("shuffle %" PRIu64 ": hash %016" PRIx64 ",", n, fnv1a(values, n + 8));
    for (uint64_t i = 0; i < (n < 100 ? n + 2 : 10); i++)
      printf(" %" PRIu64, values[i]);
    printf("; then %" PRIu64 "\n", rtrand(g, 1000));
  }
  rtdrand(g);
}

/* ---- sorting ---- */

/* 0 and -0 compare equal, so where each ends shows the algorithm's steps:
 * print values, with the sign of zeros. */
static void print_doubles(const char *what, size_t n, const double *v) {
  printf("%s %zu:", what, n);
  for (size_t i = 0; i < n; i++)
    printf(" %g", v[i]);
  printf("\n");
}

static void section_sort(void) {
  static const double pool[] = {-0.0, 0.0, 1, -1, 2.5, -2.5, INFINITY, -INFINITY, 3, 1e-300};
  static int64_t vi[5000 + 4];
  static double vd[5000 + 4];
  static float vf[5000 + 4];
  static const size_t sizes[] = {0, 1, 2, 3, 5, 15, 16, 17, 18, 31, 32, 33, 40,
                                 63, 64, 65, 100, 127, 200, 257, 1000, 5000};
  for (size_t k = 0; k < COUNT(sizes); k++) {
    for (int variant = 0; variant < 4; variant++) {
      size_t n = sizes[k];
      for (size_t i = 0; i < n + 4; i++) {
        uint64_t r = next_random();
        size_t p = (size_t)(r % (variant == 0 ? 2 : variant == 1 ? 4 : COUNT(pool)));
        double v = variant == 3 ? (double)(int64_t)(r >> 40) - 8e6 : pool[p];
        if (variant == 2 && i % 3 == 0) /* runs, descending and equal */
          v = i % 2 ? -(double)i : 0.0;
        vd[i] = v;
        vf[i] = (float)v;
        vi[i] = variant == 3 ? (int64_t)r : (int64_t)(r % 7) - 3;
      }
      /* the memref starts 2 elements in: sorting starts at aligned + offset */
      struct shape s = {1, 2, {(int64_t)n}, {1}};
      struct desc di = make_desc(vi, &s), dd = make_desc(vd, &s), df = make_desc(vf, &s);
      _mlir_ciface_stdSortI64(n, (struct rt_ranked_memref *)&di);
      _mlir_ciface_stdSortF64(n, (struct rt_ranked_memref *)&dd);
      _mlir_ciface_stdSortF32(n, (struct rt_ranked_memref *)&df);
      printf("sort variant %d ", variant);
      print_doubles("f64", n + 4, vd);
      printf("sort variant %d f32 %zu:", variant, n + 4);
      for (size_t i = 0; i < n + 4; i++)
        printf(" %g", vf[i]);
      printf("\nsort variant %d i64 %zu:", variant, n + 4);
      for (size_t i = 0; i < n + 4; i++)
        printf(" %" PRId64, vi[i]);
      printf("\n");
    }
  }
  /* An input that drives the introsort into its heapsort fallback (found
   * with McIlroy's "killer adversary" for quicksort, run against this sort
   * with a budget of 24 distinct values): odd positions below 24 and
   * positions 32..43 hold distinct values, all others tie as 0 and -0. */
  for (int i = 0; i < 64; i++) {
    int v = i < 24 && i % 2 ? i : i >= 32 && i < 44 ? 2 * (i - 32) : -1;
    vd[i] = v < 0 ? (i % 2 ? -0.0 : 0.0) : v - 25;
    vf[i] = (float)vd[i];
    vi[i] = v < 0 ? 0 : v - 25;
  }
  struct shape killer = {1, 0, {64}, {1}};
  struct desc ki = make_desc(vi, &killer), kd = make_desc(vd, &killer), kf = make_desc(vf, &killer);
  _mlir_ciface_stdSortI64(64, (struct rt_ranked_memref *)&ki);
  _mlir_ciface_stdSortF64(64, (struct rt_ranked_memref *)&kd);
  _mlir_ciface_stdSortF32(64, (struct rt_ranked_memref *)&kf);
  print_doubles("killer f64", 64, vd);
  printf("killer f32 64:");
  for (int i = 0; i < 64; i++)
    printf(" %g", vf[i]);
  printf("\nkiller i64 64:");
  for (int i = 0; i < 64; i++)
    printf(" %" PRId64, vi[i]);
  printf("\n");
  /* NaN-free input that is already sorted, reversed, or organ-pipe shaped */
  for (int shape = 0; shape < 3; shape++) {
    size_t n = 300;
    for (size_t i = 0; i < n; i++) {
      double v = shape == 0 ? (double)i : shape == 1 ? -(double)i : (double)(i < n / 2 ? i : n - i);
      vd[i] = (i % 5 == 0) ? (i % 2 ? -0.0 : 0.0) : v;
    }
    struct shape s = {1, 0, {(int64_t)n}, {1}};
    struct desc dd = make_desc(vd, &s);
    _mlir_ciface_stdSortF64(n, (struct rt_ranked_memref *)&dd);
    print_doubles("patterned", n, vd);
  }
}

/* ---- what cannot be compared as output: clocks and allocations ---- */

static void section_misc(void) {
  time_t now = time(NULL);
  double t0 = rtclock(), t1 = rtclock();
  printf("rtclock %s\n", fabs(t0 - (double)now) < 10 && t1 >= t0 ? "ok" : "wrong");
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  int64_t n0 = _mlir_ciface_nanoTime(), n1 = _mlir_ciface_nanoTime();
  double secs = (double)n0 / 1e9 - (double)ts.tv_sec;
  printf("nanoTime %s\n", secs > -10 && secs < 10 && n1 >= n0 ? "ok" : "wrong");
  unsigned char *p = mlirAlloc(37);
  if (p)
    memset(p, 1, 37);
  printf("mlirAlloc(37) %s\n", p ? "ok" : "NULL");
  mlirFree(p);
  p = mlirAlloc(0);
  printf("mlirAlloc(0) %s\n", p ? "not NULL" : "NULL");
  mlirFree(p);
  for (uint64_t align = 1; align <= 4096; align *= 4) {
    p = mlirAlignedAlloc(align, 4096);
    printf("mlirAlignedAlloc(%" PRIu64 ") %s\n", align,
           p && (uintptr_t)p % align == 0 ? "aligned" : "wrong");
    if (p)
      memset(p, 2, 4096);
    mlirAlignedFree(p);
  }
  mlirFree(NULL);
  mlirAlignedFree(NULL);
}

struct section {
  const char *name;
  void (*run)(void);
};

static const struct section sections[] = {
    {"scalars", section_scalars}, {"halves", section_halves}, {"memrefs", section_memrefs},
    {"shapes", section_shapes},   {"verify", section_verify}, {"copy", section_copy},
    {"random", section_random},   {"sort", section_sort},     {"misc", section_misc},
};

int main(int argc, char **argv) {
  bool perturbed = argc == 3 && strcmp(argv[2], "--perturb") == 0;
  if (argc < 2 || argc > 3 || (argc == 3 && !perturbed)) {
    fprintf(stderr, "usage: runner_check SECTION [--perturb]\n");
    return 2;
  }
  fill_data();
  for (size_t i = 0; i < COUNT(sections); i++) {
    if (strcmp(argv[1], sections[i].name) != 0)
      continue;
    sections[i].run();
    if (perturbed)
      printf("perturbed\n");
    printf("== end of %s\n", sections[i].name);
    return fflush(stdout) == 0 ? 0 : 1;
  }
  fprintf(stderr, "runner_check: unknown section '%s'\n", argv[1]);
  return 2;
}
