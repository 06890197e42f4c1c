/* device_mma_cdna.c: gpu.subgroup_mma fragments on CDNA (gfx908, gfx90a,
 * gfx942, gfx950): MFMA on 64-lane wavefronts.
 *
 * The fragment type is opaque to programs, so its layout is gpucc's to
 * choose; it is the register layout of the 16x16xK MFMAs with one block,
 * which the ISA fixes as (lane l of 64, i-th register element of a lane,
 * w = K / 4 elements of A and B per lane):
 *
 *   A (16 x K)   lane l holds row l % 16, k = w * (l / 16) + i   (i < w)
 *   B (K x 16)   lane l holds column l % 16, k = w * (l / 16) + i
 *   C, D         lane l holds column l % 16, rows 4 * (l / 16) + i (i < 4)
 *                (32-bit accumulators: f32, i32)
 *
 * (AMD's matrix instruction calculator tabulates these, e.g. A[0][4] of
 * v_mfma_f32_16x16x16f16 is in lane 16, register 0, low half.) For the
 * gpu dialect's 16x16x16 that gives every role four elements a lane:
 *
 *   A: element e of lane l is (l % 16, 4 * (l / 16) + e)
 *   B: element e of lane l is (4 * (l / 16) + e, l % 16)
 *   C: element e of lane l is (4 * (l / 16) + e, l % 16)
 *
 * which is the native layout of v_mfma_*_16x16x16 (f16; bf16 _1k; i8 up
 * to gfx90a). Where a type has no 16x16x16 MFMA the product is a sum of
 * narrower ones over parts of each lane's four elements (struct mfma_plan):
 * f32 is four 16x16x4 (w = 1: element j of every lane is k-slice j),
 * gfx908's bf16 two 16x16x8 (elements 0-1, then 2-3), and i8 on gfx942 and
 * later one 16x16x32 whose lanes get their four values and four zeros.
 * That is right whatever order the instruction gives k within a lane,
 * because A and B are fed alike: each MFMA sums A[r][k] B[k][c] over the
 * same k for both, and the parts cover each k once. The unit test
 * tests/tensorcore/cdna_layout_test.c checks this against a plain matmul
 * by simulating the instructions lane by lane.
 *
 * bf16 has its instructions here too, though LLVM 22's gpu dialect admits
 * no bf16 matrices yet (only the unit test reaches them).
 *
 * There are no MFMAs with 16-bit accumulators: f16 and bf16 C fragments
 * are widened to f32 around the instructions and rounded once per compute
 * (RDNA3's WMMA also rounds once per instruction). */
#include "device_mma_cdna.h"

#include "diag.h"
#include "xstr.h"

#include <stdio.h>

/* Element e of a lane as a linear form in (lane % 16, lane / 16, e):
 * row = row[0] * (l % 16) + row[1] * (l / 16) + row[2] * e, col alike. */
struct lane_map {
  unsigned row[3], col[3];
};

static const struct lane_map map_a = {{1, 0, 0}, {0, 4, 1}};
static const struct lane_map map_bc = {{0, 4, 1}, {1, 0, 0}};

static const struct lane_map *map_of(char role) { return role == 'A' ? &map_a : &map_bc; }

void mma_cdna_element(char role, unsigned lane, unsigned e, unsigned *row, unsigned *col) {
  const struct lane_map *m = map_of(role);
  unsigned v[3] = {lane % 16, lane / 16, e};
  *row = *col = 0;
  for (int i = 0; i < 3; i++) {
    *row += m->row[i] * v[i];
    *col += m->col[i] * v[i];
  }
}

/* MLIR text defining %<name> as the linear form k over %lm, %lh, %e. The
 * coefficients are constants the access functions define (%c0, %c1, %c4);
 * the multiplies by 0 and 1 fold away. */
static size_t form_text(char *buf, size_t size, const char *name, const unsigned k[3]) {
  return (size_t)snprintf(buf, size,
                          "%%%s_a = arith.muli %%lm, %%c%u : index\n"
                          "    %%%s_b = arith.muli %%lh, %%c%u : index\n"
                          "    %%%s_c = arith.muli %%e, %%c%u : index\n"
                          "    %%%s_ab = arith.addi %%%s_a, %%%s_b : index\n"
                          "    %%%s = arith.addi %%%s_ab, %%%s_c : index\n    ",
                          name, k[0], name, k[1], name, k[2], name, name, name, name, name, name);
}

int mma_cdna_fragment(const struct mma_type *m, struct fragment *f, char *why, size_t n) {
  int input = m->role != 'C';
  int ok = input ? !strcmp(m->elem, "f16") || !strcmp(m->elem, "bf16") || !strcmp(m->elem, "f32") ||
                       !strcmp(m->elem, "i8")
                 : !strcmp(m->elem, "f32") || !strcmp(m->elem, "f16") || !strcmp(m->elem, "bf16") ||
                       !strcmp(m->elem, "i32");
  if (m->rows != 16 || m->cols != 16 || !ok) {
    snprintf(why, n, "MFMA takes 16x16 matrices of f16, f32 or si8 operands and f32, f16 or i32 "
                     "accumulators, not %ux%ux%s%s",
             m->rows, m->cols, m->sign == 'u' ? "u" : m->sign == 's' ? "s" : "", m->elem);
    return -1;
  }
  const struct lane_map *map = map_of(m->role);
  size_t k = form_text(f->position, sizeof f->position, "row", map->row);
  if (k >= sizeof f->position ||
      form_text(f->position + k, sizeof f->position - k, "col", map->col) >= sizeof f->position - k)
    BUG("fragment position text too long");
  f->count = f->size = 4;
  f->stride = 1;
  return 0;
}

int mma_cdna_plan(enum mma_layout layout, const char *elem, struct mfma_plan *p) {
  static const struct mfma_plan whole = {1, {{0, 4, 4}}};
  static const struct mfma_plan halves = {2, {{0, 2, 2}, {2, 2, 2}}};
  static const struct mfma_plan quarters = {4, {{0, 1, 1}, {1, 1, 1}, {2, 1, 1}, {3, 1, 1}}};
  static const struct mfma_plan padded = {1, {{0, 4, 8}}};
  if (layout != MMA_LAYOUT_CDNA1 && layout != MMA_LAYOUT_CDNA2 && layout != MMA_LAYOUT_CDNA3)
    return -1;
  if (!strcmp(elem, "f16"))
    *p = whole; /* v_mfma_f32_16x16x16f16 everywhere */
  else if (!strcmp(elem, "bf16"))
    *p = layout == MMA_LAYOUT_CDNA1 ? halves : whole; /* 16x16x8bf16; 16x16x16bf16_1k */
  else if (!strcmp(elem, "f32"))
    *p = quarters; /* v_mfma_f32_16x16x4f32 */
  else if (!strcmp(elem, "i8"))
    *p = layout == MMA_LAYOUT_CDNA3 ? padded : whole; /* 16x16x32_i8; 16x16x16i8 */
  else
    return -1;
  return 0;
}

/* The operand type of one MFMA step: a scalar for one element. */
static void step_type(char *buf, size_t size, const struct mfma_step *s, const char *elem) {
  if (s->width == 1)
    snprintf(buf, size, "%s", elem);
  else
    snprintf(buf, size, "vector<%ux%s>", s->width, elem);
}

/* Writes the step's part of fragment %<frag> (vector<4 x elem>) as a value
 * and its name into name: the fragment itself when the step takes it
 * whole, else %<frag><i>. */
static void step_operand(FILE *o, char *name, size_t size, const char *frag, unsigned i,
                         const struct mfma_step *s, const char *elem) {
  if (s->from == 0 && s->take == 4 && s->width == 4) {
    snprintf(name, size, "%%%s", frag);
    return;
  }
  snprintf(name, size, "%%%s%u", frag, i);
  if (s->width == 1) {
    fprintf(o, "  %s = vector.extract %%%s[%u] : %s from vector<4x%s>\n", name, frag, s->from, elem, elem);
    return;
  }
  /* Elements from..from+take-1, then zeros (index 4: the first of %zero). */
  fprintf(o, "  %s = vector.shuffle %%%s, %%zero [", name, frag);
  for (unsigned k = 0; k < s->width; k++)
    fprintf(o, "%s%u", k ? ", " : "", k < s->take ? s->from + k : 4);
  fprintf(o, "] : vector<4x%s>, vector<4x%s>\n", elem, elem);
}

char *mma_cdna_compute(const struct mfma_plan *p, const struct mma_type *a, const struct mma_type *c) {
  int fa = mma_is_float(a->elem), fc = mma_is_float(c->elem);
  if (fa != fc || (!fa && strcmp(c->elem, "i32") != 0))
    return NULL;
  /* The instructions accumulate in 32 bits. */
  const char *acc = fc ? "f32" : "i32";
  int widen = strcmp(c->elem, acc) != 0;
  char *text = NULL;
  size_t len = 0;
  FILE *o = open_memstream(&text, &len);
  if (!o)
    BUG("out of memory");
  fprintf(o, "func.func private @NAME(%%a: vector<4x%s>, %%b: vector<4x%s>, %%c: vector<4x%s>) -> vector<4x%s> {\n",
          a->elem, a->elem, c->elem, c->elem);
  fprintf(o, "  %%zero = arith.constant dense<%s> : vector<4x%s>\n", fa ? "0.0" : "0", a->elem);
  char sum[16] = "%c";
  if (widen) {
    fprintf(o, "  %%cw = arith.extf %%c : vector<4x%s> to vector<4x%s>\n", c->elem, acc);
    snprintf(sum, sizeof sum, "%%cw");
  }
  for (unsigned i = 0; i < p->steps; i++) {
    const struct mfma_step *s = &p->step[i];
    char ty[64], an[16], bn[16];
    step_type(ty, sizeof ty, s, a->elem);
    step_operand(o, an, sizeof an, "a", i, s, a->elem);
    step_operand(o, bn, sizeof bn, "b", i, s, a->elem);
    fprintf(o, "  %%d%u = amdgpu.mfma 16x16x%u %s * %s + %s "
               "{ abid = 0 : i32, cbsz = 0 : i32, blocks = 1 : i32 } blgp = none : %s, %s, vector<4x%s>\n",
            i, 4 * s->width, an, bn, sum, ty, ty, acc);
    snprintf(sum, sizeof sum, "%%d%u", i);
  }
  if (widen) {
    fprintf(o, "  %%r = arith.truncf %s : vector<4x%s> to vector<4x%s>\n", sum, acc, c->elem);
    snprintf(sum, sizeof sum, "%%r");
  }
  fprintf(o, "  return %s : vector<4x%s>\n}\n", sum, c->elem);
  fclose(o);
  return text;
}

char *mma_cdna_whole_waves(void) {
  return xasprintf("func.func private @NAME() -> i1 {\n"
                   "  %%x = gpu.block_dim x\n  %%y = gpu.block_dim y\n  %%z = gpu.block_dim z\n"
                   "  %%xy = arith.muli %%x, %%y : index\n  %%n = arith.muli %%xy, %%z : index\n"
                   "  %%c0 = arith.constant 0 : index\n  %%lanes = arith.constant %d : index\n"
                   "  %%rest = arith.remui %%n, %%lanes : index\n"
                   "  %%ok = arith.cmpi eq, %%rest, %%c0 : index\n  return %%ok : i1\n}\n",
                   MMA_CDNA_LANES);
}
