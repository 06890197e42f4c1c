/* lanes_layout_test.c: the fragment layout of device_mma_lanes.c (AMD
 * chips without a matrix unit) gives a plain matrix product. There is no
 * AMD GPU here, so this is the semantic evidence of the index arithmetic:
 *   1. every 16x16 matrix element is one element of one lane of a 32-lane
 *      group, and lanes l and l + 32 of a wave64 hold the same ones;
 *   2. the position text the load and store functions run (MLIR arith on
 *      index values) is evaluated here, lane by lane, and gives the same
 *      (row, col) as mma_lanes_element;
 *   3. random A, B, C are dealt to 64 lanes (a gfx9 wavefront; two 32-lane
 *      groups), the product is run as the compute text does it: each lane
 *      reads, for step k and element e, element `elem` of lane
 *      group + h * lane_h + lm * lane_m + offset (mma_lanes_source) and
 *      multiply-adds; D is read back through mma_lanes_element from each
 *      group and compared with C + A * B;
 *   4. the compute text shuffles exactly the distinct sources (16 x 8 for
 *      A, 16 for B; twice that for f64, in 32-bit halves), uses no matrix
 *      instruction, and refuses float by integer.
 * Integers stand in for every element type: the check is of which elements
 * meet, not of rounding. */
#include "device_mma_lanes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 16
#define WAVE 64
#define COUNT MMA_LANES_COUNT

static int failures;

static void check(int ok, const char *what) {
  if (!ok) {
    fprintf(stderr, "FAIL: %s\n", what);
    failures++;
  }
}

static void test_cover(void) {
  int seen[N][N] = {{0}};
  for (unsigned l = 0; l < MMA_LANES_GROUP; l++)
    for (unsigned e = 0; e < COUNT; e++) {
      unsigned r, c, r2, c2;
      mma_lanes_element(l, e, &r, &c);
      mma_lanes_element(l + MMA_LANES_GROUP, e, &r2, &c2);
      check(r == r2 && c == c2, "lanes l and l + 32 hold the same element");
      if (r >= N || c >= N) {
        check(0, "element outside the matrix");
        continue;
      }
      seen[r][c]++;
    }
  for (int r = 0; r < N; r++)
    for (int c = 0; c < N; c++)
      check(seen[r][c] == 1, "each matrix element held once per group");
}

/* ---- a small evaluator of the position text ---- */

struct var {
  char name[16];
  unsigned long value;
};

static unsigned long lookup(struct var *v, int n, const char *name) {
  for (int i = 0; i < n; i++)
    if (!strcmp(v[i].name, name))
      return v[i].value;
  fprintf(stderr, "FAIL: position text uses undefined %%%s\n", name);
  failures++;
  return 0;
}

/* Runs lines "%x = arith.OP %a, %b : index" of text with %lm, %lh, %e and
 * the access functions' constants defined; *row and *col get the result. */
static void evaluate(const char *text, unsigned lane, unsigned e, unsigned *row, unsigned *col) {
  struct var v[64] = {{"lm", lane % 16}, {"lh", lane / 16}, {"e", e},   {"c0", 0},
                      {"c1", 1},         {"c2", 2},         {"c4", 4},  {"c8", 8},
                      {"c16", 16}};
  int n = 9;
  const char *p = text;
  *row = *col = ~0u;
  while (*p) {
    char dst[16], op[16], x[16], y[16];
    int used = 0;
    if (sscanf(p, " %%%15[a-z0-9_] = arith.%15[a-z] %%%15[a-z0-9_], %%%15[a-z0-9_] : index%n", dst, op, x, y,
               &used) != 4 ||
        n == 64) {
      check(0, "position text is not arith on index values");
      return;
    }
    unsigned long a = lookup(v, n, x), b = lookup(v, n, y), r = 0;
    if (!strcmp(op, "addi"))
      r = a + b;
    else if (!strcmp(op, "muli"))
      r = a * b;
    else if (!strcmp(op, "remui"))
      r = b ? a % b : 0;
    else if (!strcmp(op, "divui"))
      r = b ? a / b : 0;
    else
      check(0, "unknown op in the position text");
    snprintf(v[n].name, sizeof v[n].name, "%s", dst);
    v[n++].value = r;
    p += used;
    while (*p == '\n' || *p == ' ')
      p++;
  }
  *row = (unsigned)lookup(v, n, "row");
  *col = (unsigned)lookup(v, n, "col");
}

static void test_position(void) {
  static const char *const roles = "ABC";
  for (int i = 0; i < 3; i++) {
    struct mma_type m = {16, 16, "f16", roles[i], 0};
    struct fragment f;
    char why[256];
    check(mma_lanes_fragment(&m, &f, why, sizeof why) == 0, "16x16xf16 has a fragment");
    check(f.count == COUNT && f.size == COUNT && f.stride == 1, "eight elements a lane, packed");
    for (unsigned l = 0; l < WAVE; l++)
      for (unsigned e = 0; e < COUNT; e++) {
        unsigned r, c, r2, c2;
        evaluate(f.position, l, e, &r, &c);
        mma_lanes_element(l, e, &r2, &c2);
        check(r == r2 && c == c2, "the position text computes mma_lanes_element");
      }
  }
}

/* ---- the product, as the compute text does it ---- */

static void test_product(void) {
  long A[N][N], B[N][N], C[N][N];
  for (int r = 0; r < N; r++)
    for (int c = 0; c < N; c++) {
      A[r][c] = rand() % 17 - 8;
      B[r][c] = rand() % 13 - 6;
      C[r][c] = rand() % 101 - 50;
    }
  long fa[WAVE][COUNT], fb[WAVE][COUNT], fc[WAVE][COUNT];
  for (unsigned l = 0; l < WAVE; l++)
    for (unsigned e = 0; e < COUNT; e++) {
      unsigned r, c;
      mma_lanes_element(l, e, &r, &c);
      fa[l][e] = A[r][c];
      fb[l][e] = B[r][c];
      fc[l][e] = C[r][c];
    }
  /* The text computes each role's base once, from (k, e) = (0, 0). */
  struct lanes_source base[2];
  mma_lanes_source('A', 0, 0, &base[0]);
  mma_lanes_source('B', 0, 0, &base[1]);
  long fd[WAVE][COUNT];
  for (unsigned l = 0; l < WAVE; l++) {
    unsigned h = l % MMA_LANES_GROUP / 16, lm = l % 16, group = l - l % MMA_LANES_GROUP;
    for (unsigned e = 0; e < COUNT; e++) {
      long sum = fc[l][e];
      for (unsigned k = 0; k < N; k++) {
        long v[2];
        for (int i = 0; i < 2; i++) {
          struct lanes_source s;
          mma_lanes_source("AB"[i], k, e, &s);
          check(s.lane_h == base[i].lane_h && s.lane_m == base[i].lane_m,
                "a role's lane coefficients are the same for every k and e");
          unsigned src = group + h * s.lane_h + lm * s.lane_m + s.offset;
          check(src >= group && src < group + MMA_LANES_GROUP && s.elem < COUNT,
                "a source lane inside the lane's own group");
          v[i] = i ? fb[src % WAVE][s.elem % COUNT] : fa[src % WAVE][s.elem % COUNT];
        }
        sum += v[0] * v[1];
      }
      fd[l][e] = sum;
    }
  }
  for (unsigned l = 0; l < WAVE; l++)
    for (unsigned e = 0; e < COUNT; e++) {
      unsigned r, c;
      mma_lanes_element(l, e, &r, &c);
      long want = C[r][c];
      for (int k = 0; k < N; k++)
        want += A[r][k] * B[k][c];
      check(fd[l][e] == want, "D = C + A * B in every lane of both groups");
    }
}

static int count(const char *text, const char *what) {
  int n = 0;
  for (const char *p = text; (p = strstr(p, what)) != NULL; p += strlen(what))
    n++;
  return n;
}

static void test_text(void) {
  struct mma_type a = {16, 16, "f16", 'A', 0}, b = {16, 16, "f16", 'B', 0}, c = {16, 16, "f32", 'C', 0};
  char *t = mma_lanes_compute(&a, &b, &c);
  check(t && count(t, "gpu.shuffle idx") == 16 * 8 + 16, "f16: 144 shuffles");
  check(t && count(t, "arith.mulf") == 16 * 8 && count(t, "arith.extf") == 2, "f16: 128 products, widened to f32");
  check(t && !strstr(t, "amdgpu.") && !strstr(t, "rocdl."), "no matrix instruction");
  free(t);
  struct mma_type d = {16, 16, "f64", 'A', 0}, e = {16, 16, "f64", 'B', 0}, f = {16, 16, "f64", 'C', 0};
  t = mma_lanes_compute(&d, &e, &f);
  check(t && count(t, "gpu.shuffle idx") == 2 * (16 * 8 + 16) && count(t, ": f64\n") >= 128,
        "f64: shuffled in 32-bit halves, summed in f64");
  free(t);
  struct mma_type si = {16, 16, "i8", 'A', 's'}, ui = {16, 16, "i8", 'B', 'u'}, ci = {16, 16, "i32", 'C', 0};
  t = mma_lanes_compute(&si, &ui, &ci);
  check(t && strstr(t, "arith.extsi") && strstr(t, "arith.extui") && count(t, "arith.muli %A") == 128,
        "si8 x ui8 -> i32: widened by sign, summed in i32");
  free(t);
  check(mma_lanes_compute(&a, &si, &c) == NULL, "float by integer refused");
  struct mma_type wide = {32, 8, "f16", 'C', 0};
  struct fragment fr;
  char why[256] = "";
  check(mma_lanes_fragment(&wide, &fr, why, sizeof why) != 0 && strstr(why, "not 32x8xf16"),
        "32x8 refused with the shape named");
}

int main(void) {
  srand(23);
  test_cover();
  test_position();
  for (int i = 0; i < 8; i++)
    test_product();
  test_text();
  if (failures)
    return 1;
  printf("ok: lanes layout\n");
  return 0;
}
