/* lanes_program.c: writes an MLIR program that runs the lane layout of
 * device_mma_lanes.c for real, on the host backend (lanes_run.sh builds and
 * runs it). There is no AMD GPU here, but the host runs kernels lane by
 * lane with real gpu.shuffle semantics over 32-lane subgroups, which is
 * all the layout uses: so the very MLIR text the lowering emits for
 * gfx900/gfx906/gfx1030 (the fragment position of the load and store
 * functions and the compute function with its shuffles) is executed here.
 *
 * For each operand combination (f16 x f16 -> f32, f64 x f64 -> f64 with
 * its 32-bit halves, si8 x ui8 -> i32 with bytes over 127, f16 x f16 ->
 * f16) a kernel loads A, B and C (16x16, row-major) into fragments through
 * the position text, calls the compute function, and stores D the same way;
 * it runs in one block of 64 threads (two subgroups: both must give the
 * same D). main compares D with its own loops and prints one line per
 * combination: "NAME mismatches: N". */
#include "device_mma_lanes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct combo {
  const char *name;
  struct mma_type a, b, c;
  const char *acc; /* the reference's type */
};

static const struct combo combos[] = {
    {"f16f32", {16, 16, "f16", 'A', 0}, {16, 16, "f16", 'B', 0}, {16, 16, "f32", 'C', 0}, "f32"},
    {"f64", {16, 16, "f64", 'A', 0}, {16, 16, "f64", 'B', 0}, {16, 16, "f64", 'C', 0}, "f64"},
    {"i8i32", {16, 16, "i8", 'A', 's'}, {16, 16, "i8", 'B', 'u'}, {16, 16, "i32", 'C', 0}, "i32"},
    {"f16f16", {16, 16, "f16", 'A', 0}, {16, 16, "f16", 'B', 0}, {16, 16, "f16", 'C', 0}, "f32"},
};
#define NCOMBOS (sizeof combos / sizeof combos[0])

/* A fragment of memref %m (256 x elem) into %<out>, through the layout's
 * position text, as device_mma.c's load function does it. */
static void load(const char *out, const char *m, const char *elem, const struct fragment *f) {
  printf("      %%%s = scf.for %%e = %%c0 to %%c8 step %%c1 iter_args(%%v = %%z_%s) -> (vector<8x%s>) {\n"
         "    %s"
         "        %%p0 = arith.muli %%row, %%c16 : index\n        %%p = arith.addi %%p0, %%col : index\n"
         "        %%x = memref.load %%%s[%%p] : memref<256x%s>\n"
         "        %%v2 = vector.insert %%x, %%v[%%e] : %s into vector<8x%s>\n"
         "        scf.yield %%v2 : vector<8x%s>\n      }\n",
         out, elem, elem, f->position, m, elem, elem, elem, elem);
}

static void kernel(const struct combo *k, unsigned i) {
  struct fragment f;
  char why[256];
  if (mma_lanes_fragment(&k->c, &f, why, sizeof why) != 0) {
    fprintf(stderr, "lanes_program: %s\n", why);
    exit(1);
  }
  char *compute = mma_lanes_compute(&k->a, &k->b, &k->c);
  if (!compute) {
    fprintf(stderr, "lanes_program: no compute for %s\n", k->name);
    exit(1);
  }
  char *at = strstr(compute, "@NAME");
  printf("    %.*s@compute_%s%s", (int)(at - compute), compute, k->name, at + 5);
  free(compute);
  const char *ea = k->a.elem, *eb = k->b.elem, *ec = k->c.elem;
  printf("    gpu.func @k%u(%%a: memref<256x%s>, %%b: memref<256x%s>, %%c: memref<256x%s>, "
         "%%d: memref<256x%s>) kernel {\n",
         i, ea, eb, ec, ec);
  printf("      %%c0 = arith.constant 0 : index\n      %%c1 = arith.constant 1 : index\n"
         "      %%c2 = arith.constant 2 : index\n      %%c4 = arith.constant 4 : index\n"
         "      %%c8 = arith.constant 8 : index\n      %%c16 = arith.constant 16 : index\n"
         "      %%lane = gpu.lane_id\n      %%lm = arith.remui %%lane, %%c16 : index\n"
         "      %%lh = arith.divui %%lane, %%c16 : index\n");
  const char *elems[3] = {ea, eb, ec};
  for (int r = 0; r < 3; r++) {
    int twice = 0;
    for (int q = 0; q < r; q++)
      twice |= !strcmp(elems[q], elems[r]);
    if (!twice)
      printf("      %%z_%s = arith.constant dense<%s> : vector<8x%s>\n", elems[r],
             mma_is_float(elems[r]) ? "0.0" : "0", elems[r]);
  }
  load("fa", "a", ea, &f);
  load("fb", "b", eb, &f);
  load("fc", "c", ec, &f);
  printf("      %%fd = func.call @compute_%s(%%fa, %%fb, %%fc) : (vector<8x%s>, vector<8x%s>, vector<8x%s>) "
         "-> vector<8x%s>\n",
         k->name, ea, eb, ec, ec);
  printf("      scf.for %%e = %%c0 to %%c8 step %%c1 {\n    %s"
         "        %%p0 = arith.muli %%row, %%c16 : index\n        %%p = arith.addi %%p0, %%col : index\n"
         "        %%x = vector.extract %%fd[%%e] : %s from vector<8x%s>\n"
         "        memref.store %%x, %%d[%%p] : memref<256x%s>\n      }\n      gpu.return\n    }\n",
         f.position, ec, ec, ec);
}

/* Element p of an operand as a small integer of type elem: a signed
 * pattern, or for ui8 200 and more (so that a sign extension would show). */
static void fill(const char *mem, const char *elem, char sign, unsigned mul, unsigned mod, int bias) {
  printf("    scf.for %%p = %%c0 to %%c256 step %%c1 {\n"
         "      %%m0 = arith.muli %%p, %%c%u : index\n      %%m1 = arith.remui %%m0, %%c%u : index\n"
         "      %%m2 = arith.index_cast %%m1 : index to i32\n      %%bias = arith.constant %d : i32\n"
         "      %%m3 = arith.addi %%m2, %%bias : i32\n",
         mul, mod, sign == 'u' ? 200 : bias);
  const char *x = "%m3";
  if (mma_is_float(elem))
    printf("      %%x = arith.sitofp %%m3 : i32 to %s\n", elem);
  else if (strcmp(elem, "i32") != 0)
    printf("      %%x = arith.trunci %%m3 : i32 to %s\n", elem);
  if (strcmp(elem, "i32") != 0)
    x = "%x";
  printf("      memref.store %s, %%%s[%%p] : memref<256x%s>\n    }\n", x, mem, elem);
}

/* %<out>: element %<idx> of memref %<mem> widened to acc. */
static void widened(const char *out, const char *mem, const char *idx, const struct mma_type *m, const char *acc) {
  printf("          %%%s0 = memref.load %%%s[%%%s] : memref<256x%s>\n", out, mem, idx, m->elem);
  if (!strcmp(m->elem, acc))
    printf("          %%%s = arith.select %%true, %%%s0, %%%s0 : %s\n", out, out, out, acc);
  else if (mma_is_float(acc))
    printf("          %%%s = arith.extf %%%s0 : %s to %s\n", out, out, m->elem, acc);
  else
    printf("          %%%s = %s %%%s0 : %s to %s\n", out, m->sign == 'u' ? "arith.extui" : "arith.extsi", out,
           m->elem, acc);
}

static void check(const struct combo *k, unsigned i) {
  const char *ea = k->a.elem, *eb = k->b.elem, *ec = k->c.elem, *acc = k->acc;
  int fl = mma_is_float(acc);
  printf("    %%a%u = memref.alloc() : memref<256x%s>\n    %%b%u = memref.alloc() : memref<256x%s>\n"
         "    %%c%uh = memref.alloc() : memref<256x%s>\n    %%d%uh = memref.alloc() : memref<256x%s>\n",
         i, ea, i, eb, i, ec, i, ec);
  {
    char a[16], b[16], c[16];
    snprintf(a, sizeof a, "a%u", i);
    snprintf(b, sizeof b, "b%u", i);
    snprintf(c, sizeof c, "c%uh", i);
    fill(a, ea, k->a.sign, 7, 11, -5);
    fill(b, eb, k->b.sign, 5, 9, -4);
    fill(c, ec, 0, 1, 13, -6);
  }
  printf("    %%da%u = gpu.alloc () : memref<256x%s>\n    %%db%u = gpu.alloc () : memref<256x%s>\n"
         "    %%dc%u = gpu.alloc () : memref<256x%s>\n    %%dd%u = gpu.alloc () : memref<256x%s>\n",
         i, ea, i, eb, i, ec, i, ec);
  printf("    gpu.memcpy %%da%u, %%a%u : memref<256x%s>, memref<256x%s>\n"
         "    gpu.memcpy %%db%u, %%b%u : memref<256x%s>, memref<256x%s>\n"
         "    gpu.memcpy %%dc%u, %%c%uh : memref<256x%s>, memref<256x%s>\n",
         i, i, ea, ea, i, i, eb, eb, i, i, ec, ec);
  printf("    gpu.launch_func @lanes::@k%u blocks in (%%c1, %%c1, %%c1) threads in (%%c64, %%c1, %%c1)\n"
         "        args(%%da%u : memref<256x%s>, %%db%u : memref<256x%s>, %%dc%u : memref<256x%s>, "
         "%%dd%u : memref<256x%s>)\n",
         i, i, ea, i, eb, i, ec, i, ec);
  printf("    gpu.memcpy %%d%uh, %%dd%u : memref<256x%s>, memref<256x%s>\n", i, i, ec, ec);
  printf("    %%bad%u = scf.for %%i = %%c0 to %%c16 step %%c1 iter_args(%%nb = %%c0) -> (index) {\n"
         "      %%nb2 = scf.for %%j = %%c0 to %%c16 step %%c1 iter_args(%%nbj = %%nb) -> (index) {\n"
         "        %%ci0 = arith.muli %%i, %%c16 : index\n        %%ci = arith.addi %%ci0, %%j : index\n",
         i);
  char cm[16], dm[16], am[16], bm[16];
  snprintf(cm, sizeof cm, "c%uh", i);
  snprintf(dm, sizeof dm, "d%uh", i);
  snprintf(am, sizeof am, "a%u", i);
  snprintf(bm, sizeof bm, "b%u", i);
  widened("s0", cm, "ci", &k->c, acc);
  printf("        %%dot = scf.for %%k = %%c0 to %%c16 step %%c1 iter_args(%%s = %%s0) -> (%s) {\n"
         "          %%ai0 = arith.muli %%i, %%c16 : index\n          %%ai = arith.addi %%ai0, %%k : index\n"
         "          %%bi0 = arith.muli %%k, %%c16 : index\n          %%bi = arith.addi %%bi0, %%j : index\n",
         acc);
  widened("x", am, "ai", &k->a, acc);
  widened("y", bm, "bi", &k->b, acc);
  printf("          %%pr = %s %%x, %%y : %s\n          %%s2 = %s %%s, %%pr : %s\n          scf.yield %%s2 : %s\n"
         "        }\n",
         fl ? "arith.mulf" : "arith.muli", acc, fl ? "arith.addf" : "arith.addi", acc, acc);
  widened("got", dm, "ci", &k->c, acc);
  printf("        %%same = arith.cmp%s %s, %%dot, %%got : %s\n"
         "        %%inc = arith.select %%same, %%c0, %%c1 : index\n"
         "        %%nbn = arith.addi %%nbj, %%inc : index\n        scf.yield %%nbn : index\n      }\n"
         "      scf.yield %%nb2 : index\n    }\n",
         fl ? "f" : "i", fl ? "oeq" : "eq", acc);
  printf("    vector.print str \"%s mismatches: \"\n    vector.print %%bad%u : index\n", k->name, i);
}

/* Whether combination k is asked for: all without arguments. */
static int wanted(const struct combo *k, int argc, char **argv) {
  for (int i = 1; i < argc; i++)
    if (!strcmp(argv[i], k->name))
      return 1;
  return argc < 2;
}

int main(int argc, char **argv) {
  printf("// Written by lanes_program (tests/tensorcore): the lane layout of\n"
         "// device_mma_lanes.c run on the host backend.\n"
         "module attributes {gpu.container_module} {\n  gpu.module @lanes {\n");
  for (unsigned i = 0; i < NCOMBOS; i++)
    if (wanted(&combos[i], argc, argv))
      kernel(&combos[i], i);
  printf("  }\n  func.func @main() {\n    %%c0 = arith.constant 0 : index\n    %%c1 = arith.constant 1 : index\n"
         "    %%c5 = arith.constant 5 : index\n    %%c7 = arith.constant 7 : index\n"
         "    %%c9 = arith.constant 9 : index\n    %%c11 = arith.constant 11 : index\n"
         "    %%c13 = arith.constant 13 : index\n    %%c16 = arith.constant 16 : index\n"
         "    %%c64 = arith.constant 64 : index\n    %%c256 = arith.constant 256 : index\n"
         "    %%true = arith.constant true\n");
  for (unsigned i = 0; i < NCOMBOS; i++)
    if (wanted(&combos[i], argc, argv))
      check(&combos[i], i);
  printf("    return\n  }\n}\n");
  return 0;
}
