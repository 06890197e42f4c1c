/* device_mma_lanes.c: gpu.subgroup_mma fragments on AMD chips with no
 * matrix unit (gfx900, gfx906, gfx1030): no matrix instruction, so the
 * product is written with what every GCN and RDNA chip has, cross-lane
 * shuffles (ds_bpermute) and multiply-adds.
 *
 * The fragment type is opaque, so the layout is gpucc's to choose. A group
 * of 32 lanes holds a 16x16 matrix, eight elements a lane, the same way for
 * A, B and C (lane l, h = l % 32 / 16, element e < 8):
 *
 *   element e of lane l is (2e + h, l % 16)
 *
 * i.e. the row-major matrix dealt out to the lanes, element e of the group
 * being matrix elements 32e .. 32e + 31. Why 32 lanes and not the
 * wavefront: on wave64 chips (gfx9) each half of a wavefront holds a copy,
 * so a block of 32 threads (a whole NVIDIA warp, as programs written for
 * wmma launch) is enough, and two halves given the same matrix load,
 * multiply and store the same values. gfx1030 runs wave32 (LLVM's default
 * for RDNA, which gpucc keeps); the layout does not depend on it.
 *
 * compute: lane l's element e of C is C[2e + h][l % 16]; it needs, for each
 * k < 16, A[2e + h][k] and B[k][l % 16]. A[2e + h][k] is element e of the
 * lane with the same h and l % 16 = k; B[k][l % 16] is element k / 2 of the
 * lane with h = k % 2 and the same l % 16 (mma_lanes_source). Each shuffle
 * reads one element index that every lane sends, so a product is 16 x 8
 * shuffles for A and 16 for B, and 128 multiply-adds, per lane. The
 * operands travel widened to the accumulator's type (32 bits, which a
 * shuffle moves; f64 as two 32-bit halves). A shuffle names its source
 * by its lane number in the wavefront (gpu.shuffle idx as the ROCDL
 * lowering reads it: ds_bpermute from that lane, width 32 only bounding
 * it from above), so the group's first lane is added in. The unit test
 * tests/tensorcore/lanes_layout_test.c simulates exactly these exchanges
 * against a plain matrix product, and lanes_run.sh there runs this very
 * text on the host backend, whose 32-lane subgroups shuffle as a GPU's do.
 *
 * A shuffle reads its partner's register whether or not that lane runs: a
 * block whose size is not a whole number of 32-lane groups would feed the
 * product garbage, so compute and store assert it (device_mma.c), as on
 * CDNA. */
#include "device_mma_lanes.h"

#include "diag.h"
#include "xstr.h"

#include <stdio.h>

void mma_lanes_element(unsigned lane, unsigned e, unsigned *row, unsigned *col) {
  *row = 2 * e + lane % MMA_LANES_GROUP / 16;
  *col = lane % 16;
}

void mma_lanes_source(char role, unsigned k, unsigned e, struct lanes_source *s) {
  if (role == 'A') /* A[2e + h][k]: same h, l % 16 = k, element e */
    *s = (struct lanes_source){16, 0, k, e};
  else /* B[k][l % 16]: h = k % 2, same l % 16, element k / 2 */
    *s = (struct lanes_source){0, 1, 16 * (k % 2), k / 2};
}

int mma_lanes_fragment(const struct mma_type *m, struct fragment *f, char *why, size_t n) {
  static const char *const elems[] = {"f16", "bf16", "f32", "f64", "i8", "i32"};
  int ok = 0;
  for (size_t i = 0; i < sizeof elems / sizeof elems[0]; i++)
    ok |= !strcmp(m->elem, elems[i]);
  if (m->rows != 16 || m->cols != 16 || !ok) {
    snprintf(why, n, "gpucc's matrix lowering for chips without a matrix unit takes 16x16 matrices of "
                     "f16, f32, f64, si8, ui8 or i32, not %ux%ux%s%s",
             m->rows, m->cols, m->sign == 'u' ? "u" : m->sign == 's' ? "s" : "", m->elem);
    return -1;
  }
  /* %lh = lane / 16 is 0..3 on wave64: h is its parity. */
  snprintf(f->position, sizeof f->position, "%s",
           "%h = arith.remui %lh, %c2 : index\n"
           "    %e2 = arith.muli %e, %c2 : index\n"
           "    %row = arith.addi %e2, %h : index\n"
           "    %col = arith.addi %lm, %c0 : index\n");
  f->count = f->size = MMA_LANES_COUNT;
  f->stride = 1;
  return 0;
}

/* The type products are summed in, or NULL when a, b and c do not mix. */
static const char *accumulator(const struct mma_type *a, const struct mma_type *b, const struct mma_type *c) {
  int fa = mma_is_float(a->elem), fb = mma_is_float(b->elem), fc = mma_is_float(c->elem);
  if (fa != fb || fa != fc)
    return NULL;
  if (!fc)
    return !strcmp(c->elem, "i32") ? "i32" : NULL;
  return !strcmp(a->elem, "f64") || !strcmp(b->elem, "f64") || !strcmp(c->elem, "f64") ? "f64" : "f32";
}

/* The op widening a fragment of m (or narrowing, for C on the way back)
 * to acc, or NULL when the types match. */
static const char *convert_op(const struct mma_type *m, const char *acc, int back) {
  if (!strcmp(m->elem, acc))
    return NULL;
  if (mma_is_float(acc))
    return back ? "arith.truncf" : "arith.extf";
  if (back)
    return "arith.trunci";
  return m->sign == 'u' ? "arith.extui" : "arith.extsi";
}

/* %<name>_w: fragment %<name> in the accumulator's type, and its
 * elements %<name>_<e>. */
static void widen(FILE *o, const char *name, const struct mma_type *m, const char *acc) {
  const char *op = convert_op(m, acc, 0);
  if (op)
    fprintf(o, "  %%%s_w = %s %%%s : vector<8x%s> to vector<8x%s>\n", name, op, name, m->elem, acc);
  for (unsigned e = 0; e < MMA_LANES_COUNT; e++)
    fprintf(o, "  %%%s_%u = vector.extract %%%s%s[%u] : %s from vector<8x%s>\n", name, e, name,
            op ? "_w" : "", e, acc, acc);
}

/* %<out>: element `elem` of fragment %<frag> from the lane %<src> (i32),
 * through 32-bit shuffles. */
static void shuffle(FILE *o, const char *out, const char *frag, unsigned elem, const char *src,
                    const char *acc) {
  if (strcmp(acc, "f64") != 0) {
    fprintf(o, "  %%%s, %%%s_ok = gpu.shuffle idx %%%s_%u, %%%s, %%width : %s\n", out, out, frag, elem,
            src, acc);
    return;
  }
  fprintf(o, "  %%%s_i = arith.bitcast %%%s_%u : f64 to i64\n"
             "  %%%s_lo = arith.trunci %%%s_i : i64 to i32\n"
             "  %%%s_hs = arith.shrui %%%s_i, %%c32i64 : i64\n"
             "  %%%s_hi = arith.trunci %%%s_hs : i64 to i32\n"
             "  %%%s_lo2, %%%s_ok1 = gpu.shuffle idx %%%s_lo, %%%s, %%width : i32\n"
             "  %%%s_hi2, %%%s_ok2 = gpu.shuffle idx %%%s_hi, %%%s, %%width : i32\n"
             "  %%%s_lo3 = arith.extui %%%s_lo2 : i32 to i64\n"
             "  %%%s_hi3 = arith.extui %%%s_hi2 : i32 to i64\n"
             "  %%%s_hi4 = arith.shli %%%s_hi3, %%c32i64 : i64\n"
             "  %%%s_j = arith.ori %%%s_hi4, %%%s_lo3 : i64\n"
             "  %%%s = arith.bitcast %%%s_j : i64 to f64\n",
          out, frag, elem, out, out, out, out, out, out, out, out, out, src, out, out, out, src, out, out,
          out, out, out, out, out, out, out, out, out);
}

/* %<role>_base (i32): group + h * lane_h + lm * lane_m of role's sources. */
static void source_base(FILE *o, char role) {
  struct lanes_source s;
  mma_lanes_source(role, 0, 0, &s);
  fprintf(o, "  %%%c_ch = arith.constant %u : index\n  %%%c_cm = arith.constant %u : index\n",
          role, s.lane_h, role, s.lane_m);
  fprintf(o, "  %%%c_bh = arith.muli %%h, %%%c_ch : index\n  %%%c_bm = arith.muli %%lm, %%%c_cm : index\n",
          role, role, role, role);
  fprintf(o, "  %%%c_b0 = arith.addi %%group, %%%c_bh : index\n  %%%c_b1 = arith.addi %%%c_b0, %%%c_bm : index\n",
          role, role, role, role, role);
  fprintf(o, "  %%%c_base = arith.index_cast %%%c_b1 : index to i32\n", role, role);
}

/* Whether another element than elem of this offset was shuffled before
 * (then its source lane is defined already). */
static int seen_offset(const unsigned char seen[MMA_LANES_GROUP][MMA_LANES_COUNT], unsigned offset,
                       unsigned elem) {
  for (unsigned e = 0; e < MMA_LANES_COUNT; e++)
    if (e != elem && seen[offset][e])
      return 1;
  return 0;
}

char *mma_lanes_compute(const struct mma_type *a, const struct mma_type *b, const struct mma_type *c) {
  const char *acc = accumulator(a, b, c);
  if (!acc)
    return NULL;
  int fl = mma_is_float(acc);
  char *text = NULL;
  size_t len = 0;
  FILE *o = open_memstream(&text, &len);
  if (!o)
    BUG("out of memory");
  fprintf(o, "func.func private @NAME(%%a: vector<8x%s>, %%b: vector<8x%s>, %%c: vector<8x%s>) -> vector<8x%s> {\n",
          a->elem, b->elem, c->elem, c->elem);
  fprintf(o, "  %%c0 = arith.constant 0 : index\n  %%c2 = arith.constant 2 : index\n"
             "  %%c16 = arith.constant 16 : index\n  %%c32 = arith.constant %d : index\n"
             "  %%c32i64 = arith.constant 32 : i64\n  %%width = arith.constant %d : i32\n"
             "  %%lane = gpu.lane_id\n  %%lm = arith.remui %%lane, %%c16 : index\n"
             "  %%lh = arith.divui %%lane, %%c16 : index\n  %%h = arith.remui %%lh, %%c2 : index\n"
             "  %%in = arith.remui %%lane, %%c32 : index\n  %%group = arith.subi %%lane, %%in : index\n",
          MMA_LANES_GROUP, MMA_LANES_GROUP);
  source_base(o, 'A');
  source_base(o, 'B');
  widen(o, "a", a, acc);
  widen(o, "b", b, acc);
  widen(o, "c", c, acc);
  /* Each distinct (source lane offset, element) of a role is shuffled
   * once: %A<offset>_<elem>, %B<offset>_<elem>. */
  unsigned char seen[2][MMA_LANES_GROUP][MMA_LANES_COUNT] = {{{0}}};
  for (unsigned k = 0; k < 16; k++)
    for (unsigned e = 0; e < MMA_LANES_COUNT; e++) {
      char val[2][32];
      for (int r = 0; r < 2; r++) {
        char role = "AB"[r];
        struct lanes_source s;
        mma_lanes_source(role, k, e, &s);
        if (s.offset >= MMA_LANES_GROUP || s.elem >= MMA_LANES_COUNT)
          BUG("lane source out of range");
        snprintf(val[r], sizeof val[r], "%c%u_%u", role, s.offset, s.elem);
        if (seen[r][s.offset][s.elem]++)
          continue;
        char src[32];
        snprintf(src, sizeof src, "%c%u_src", role, s.offset);
        if (!seen_offset(seen[r], s.offset, s.elem))
          fprintf(o, "  %%%c%u_off = arith.constant %u : i32\n  %%%s = arith.addi %%%c_base, %%%c%u_off : i32\n",
                  role, s.offset, s.offset, src, role, role, s.offset);
        shuffle(o, val[r], r ? "b" : "a", s.elem, src, acc);
      }
      char prev[32];
      if (k)
        snprintf(prev, sizeof prev, "s%u_%u", k, e);
      else
        snprintf(prev, sizeof prev, "c_%u", e);
      fprintf(o, "  %%p%u_%u = %s %%%s, %%%s : %s\n  %%s%u_%u = %s %%%s, %%p%u_%u : %s\n", k, e,
              fl ? "arith.mulf" : "arith.muli", val[0], val[1], acc, k + 1, e,
              fl ? "arith.addf" : "arith.addi", prev, k, e, acc);
    }
  fprintf(o, "  %%r = vector.from_elements ");
  for (unsigned e = 0; e < MMA_LANES_COUNT; e++)
    fprintf(o, "%s%%s16_%u", e ? ", " : "", e);
  fprintf(o, " : vector<8x%s>\n", acc);
  const char *back = convert_op(c, acc, 1);
  if (back)
    fprintf(o, "  %%d = %s %%r : vector<8x%s> to vector<8x%s>\n  return %%d : vector<8x%s>\n}\n", back, acc,
            c->elem, c->elem);
  else
    fprintf(o, "  return %%r : vector<8x%s>\n}\n", c->elem);
  fclose(o);
  return text;
}

char *mma_lanes_whole_groups(void) {
  return xasprintf("func.func private @NAME() -> i1 {\n"
                   "  %%x = gpu.block_dim x\n  %%y = gpu.block_dim y\n  %%z = gpu.block_dim z\n"
                   "  %%xy = arith.muli %%x, %%y : index\n  %%n = arith.muli %%xy, %%z : index\n"
                   "  %%c0 = arith.constant 0 : index\n  %%lanes = arith.constant %d : index\n"
                   "  %%rest = arith.remui %%n, %%lanes : index\n"
                   "  %%ok = arith.cmpi eq, %%rest, %%c0 : index\n  return %%ok : i1\n}\n",
                   MMA_LANES_GROUP);
}
