/* cdna_layout_test.c: the CDNA fragment layout of device_mma_cdna.c gives
 * a plain matrix product. There is no AMD GPU here, so this is the
 * semantic evidence: for each chip family and operand type it
 *   1. loads random 16x16 A, B, C into 64 lanes' fragments through
 *      mma_cdna_element (what the load functions compute),
 *   2. runs the MFMAs of mma_cdna_plan as the ISA defines them lane by
 *      lane (16x16xK, one block, w = K / 4 operand elements a lane: lane l
 *      gives A row l % 16 and B column l % 16 at k = w * (l / 16) + i, and
 *      holds D column l % 16, rows 4 * (l / 16) + i),
 *   3. stores D through mma_cdna_element,
 * and compares with C + A * B computed directly. Integers stand in for
 * every element type: the check is of which elements meet, not of
 * rounding. It also checks that each role's mapping covers every matrix
 * element exactly once, and that the compute text names the instructions
 * of the plan. */
#include "device_mma_cdna.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 16
#define LANES MMA_CDNA_LANES

static int failures;

static void check(int ok, const char *what, const char *family, const char *elem) {
  if (!ok) {
    fprintf(stderr, "FAIL: %s (%s, %s)\n", what, family, elem);
    failures++;
  }
}

/* Every (row, col) of a 16x16 matrix is some lane's element exactly once. */
static int covers_once(char role) {
  int seen[N][N] = {{0}};
  for (unsigned l = 0; l < LANES; l++)
    for (unsigned e = 0; e < 4; e++) {
      unsigned r, c;
      mma_cdna_element(role, l, e, &r, &c);
      if (r >= N || c >= N)
        return 0;
      seen[r][c]++;
    }
  for (int r = 0; r < N; r++)
    for (int c = 0; c < N; c++)
      if (seen[r][c] != 1)
        return 0;
  return 1;
}

/* One MFMA 16x16x(4w) with one block, as the ISA defines its registers:
 * a[l][i], b[l][i] (i < w) the operands of lane l, d[l][i] (i < 4) its
 * accumulator, updated in place. */
static void mfma(unsigned w, long a[LANES][8], long b[LANES][8], long d[LANES][4]) {
  long A[N][32], B[32][N];
  for (unsigned l = 0; l < LANES; l++)
    for (unsigned i = 0; i < w; i++) {
      unsigned k = w * (l / 16) + i;
      A[l % 16][k] = a[l][i];
      B[k][l % 16] = b[l][i];
    }
  for (unsigned l = 0; l < LANES; l++)
    for (unsigned i = 0; i < 4; i++) {
      unsigned row = 4 * (l / 16) + i, col = l % 16;
      for (unsigned k = 0; k < 4 * w; k++)
        d[l][i] += A[row][k] * B[k][col];
    }
}

static void run(enum mma_layout layout, const char *family, const char *elem) {
  struct mfma_plan p;
  if (mma_cdna_plan(layout, elem, &p) != 0) {
    check(0, "no plan", family, elem);
    return;
  }
  long A[N][N], B[N][N], C[N][N];
  for (int r = 0; r < N; r++)
    for (int c = 0; c < N; c++) {
      A[r][c] = rand() % 17 - 8;
      B[r][c] = rand() % 13 - 6;
      C[r][c] = rand() % 101 - 50;
    }
  /* 1. the loads */
  long fa[LANES][4], fb[LANES][4], d[LANES][4];
  for (unsigned l = 0; l < LANES; l++)
    for (unsigned e = 0; e < 4; e++) {
      unsigned r, c;
      mma_cdna_element('A', l, e, &r, &c);
      fa[l][e] = A[r][c];
      mma_cdna_element('B', l, e, &r, &c);
      fb[l][e] = B[r][c];
      mma_cdna_element('C', l, e, &r, &c);
      d[l][e] = C[r][c];
    }
  /* 2. the plan's instructions, each fed its part of every lane's
   * fragments and zeros after it */
  unsigned used[4] = {0};
  for (unsigned s = 0; s < p.steps; s++) {
    const struct mfma_step *st = &p.step[s];
    long a[LANES][8] = {{0}}, b[LANES][8] = {{0}};
    check(st->take <= st->width && st->width <= 8 && st->from + st->take <= 4, "step in range", family,
          elem);
    for (unsigned l = 0; l < LANES; l++)
      for (unsigned i = 0; i < st->take; i++) {
        a[l][i] = fa[l][st->from + i];
        b[l][i] = fb[l][st->from + i];
      }
    for (unsigned i = 0; i < st->take; i++)
      used[st->from + i]++;
    mfma(st->width, a, b, d);
  }
  for (unsigned e = 0; e < 4; e++)
    check(used[e] == 1, "each fragment element used once", family, elem);
  /* 3. the store, against C + A * B */
  long D[N][N];
  memset(D, 0, sizeof D);
  for (unsigned l = 0; l < LANES; l++)
    for (unsigned e = 0; e < 4; e++) {
      unsigned r, c;
      mma_cdna_element('C', l, e, &r, &c);
      D[r][c] = d[l][e];
    }
  int bad = 0;
  for (int r = 0; r < N; r++)
    for (int c = 0; c < N; c++) {
      long want = C[r][c];
      for (int k = 0; k < N; k++)
        want += A[r][k] * B[k][c];
      bad += D[r][c] != want;
    }
  check(bad == 0, "D = C + A * B", family, elem);

  /* The function text issues the plan's instructions. */
  struct mma_type a = {N, N, "", 'A', 0}, c = {N, N, "", 'C', 0};
  snprintf(a.elem, sizeof a.elem, "%s", elem);
  snprintf(c.elem, sizeof c.elem, "%s", strcmp(elem, "i8") ? "f32" : "i32");
  char *text = mma_cdna_compute(&p, &a, &c);
  check(text != NULL, "compute text", family, elem);
  if (text) {
    char want[64];
    snprintf(want, sizeof want, "amdgpu.mfma 16x16x%u ", 4 * p.step[0].width);
    unsigned count = 0;
    for (const char *q = text; (q = strstr(q, "amdgpu.mfma ")) != NULL; q++)
      count++;
    check(count == p.steps && strstr(text, want) != NULL, "compute text issues the plan", family, elem);
    free(text);
  }
}

int main(void) {
  srand(12345);
  check(covers_once('A') && covers_once('B') && covers_once('C'), "each role covers 16x16 once", "all", "-");
  /* Spot checks against the ISA's tables (v_mfma_f32_16x16x16f16):
   * A[0][4] is lane 16's first element, D[5][3] lane 19's second. */
  unsigned r, c;
  mma_cdna_element('A', 16, 0, &r, &c);
  check(r == 0 && c == 4, "A[0][4] in lane 16", "all", "-");
  mma_cdna_element('C', 19, 1, &r, &c);
  check(r == 5 && c == 3, "D[5][3] in lane 19", "all", "-");
  static const struct {
    enum mma_layout layout;
    const char *name;
  } families[] = {{MMA_LAYOUT_CDNA1, "gfx908"}, {MMA_LAYOUT_CDNA2, "gfx90a"}, {MMA_LAYOUT_CDNA3, "gfx942"}};
  static const char *const elems[] = {"f16", "bf16", "f32", "i8"};
  for (size_t f = 0; f < sizeof families / sizeof families[0]; f++)
    for (size_t e = 0; e < sizeof elems / sizeof elems[0]; e++)
      for (int trial = 0; trial < 4; trial++)
        run(families[f].layout, families[f].name, elems[e]);
  /* What each family issues where it differs. */
  struct mfma_plan p;
  check(mma_cdna_plan(MMA_LAYOUT_CDNA1, "bf16", &p) == 0 && p.steps == 2 && p.step[0].width == 2,
        "gfx908 bf16: two 16x16x8", "gfx908", "bf16");
  check(mma_cdna_plan(MMA_LAYOUT_CDNA3, "i8", &p) == 0 && p.steps == 1 && p.step[0].width == 8 &&
            p.step[0].take == 4,
        "gfx942 i8: one padded 16x16x32", "gfx942", "i8");
  check(mma_cdna_plan(MMA_LAYOUT_GFX11, "f16", &p) != 0, "no plan off CDNA", "gfx11", "f16");
  if (failures)
    return 1;
  printf("ok: cdna layout\n");
  return 0;
}
