/* device_mma.c: gpu.subgroup_mma_* where LLVM 22 has no lowering for them.
 *
 * The gpu dialect's matrix ops act on a whole subgroup: an
 * !gpu.mma_matrix<RxCxT, "AOp"|"BOp"|"COp"> is one R x C matrix spread over
 * the lanes, each lane holding a fragment. LLVM 22 lowers them only for
 * NVIDIA (wmma); for AMD's WMMA and MFMA chips, its chips without a matrix
 * unit and the host gpucc writes them here, in ops every pipeline lowers,
 * once it knows how a fragment is laid out (enum mma_layout):
 *
 *   fragment          ->  vector<N x T>: element e of a lane sits at index
 *                         e * stride and holds matrix element (row, col),
 *                         a function of the lane and e (fragment_for below)
 *   load_matrix       ->  each lane loads its elements (memref strides and
 *                         leadDimension as given; `transpose` reads the
 *                         matrix column-major: a logical transpose)
 *   store_matrix      ->  each lane stores its elements (`transpose` alike)
 *   compute           ->  RDNA: amdgpu.wmma; CDNA: amdgpu.mfma (one or
 *                         more, device_mma_cdna.c) after a check that the
 *                         block is whole 64-lane wavefronts (stores get it
 *                         too, assert_whole_waves); no matrix unit:
 *                         shuffles and multiply-adds over 32-lane groups
 *                         (device_mma_lanes.c, asserted alike); the host:
 *                         C += A * B in loops over the whole matrices
 *                         every lane holds
 *   elementwise       ->  the arith op on the vectors (layout-free, except
 *                         extf between layouts with different strides)
 *   constant_matrix   ->  vector.broadcast
 *
 * Each op becomes a call of a private function of the gpu.module, written
 * in MLIR text, made once per distinct text (named by its hash); the
 * values of matrix type (block arguments, loop results) are retyped to the
 * vectors in place. compute's a_transpose/b_transpose only say how the
 * operands were loaded, which the fragments already reflect.
 *
 * The layouts are those of the ISA manuals: RDNA3 (gfx11) A lane l holds
 * row l % 16, B column l % 16, 16 elements each; C element e of lane l is
 * (2e + l / 16, l % 16), 16-bit C types in the even halves. RDNA4 (gfx12)
 * A and B hold 8 elements of row/column l % 16 starting at 8 * (l / 16); C
 * element e is (8 * (l / 16) + e, l % 16). CDNA's (wave64, MFMA): four
 * elements a lane, described and checked in device_mma_cdna.c. AMD chips
 * without a matrix unit: eight elements a lane of each 32-lane group, the
 * row-major matrix dealt out, described and checked in device_mma_lanes.c.
 * The host's lanes each hold the whole matrix (row-major), which costs
 * work but no lane exchange.
 *
 * NVIDIA: LLVM 22 lowers the ops to wmma itself, but its elementwise
 * lowering crashes (subf, negatef, extf) or builds invalid constants
 * (maxf, minf on f16). There, each elementwise op becomes a call of a
 * function over the accumulator fragment's LLVM struct, the type the NVVM
 * conversion gives it (f16: vector<2xf16> pairs, else scalars, in order),
 * bridged with unrealized casts that the conversion folds away. */
#include "device_mma.h"
#include "device_mma_cdna.h"
#include "device_mma_lanes.h"
#include "device_mma_types.h"

#include "diag.h"
#include "frontend.h"
#include "xstr.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int read_mma_type(MlirType t, struct mma_type *m) {
  char text[128], role[4];
  frontend_type_text(t, text, sizeof text);
  if (sscanf(text, "!gpu.mma_matrix<%ux%ux%31[^,], \"%1[ABC]Op\">", &m->rows, &m->cols, m->elem,
             role) != 4)
    return -1;
  m->role = role[0];
  /* 8-bit integer matrices are si8 or ui8, loaded from i8 memrefs; their
   * fragments are i8 vectors (arith takes signless integers only), the
   * sign kept aside for the multiply. */
  m->sign = 0;
  if (!strcmp(m->elem, "si8") || !strcmp(m->elem, "ui8")) {
    m->sign = m->elem[0];
    snprintf(m->elem, sizeof m->elem, "i8");
  }
  return 0;
}

/* The fragment of matrix type m under layout, or an explanation in why. */
static int fragment_for(enum mma_layout layout, const struct mma_type *m, struct fragment *f,
                        char *why, size_t n) {
  switch (layout) {
  case MMA_LAYOUT_WHOLE:
    f->count = f->size = m->rows * m->cols;
    f->stride = 1;
    snprintf(f->position, sizeof f->position, "%s",
             "%row = arith.divui %e, %ccols : index\n"
             "    %col = arith.remui %e, %ccols : index\n");
    return 0;
  case MMA_LAYOUT_GFX11:
  case MMA_LAYOUT_GFX12:
    break;
  case MMA_LAYOUT_CDNA1:
  case MMA_LAYOUT_CDNA2:
  case MMA_LAYOUT_CDNA3:
    return mma_cdna_fragment(m, f, why, n);
  case MMA_LAYOUT_NVVM:
    f->count = f->size = 0; /* only the struct below */
    f->stride = 1;
    f->position[0] = '\0';
    return 0;
  case MMA_LAYOUT_LANES:
    return mma_lanes_fragment(m, f, why, n);
  }
  int input = m->role != 'C';
  int ok_elem = input ? !strcmp(m->elem, "f16") || !strcmp(m->elem, "bf16") || !strcmp(m->elem, "i8")
                      : !strcmp(m->elem, "f32") || !strcmp(m->elem, "f16") ||
                            !strcmp(m->elem, "bf16") || !strcmp(m->elem, "i32");
  if (m->rows != 16 || m->cols != 16 || !ok_elem) {
    snprintf(why, n, "WMMA takes 16x16 matrices of f16, bf16 or i8 operands and f32, f16, bf16 or i32 "
                     "accumulators, not %ux%ux%s",
             m->rows, m->cols, m->elem);
    return -1;
  }
  int gfx11 = layout == MMA_LAYOUT_GFX11;
  const char *position;
  if (m->role == 'A') {
    f->count = gfx11 ? 16 : 8;
    position = gfx11 ? "%row = arith.addi %lm, %c0 : index\n    %col = arith.addi %e, %c0 : index\n"
                        : "%row = arith.addi %lm, %c0 : index\n    %k0 = arith.muli %lh, %c8 : index\n"
                          "    %col = arith.addi %k0, %e : index\n";
  } else if (m->role == 'B') {
    f->count = gfx11 ? 16 : 8;
    position = gfx11 ? "%row = arith.addi %e, %c0 : index\n    %col = arith.addi %lm, %c0 : index\n"
                        : "%k0 = arith.muli %lh, %c8 : index\n    %row = arith.addi %k0, %e : index\n"
                          "    %col = arith.addi %lm, %c0 : index\n";
  } else {
    f->count = 8;
    position = gfx11 ? "%e2 = arith.muli %e, %c2 : index\n    %row = arith.addi %e2, %lh : index\n"
                          "    %col = arith.addi %lm, %c0 : index\n"
                        : "%r0 = arith.muli %lh, %c8 : index\n    %row = arith.addi %r0, %e : index\n"
                          "    %col = arith.addi %lm, %c0 : index\n";
  }
  snprintf(f->position, sizeof f->position, "%s", position);
  /* RDNA3 keeps 16-bit accumulators in the low halves of 8 registers. */
  f->stride = gfx11 && m->role == 'C' && mma_elem_bits(m->elem) == 16 ? 2 : 1;
  f->size = f->count * f->stride;
  return 0;
}

static MlirType fragment_type(MlirContext ctx, const struct mma_type *m, const struct fragment *f) {
  char text[64];
  snprintf(text, sizeof text, "vector<%ux%s>", f->size, m->elem);
  return mlirTypeParseGet(ctx, mlirStringRefCreateFromCString(text));
}

/* ---- the functions, as MLIR text ---- */

static uint64_t hash_text(const char *s) {
  uint64_t h = 1469598103934665603ull; /* FNV-1a */
  for (; *s; s++)
    h = (h ^ (unsigned char)*s) * 1099511628211ull;
  return h;
}

/* Adds the function whose text is `body` (with "@NAME" where the name
 * goes) to gpu_module unless there already, and writes its name: a hash of
 * the text, so that equal functions are made once. */
static int add_function(MlirOperation gpu_module, const char *body, char *name, size_t size) {
  snprintf(name, size, "__gpucc_mma_%016llx", (unsigned long long)hash_text(body));
  const char *at = strstr(body, "@NAME");
  char *text = xasprintf("%.*s@%s%s", (int)(at - body), body, name, at + 5);
  int rc = frontend_add_function(gpu_module, name, text);
  free(text);
  return rc;
}

static const char prologue[] = "  %c0 = arith.constant 0 : index\n"
                               "  %c1 = arith.constant 1 : index\n"
                               "  %c2 = arith.constant 2 : index\n"
                               "  %c4 = arith.constant 4 : index\n"
                               "  %c8 = arith.constant 8 : index\n"
                               "  %c16 = arith.constant 16 : index\n";

/* The lane's position (%lm, %lh) and %n, how many elements it moves: on
 * the host only the subgroup's first lane loads, computes and stores. The
 * host runs a subgroup's lanes one after the other, so a lane that stored
 * its matrix would change what the next one loads; on a GPU the lanes move
 * the matrix together. Fragment values are never read element by element,
 * so the other lanes' copies are never needed. */
static void lane_text(FILE *out, enum mma_layout layout, const char *count) {
  fputs("  %lane = gpu.lane_id\n"
        "  %lm = arith.remui %lane, %c16 : index\n  %lh = arith.divui %lane, %c16 : index\n",
        out);
  if (layout == MMA_LAYOUT_WHOLE)
    fprintf(out, "  %%lead = arith.cmpi eq, %%lane, %%c0 : index\n"
                 "  %%n = arith.select %%lead, %s, %%c0 : index\n",
            count);
  else
    fprintf(out, "  %%n = arith.addi %s, %%c0 : index\n", count);
}

/* The text of a load or store function for memref type `mem` (its text,
 * rank, element, memory space). */
static char *access_function(int store, enum mma_layout layout, const struct mma_type *m,
                             const struct fragment *f, const char *mem, int64_t rank,
                             const char *space, long lead, int transpose) {
  char vec[64], base[320], flat[320];
  snprintf(vec, sizeof vec, "vector<%ux%s>", f->size, m->elem);
  snprintf(base, sizeof base, "memref<%s%s%s>", m->elem, space[0] ? ", " : "", space);
  snprintf(flat, sizeof flat, "memref<?x%s%s%s>", m->elem, space[0] ? ", " : "", space);
  char *text = NULL;
  size_t len = 0;
  FILE *out = open_memstream(&text, &len);
  if (!out)
    BUG("out of memory");
  fprintf(out, "func.func private @NAME(");
  if (store)
    fprintf(out, "%%v: %s, ", vec);
  fprintf(out, "%%m: %s", mem);
  for (int64_t i = 0; i < rank; i++)
    fprintf(out, ", %%i%lld: index", (long long)i);
  fprintf(out, ")%s%s {\n%s", store ? "" : " -> ", store ? "" : vec, prologue);
  fprintf(out, "  %%ccols = arith.constant %u : index\n  %%cld = arith.constant %ld : index\n"
               "  %%ccount = arith.constant %u : index\n  %%cstride = arith.constant %u : index\n"
               "  %%big = arith.constant 2147483647 : index\n",
          m->cols, lead, f->count, f->stride);
  lane_text(out, layout, "%ccount");
  /* The element at the indices, as an offset from the buffer's start. */
  fprintf(out, "  %%base, %%off, %%sizes:%lld, %%strides:%lld = memref.extract_strided_metadata %%m : %s -> %s, index",
          (long long)rank, (long long)rank, mem, base);
  for (int64_t i = 0; i < 2 * rank; i++)
    fputs(", index", out);
  fputs("\n  %start0 = arith.addi %off, %c0 : index\n", out);
  for (int64_t i = 0; i < rank; i++)
    fprintf(out, "  %%d%lld = arith.muli %%i%lld, %%strides#%lld : index\n"
                 "  %%start%lld = arith.addi %%start%lld, %%d%lld : index\n",
            (long long)i, (long long)i, (long long)i, (long long)i + 1, (long long)i, (long long)i);
  fprintf(out, "  %%flat = memref.reinterpret_cast %%base to offset: [0], sizes: [%%big], strides: [1] : %s to %s\n",
          base, flat);
  if (store)
    fputs("  scf.for %e = %c0 to %n step %c1 {\n", out);
  else
    fprintf(out, "  %%zero = arith.constant dense<%s> : %s\n"
                 "  %%r = scf.for %%e = %%c0 to %%n step %%c1 iter_args(%%v = %%zero) -> (%s) {\n",
            mma_is_float(m->elem) ? "0.0" : "0", vec, vec);
  fprintf(out, "    %s", f->position);
  /* Row-major at leadDimension; `transpose`: column-major. */
  fprintf(out, "    %%lin = arith.muli %s, %%cld : index\n    %%in = arith.addi %%lin, %s : index\n",
          transpose ? "%col" : "%row", transpose ? "%row" : "%col");
  fprintf(out, "    %%a = arith.addi %%start%lld, %%in : index\n    %%vi = arith.muli %%e, %%cstride : index\n",
          (long long)rank);
  if (store)
    fprintf(out, "    %%x = vector.extract %%v[%%vi] : %s from %s\n"
                 "    memref.store %%x, %%flat[%%a] : %s\n  }\n  return\n}\n",
            m->elem, vec, flat);
  else
    fprintf(out, "    %%x = memref.load %%flat[%%a] : %s\n"
                 "    %%v2 = vector.insert %%x, %%v[%%vi] : %s into %s\n"
                 "    scf.yield %%v2 : %s\n  }\n  return %%r : %s\n}\n",
            flat, m->elem, vec, vec, vec);
  fclose(out);
  return text;
}

/* The op that widens a to c's element type, or NULL when they match. */
static const char *widen_op(const char *from, const char *to) {
  if (!strcmp(from, to))
    return NULL;
  if (mma_is_float(from))
    return mma_elem_bits(from) < mma_elem_bits(to) ? "arith.extf" : "arith.truncf";
  return mma_elem_bits(from) < mma_elem_bits(to) ? "arith.extsi" : "arith.trunci";
}

/* C + A * B: the host loops over whole matrices, AMD has an instruction. */
static char *compute_function(enum mma_layout layout, const struct mma_type *a,
                              const struct mma_type *b, const struct mma_type *c,
                              const struct fragment *fa, const struct fragment *fb,
                              const struct fragment *fc) {
  char va[64], vb[64], vc[64];
  snprintf(va, sizeof va, "vector<%ux%s>", fa->size, a->elem);
  snprintf(vb, sizeof vb, "vector<%ux%s>", fb->size, b->elem);
  snprintf(vc, sizeof vc, "vector<%ux%s>", fc->size, c->elem);
  if (layout != MMA_LAYOUT_WHOLE)
    return xasprintf("func.func private @NAME(%%a: %s, %%b: %s, %%c: %s) -> %s {\n"
                     "  %%d = amdgpu.wmma 16x16x16 %%a * %%b + %%c : %s, %s, %s\n"
                     "  return %%d : %s\n}\n",
                     va, vb, vc, vc, va, vb, vc, vc);
  /* Sums of 16-bit floats are kept in f32 and rounded once, as the
   * matrix units do. */
  const char *acc = mma_is_float(c->elem) && mma_elem_bits(c->elem) < 32 ? "f32" : c->elem;
  const char *opa = widen_op(a->elem, acc), *opb = widen_op(b->elem, acc);
  if (a->sign == 'u')
    opa = "arith.extui";
  if (b->sign == 'u')
    opb = "arith.extui";
  const char *opc = widen_op(c->elem, acc), *back = widen_op(acc, c->elem);
  char wa[128] = "", wb[128] = "", wc[128] = "", wd[128] = "";
  if (opa)
    snprintf(wa, sizeof wa, "      %%xa = %s %%xa0 : %s to %s\n", opa, a->elem, acc);
  if (opb)
    snprintf(wb, sizeof wb, "      %%xb = %s %%xb0 : %s to %s\n", opb, b->elem, acc);
  if (opc)
    snprintf(wc, sizeof wc, "    %%s0 = %s %%c0v : %s to %s\n", opc, c->elem, acc);
  if (back)
    snprintf(wd, sizeof wd, "    %%s = %s %%sacc : %s to %s\n", back, acc, c->elem);
  int fl = mma_is_float(c->elem);
  char *text = NULL;
  size_t len = 0;
  FILE *o = open_memstream(&text, &len);
  if (!o)
    BUG("out of memory");
  fprintf(o, "func.func private @NAME(%%a: %s, %%b: %s, %%c: %s) -> %s {\n%s", va, vb, vc, vc, prologue);
  fprintf(o, "  %%cm = arith.constant %u : index\n  %%cn = arith.constant %u : index\n"
             "  %%ck = arith.constant %u : index\n"
             "  %%lane = gpu.lane_id\n  %%lead = arith.cmpi eq, %%lane, %%c0 : index\n"
             "  %%rows = arith.select %%lead, %%cm, %%c0 : index\n",
          c->rows, c->cols, a->cols);
  fprintf(o, "  %%r = scf.for %%i = %%c0 to %%rows step %%c1 iter_args(%%acc = %%c) -> (%s) {\n"
             "   %%r2 = scf.for %%j = %%c0 to %%cn step %%c1 iter_args(%%acc2 = %%acc) -> (%s) {\n"
             "    %%ci0 = arith.muli %%i, %%cn : index\n    %%ci = arith.addi %%ci0, %%j : index\n"
             "    %%%s = vector.extract %%acc2[%%ci] : %s from %s\n%s",
          vc, vc, opc ? "c0v" : "s0", c->elem, vc, wc);
  fprintf(o, "    %%%s = scf.for %%k = %%c0 to %%ck step %%c1 iter_args(%%sum = %%s0) -> (%s) {\n"
             "      %%ai0 = arith.muli %%i, %%ck : index\n      %%ai = arith.addi %%ai0, %%k : index\n"
             "      %%bi0 = arith.muli %%k, %%cn : index\n      %%bi = arith.addi %%bi0, %%j : index\n"
             "      %%xa0 = vector.extract %%a[%%ai] : %s from %s\n"
             "      %%xb0 = vector.extract %%b[%%bi] : %s from %s\n%s%s",
          back ? "sacc" : "s", acc, a->elem, va, b->elem, vb, wa, wb);
  fprintf(o, "      %%p = %s %s, %s : %s\n      %%sum2 = %s %%sum, %%p : %s\n"
             "      scf.yield %%sum2 : %s\n    }\n%s",
          fl ? "arith.mulf" : "arith.muli", opa ? "%xa" : "%xa0", opb ? "%xb" : "%xb0", acc,
          fl ? "arith.addf" : "arith.addi", acc, acc, wd);
  fprintf(o, "    %%acc3 = vector.insert %%s, %%acc2[%%ci] : %s into %s\n"
             "    scf.yield %%acc3 : %s\n   }\n   scf.yield %%r2 : %s\n  }\n"
             "  return %%r : %s\n}\n",
          c->elem, vc, vc, vc, vc);
  fclose(o);
  return text;
}

/* The arith op of an elementwise kind that has one (not extf, negates). */
static const char *elementwise_arith(const char *kind) {
  static const struct {
    const char *kind, *op;
  } ops[] = {{"addf", "arith.addf"},     {"mulf", "arith.mulf"},     {"subf", "arith.subf"},
             {"maxf", "arith.maximumf"}, {"minf", "arith.minimumf"}, {"divf", "arith.divf"},
             {"addi", "arith.addi"},     {"muli", "arith.muli"},     {"subi", "arith.subi"},
             {"divs", "arith.divsi"},    {"divu", "arith.divui"},    {"negatef", "arith.negf"}};
  for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
    if (!strcmp(kind, ops[i].kind))
      return ops[i].op;
  return NULL;
}

/* "#gpu<mma_element_wise addf>" -> the arith op on the vectors. */
static char *elementwise_function(const char *kind, const char *vin, const char *vout, int nargs,
                                  const struct fragment *fin, const struct fragment *fout,
                                  const char *ein, const char *eout) {
  if (!strcmp(kind, "extf")) {
    if (fin->stride == fout->stride)
      return xasprintf("func.func private @NAME(%%x: %s) -> %s {\n"
                       "  %%r = arith.extf %%x : %s to %s\n  return %%r : %s\n}\n",
                       vin, vout, vin, vout, vout);
    /* Different layouts (RDNA3's f16 accumulators in halves): element-wise. */
    return xasprintf("func.func private @NAME(%%x: %s) -> %s {\n%s"
                     "  %%cn = arith.constant %u : index\n"
                     "  %%si = arith.constant %u : index\n  %%so = arith.constant %u : index\n"
                     "  %%zero = arith.constant dense<0.0> : %s\n"
                     "  %%r = scf.for %%e = %%c0 to %%cn step %%c1 iter_args(%%v = %%zero) -> (%s) {\n"
                     "    %%i = arith.muli %%e, %%si : index\n    %%o = arith.muli %%e, %%so : index\n"
                     "    %%a = vector.extract %%x[%%i] : %s from %s\n"
                     "    %%b = arith.extf %%a : %s to %s\n"
                     "    %%v2 = vector.insert %%b, %%v[%%o] : %s into %s\n    scf.yield %%v2 : %s\n"
                     "  }\n  return %%r : %s\n}\n",
                     vin, vout, prologue, fin->count, fin->stride, fout->stride, vout, vout, ein, vin,
                     ein, eout, eout, vout, vout, vout);
  }
  if (!strcmp(kind, "negates"))
    return xasprintf("func.func private @NAME(%%x: %s) -> %s {\n"
                     "  %%z = arith.constant dense<0> : %s\n"
                     "  %%r = arith.subi %%z, %%x : %s\n  return %%r : %s\n}\n",
                     vin, vout, vin, vin, vout);
  const char *op = elementwise_arith(kind);
  if (!op)
    return NULL;
  return nargs == 1 ? xasprintf("func.func private @NAME(%%x: %s) -> %s {\n"
                                "  %%r = %s %%x : %s\n  return %%r : %s\n}\n",
                                vin, vout, op, vin, vout)
                    : xasprintf("func.func private @NAME(%%x: %s, %%y: %s) -> %s {\n"
                                "  %%r = %s %%x, %%y : %s\n  return %%r : %s\n}\n",
                                vin, vin, vout, op, vin, vout);
}

/* ---- rewriting the ops ---- */

struct rewrite {
  MlirOperation gpu_module;
  enum mma_layout layout;
  const char *target;
};

/* Replaces op by a call of the function `body` with op's operands (and
 * result type `result`, or none). */
static int call_instead(const struct rewrite *r, MlirOperation op, char *body, MlirType result) {
  if (!body)
    return frontend_error_at(op, "cannot lower '%s' for %s: unsupported operand",
                             "gpu.subgroup_mma op", r->target);
  char name[64];
  int rc = add_function(r->gpu_module, body, name, sizeof name);
  free(body);
  if (rc != 0)
    return -1;
  MlirValue args[8];
  intptr_t n = mlirOperationGetNumOperands(op);
  if (n > (intptr_t)(sizeof args / sizeof args[0]))
    return frontend_error_at(op, "internal: too many operands for a matrix op");
  for (intptr_t i = 0; i < n; i++)
    args[i] = mlirOperationGetOperand(op, i);
  MlirOperation call = frontend_call_before(op, name, n, args, mlirTypeIsNull(result) ? 0 : 1, &result);
  if (!mlirTypeIsNull(result))
    mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(op, 0), mlirOperationGetResult(call, 0));
  mlirOperationDestroy(op);
  return 0;
}

/* The matrix type of value v with its fragment; errors located at op. */
static int operand_of(const struct rewrite *r, MlirOperation op, MlirValue v, struct mma_type *m,
                      struct fragment *f) {
  char why[256];
  if (read_mma_type(mlirValueGetType(v), m) != 0)
    return frontend_error_at(op, "internal: not a matrix operand");
  if (fragment_for(r->layout, m, f, why, sizeof why) != 0) {
    char name[64];
    MlirStringRef s = mlirIdentifierStr(mlirOperationGetName(op));
    snprintf(name, sizeof name, "%.*s", (int)s.length, s.data);
    return frontend_error_at(op, "cannot lower '%s' for %s: %s", name, r->target, why);
  }
  return 0;
}

static long lead_dimension(MlirOperation op) {
  MlirAttribute a = mlirOperationGetInherentAttributeByName(op, mlirStringRefCreateFromCString("leadDimension"));
  return mlirAttributeIsNull(a) ? 0 : (long)mlirIntegerAttrGetValueInt(a);
}

static int has_attr(MlirOperation op, const char *name) {
  MlirAttribute a = mlirOperationGetInherentAttributeByName(op, mlirStringRefCreateFromCString(name));
  return !mlirAttributeIsNull(a);
}

static int is_cdna(enum mma_layout layout) {
  return layout == MMA_LAYOUT_CDNA1 || layout == MMA_LAYOUT_CDNA2 || layout == MMA_LAYOUT_CDNA3;
}

/* The lanes a layout's compute reads from every one of (a CDNA wavefront,
 * a 32-lane group), or 0 where nothing needs checking. */
static int group_lanes(enum mma_layout layout) {
  return is_cdna(layout) ? MMA_CDNA_LANES : layout == MMA_LAYOUT_LANES ? MMA_LANES_GROUP : 0;
}

/* Whether the kernel around op states a block size (known_block_size) of
 * whole groups of `lanes`. */
static int known_whole_waves(MlirOperation op, int lanes) {
  int64_t threads = frontend_known_block_threads(op);
  return threads > 0 && threads % lanes == 0;
}

/* An MFMA reads the registers of all 64 lanes of its wavefront: in a block
 * of, say, 96 threads the second wavefront's missing lanes would feed it
 * whatever their registers hold, and their part of a stored matrix would
 * never be written. So on CDNA each compute and store first asserts that
 * the block is whole wavefronts; device_amd_assert.c makes that a message
 * (at the op's location) and a trap, which the runtime reports as a failed
 * launch. A kernel whose known_block_size settles it goes unchecked. The
 * chips without a matrix unit shuffle within 32-lane groups, with the same
 * need (device_mma_lanes.c) and the same check. */
static int assert_whole_waves(const struct rewrite *r, MlirOperation op) {
  int lanes = group_lanes(r->layout);
  if (lanes == 0 || known_whole_waves(op, lanes))
    return 0;
  char name[64], msg[256];
  char *body = is_cdna(r->layout) ? mma_cdna_whole_waves() : mma_lanes_whole_groups();
  int rc = add_function(r->gpu_module, body, name, sizeof name);
  free(body);
  if (rc != 0)
    return -1;
  MlirContext ctx = mlirOperationGetContext(op);
  MlirType i1 = mlirIntegerTypeGet(ctx, 1);
  MlirOperation call = frontend_call_before(op, name, 0, NULL, 1, &i1);
  MlirValue ok = mlirOperationGetResult(call, 0);
  MlirStringRef op_name = mlirIdentifierStr(mlirOperationGetName(op));
  snprintf(msg, sizeof msg, "%.*s on %s needs whole %s of %d threads", (int)op_name.length,
           op_name.data, r->target, is_cdna(r->layout) ? "wavefronts" : "groups", lanes);
  MlirNamedAttribute text = mlirNamedAttributeGet(
      mlirIdentifierGet(ctx, mlirStringRefCreateFromCString("msg")),
      mlirStringAttrGet(ctx, mlirStringRefCreateFromCString(msg)));
  MlirType none = {NULL};
  frontend_op_before(op, "cf.assert", 1, &ok, none, 1, &text);
  return 0;
}

static int rewrite_access(const struct rewrite *r, MlirOperation op, int store) {
  MlirValue matrix = store ? mlirOperationGetOperand(op, 0) : mlirOperationGetResult(op, 0);
  MlirValue memref = mlirOperationGetOperand(op, store ? 1 : 0);
  struct mma_type m;
  struct fragment f;
  if (operand_of(r, op, matrix, &m, &f) != 0)
    return -1;
  MlirType mt = mlirValueGetType(memref);
  char mem[4096], space[256] = "";
  frontend_type_text(mt, mem, sizeof mem);
  MlirAttribute ms = mlirMemRefTypeGetMemorySpace(mt);
  if (!mlirAttributeIsNull(ms))
    frontend_attr_text(ms, space, sizeof space);
  char *body = access_function(store, r->layout, &m, &f, mem, mlirShapedTypeGetRank(mt), space,
                               lead_dimension(op), has_attr(op, "transpose"));
  if (store && assert_whole_waves(r, op) != 0) {
    free(body);
    return -1;
  }
  MlirType none = {NULL};
  return call_instead(r, op, body,
                      store ? none : fragment_type(mlirOperationGetContext(op), &m, &f));
}

static int rewrite_compute(const struct rewrite *r, MlirOperation op) {
  struct mma_type m[3];
  struct fragment f[3];
  for (int i = 0; i < 3; i++)
    if (operand_of(r, op, mlirOperationGetOperand(op, i), &m[i], &f[i]) != 0)
      return -1;
  const char *unit = is_cdna(r->layout)                ? "MFMA"
                     : r->layout == MMA_LAYOUT_LANES ? "gpucc's lane lowering"
                                                     : "WMMA";
  char *body = NULL;
  struct mfma_plan plan;
  if (r->layout == MMA_LAYOUT_WHOLE)
    body = compute_function(r->layout, &m[0], &m[1], &m[2], &f[0], &f[1], &f[2]);
  else if (r->layout == MMA_LAYOUT_LANES)
    body = mma_lanes_compute(&m[0], &m[1], &m[2]);
  else if (strcmp(m[0].elem, m[1].elem) != 0 || (!strcmp(m[0].elem, "i8") != !strcmp(m[2].elem, "i32")))
    body = NULL;
  else if (m[0].sign == 'u' || m[1].sign == 'u')
    return frontend_error_at(op, "cannot lower 'gpu.subgroup_mma_compute' for %s: %s multiplies signed "
                                 "8-bit integers only (si8), not ui8",
                             r->target, unit);
  else if (!is_cdna(r->layout))
    body = compute_function(r->layout, &m[0], &m[1], &m[2], &f[0], &f[1], &f[2]);
  else if (mma_cdna_plan(r->layout, m[0].elem, &plan) == 0)
    body = mma_cdna_compute(&plan, &m[0], &m[2]);
  if (!body)
    return frontend_error_at(op, "cannot lower 'gpu.subgroup_mma_compute' for %s: %s has no %s x %s -> %s",
                             r->target, unit, m[0].elem, m[1].elem, m[2].elem);
  if (assert_whole_waves(r, op) != 0) {
    free(body);
    return -1;
  }
  return call_instead(r, op, body, fragment_type(mlirOperationGetContext(op), &m[2], &f[2]));
}

/* The LLVM struct the NVVM conversion makes of an accumulator fragment:
 * its member type and count. 16-bit elements come in pairs. */
static int nvvm_struct(const struct mma_type *m, char *member, size_t size, unsigned *count) {
  if (m->role != 'C')
    return -1;
  unsigned lane_elems = m->rows * m->cols / 32;
  if (mma_elem_bits(m->elem) == 16) {
    snprintf(member, size, "vector<2x%s>", m->elem);
    *count = lane_elems / 2;
  } else {
    snprintf(member, size, "%s", m->elem);
    *count = lane_elems;
  }
  return 0;
}

static void struct_text(char *buf, size_t size, const char *member, unsigned count) {
  size_t k = (size_t)snprintf(buf, size, "!llvm.struct<(");
  for (unsigned i = 0; i < count && k < size; i++)
    k += (size_t)snprintf(buf + k, size - k, "%s%s", i ? ", " : "", member);
  if (k < size)
    snprintf(buf + k, size - k, ")>");
}

/* One elementwise op over the members of NVVM fragment structs. */
static char *nvvm_elementwise_function(const char *kind, int nargs, const struct mma_type *in,
                                       const struct mma_type *out, char *sin, char *sout, size_t size) {
  char min[64], mout[64];
  unsigned nin, nout;
  if (nvvm_struct(in, min, sizeof min, &nin) != 0 || nvvm_struct(out, mout, sizeof mout, &nout) != 0)
    return NULL;
  struct_text(sin, size, min, nin);
  struct_text(sout, size, mout, nout);
  const char *arith = elementwise_arith(kind);
  int ext = !strcmp(kind, "extf"), neg_int = !strcmp(kind, "negates");
  if (!arith && !ext && !neg_int)
    return NULL;
  /* extf widens pairs into scalars: member i gives members 2i and 2i + 1. */
  if (ext && !(nout == 2 * nin && strstr(min, "vector<2x")))
    return NULL;
  char *text = NULL;
  size_t len = 0;
  FILE *o = open_memstream(&text, &len);
  if (!o)
    BUG("out of memory");
  fprintf(o, "func.func private @NAME(%%x: %s%s%s) -> %s {\n  %%u0 = llvm.mlir.poison : %s\n", sin,
          nargs == 2 ? ", %y: " : "", nargs == 2 ? sin : "", sout, sout);
  if (neg_int)
    fprintf(o, "  %%zero = arith.constant 0 : %s\n", min);
  unsigned k = 0;
  for (unsigned i = 0; i < nin; i++) {
    fprintf(o, "  %%x%u = llvm.extractvalue %%x[%u] : %s\n", i, i, sin);
    if (nargs == 2)
      fprintf(o, "  %%y%u = llvm.extractvalue %%y[%u] : %s\n", i, i, sin);
    if (ext) {
      fprintf(o, "  %%w%u = arith.extf %%x%u : %s to vector<2x%s>\n", i, i, min, out->elem);
      for (unsigned h = 0; h < 2; h++, k++)
        fprintf(o, "  %%e%u = vector.extract %%w%u[%u] : %s from vector<2x%s>\n"
                   "  %%u%u = llvm.insertvalue %%e%u, %%u%u[%u] : %s\n",
                k, i, h, out->elem, out->elem, k + 1, k, k, k, sout);
      continue;
    }
    if (neg_int)
      fprintf(o, "  %%r%u = arith.subi %%zero, %%x%u : %s\n", i, i, min);
    else if (nargs == 2)
      fprintf(o, "  %%r%u = %s %%x%u, %%y%u : %s\n", i, arith, i, i, min);
    else
      fprintf(o, "  %%r%u = %s %%x%u : %s\n", i, arith, i, min);
    fprintf(o, "  %%u%u = llvm.insertvalue %%r%u, %%u%u[%u] : %s\n", k + 1, i, k, i, sout);
    k++;
  }
  fprintf(o, "  return %%u%u : %s\n}\n", k, sout);
  fclose(o);
  return text;
}

/* Builds `builtin.unrealized_conversion_cast v : to` before `at`. */
static MlirValue bridge(MlirOperation at, MlirValue v, MlirType to) {
  return frontend_op_before(at, "builtin.unrealized_conversion_cast", 1, &v, to, 0, NULL);
}

/* NVIDIA: the op's matrices go to the function as the NVVM structs. */
static int rewrite_nvvm_elementwise(const struct rewrite *r, MlirOperation op, const char *kind) {
  struct mma_type in, out;
  if (read_mma_type(mlirValueGetType(mlirOperationGetOperand(op, 0)), &in) != 0 ||
      read_mma_type(mlirValueGetType(mlirOperationGetResult(op, 0)), &out) != 0)
    return frontend_error_at(op, "internal: not a matrix operand");
  char sin[512], sout[512];
  int nargs = (int)mlirOperationGetNumOperands(op);
  char *body = nvvm_elementwise_function(kind, nargs, &in, &out, sin, sout, sizeof sin);
  if (!body)
    return frontend_error_at(op, "cannot lower 'gpu.subgroup_mma_elementwise %s' on %ux%ux%s \"%cOp\" for %s",
                             kind, in.rows, in.cols, in.elem, in.role, r->target);
  char name[64];
  int rc = add_function(r->gpu_module, body, name, sizeof name);
  free(body);
  if (rc != 0)
    return -1;
  MlirContext ctx = mlirOperationGetContext(op);
  MlirType tin = mlirTypeParseGet(ctx, mlirStringRefCreateFromCString(sin));
  MlirType tout = mlirTypeParseGet(ctx, mlirStringRefCreateFromCString(sout));
  MlirValue args[2];
  for (int i = 0; i < nargs; i++)
    args[i] = bridge(op, mlirOperationGetOperand(op, i), tin);
  MlirOperation call = frontend_call_before(op, name, nargs, args, 1, &tout);
  MlirValue res = bridge(op, mlirOperationGetResult(call, 0), mlirValueGetType(mlirOperationGetResult(op, 0)));
  mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(op, 0), res);
  mlirOperationDestroy(op);
  return 0;
}

static int rewrite_elementwise(const struct rewrite *r, MlirOperation op) {
  char kind[64];
  frontend_attr_text(mlirOperationGetInherentAttributeByName(op, mlirStringRefCreateFromCString("opType")),
                     kind, sizeof kind);
  const char *k = strrchr(kind, ' ');
  k = k ? k + 1 : kind;
  kind[strcspn(kind, ">")] = '\0';
  if (r->layout == MMA_LAYOUT_NVVM)
    return rewrite_nvvm_elementwise(r, op, k);
  struct mma_type in, out;
  struct fragment fin, fout;
  if (operand_of(r, op, mlirOperationGetOperand(op, 0), &in, &fin) != 0 ||
      operand_of(r, op, mlirOperationGetResult(op, 0), &out, &fout) != 0)
    return -1;
  MlirContext ctx = mlirOperationGetContext(op);
  MlirType tin = fragment_type(ctx, &in, &fin), tout = fragment_type(ctx, &out, &fout);
  char vin[64], vout[64];
  frontend_type_text(tin, vin, sizeof vin);
  frontend_type_text(tout, vout, sizeof vout);
  char *body = elementwise_function(k, vin, vout, (int)mlirOperationGetNumOperands(op), &fin, &fout,
                                    in.elem, out.elem);
  if (!body)
    return frontend_error_at(op, "cannot lower 'gpu.subgroup_mma_elementwise %s' for %s", k, r->target);
  return call_instead(r, op, body, tout);
}

static int rewrite_constant(const struct rewrite *r, MlirOperation op) {
  struct mma_type m;
  struct fragment f;
  if (operand_of(r, op, mlirOperationGetResult(op, 0), &m, &f) != 0)
    return -1;
  MlirType t = fragment_type(mlirOperationGetContext(op), &m, &f);
  char vec[64];
  frontend_type_text(t, vec, sizeof vec);
  return call_instead(r, op,
                      xasprintf("func.func private @NAME(%%x: %s) -> %s {\n"
                                "  %%r = vector.broadcast %%x : %s to %s\n  return %%r : %s\n}\n",
                                m.elem, vec, m.elem, vec, vec),
                      t);
}

/* ---- values of matrix type become vectors ---- */

struct retype {
  const struct rewrite *r;
  int rc;
};

static void retype_value(struct retype *rt, MlirOperation at, MlirValue v) {
  struct mma_type m;
  struct fragment f;
  if (rt->rc != 0 || read_mma_type(mlirValueGetType(v), &m) != 0)
    return;
  if (operand_of(rt->r, at, v, &m, &f) != 0) {
    rt->rc = -1;
    return;
  }
  mlirValueSetType(v, fragment_type(mlirOperationGetContext(at), &m, &f));
}

static MlirWalkResult retype_op(MlirOperation op, void *data) {
  struct retype *rt = data;
  MlirAttribute ft = mlirOperationGetInherentAttributeByName(op, mlirStringRefCreateFromCString("function_type"));
  if (!mlirAttributeIsNull(ft)) {
    char text[512];
    frontend_attr_text(ft, text, sizeof text);
    if (strstr(text, "!gpu.mma_matrix")) {
      rt->rc = frontend_error_at(op, "cannot lower a function taking or returning !gpu.mma_matrix for %s: "
                                     "keep matrix values inside one function",
                                 rt->r->target);
      return MlirWalkResultInterrupt;
    }
  }
  for (intptr_t i = 0; i < mlirOperationGetNumResults(op); i++)
    retype_value(rt, op, mlirOperationGetResult(op, i));
  for (intptr_t i = 0; i < mlirOperationGetNumRegions(op); i++)
    for (MlirBlock b = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, i)); !mlirBlockIsNull(b);
         b = mlirBlockGetNextInRegion(b))
      for (intptr_t j = 0; j < mlirBlockGetNumArguments(b); j++)
        retype_value(rt, op, mlirBlockGetArgument(b, j));
  return rt->rc ? MlirWalkResultInterrupt : MlirWalkResultAdvance;
}

int lowering_expand_mma(MlirOperation gpu_module, enum mma_layout layout, const char *target) {
  static const char *const names[] = {"gpu.subgroup_mma_load_matrix", "gpu.subgroup_mma_store_matrix",
                                      "gpu.subgroup_mma_compute", "gpu.subgroup_mma_elementwise",
                                      "gpu.subgroup_mma_constant_matrix", NULL};
  MlirOperation *found;
  size_t n = frontend_find_ops(gpu_module, names, NULL, &found);
  struct rewrite r = {gpu_module, layout, target};
  int rc = 0;
  /* Last first: an op's operands still have their matrix types when it is
   * rewritten, because what defines them comes earlier. */
  for (size_t i = n; i-- > 0 && rc == 0;) {
    MlirOperation op = found[i];
    if (layout == MMA_LAYOUT_NVVM) {
      if (frontend_op_is(op, "gpu.subgroup_mma_elementwise"))
        rc = rewrite_elementwise(&r, op);
    } else if (frontend_op_is(op, "gpu.subgroup_mma_load_matrix"))
      rc = rewrite_access(&r, op, 0);
    else if (frontend_op_is(op, "gpu.subgroup_mma_store_matrix"))
      rc = rewrite_access(&r, op, 1);
    else if (frontend_op_is(op, "gpu.subgroup_mma_compute"))
      rc = rewrite_compute(&r, op);
    else if (frontend_op_is(op, "gpu.subgroup_mma_elementwise"))
      rc = rewrite_elementwise(&r, op);
    else
      rc = rewrite_constant(&r, op);
  }
  free(found);
  if (rc != 0 || n == 0 || layout == MMA_LAYOUT_NVVM)
    return rc;
  struct retype rt = {&r, 0};
  mlirOperationWalk(gpu_module, retype_op, &rt, MlirWalkPreOrder);
  return rt.rc;
}
