/* device_mma.c: gpu.subgroup_mma_* where LLVM 22 has no lowering for them.
 *
 * The gpu dialect's matrix ops act on a whole subgroup: an
 * !gpu.mma_matrix<RxCxT, "AOp"|"BOp"|"COp"> is one R x C matrix spread over
 * the lanes, each lane holding a fragment. LLVM 22 lowers them only for
 * NVIDIA (wmma); for the other targets gpucc writes them here, in ops every
 * pipeline lowers, once the target's kind says how a fragment is laid out
 * and what computes on it (struct mma_lowering, device_mma.h):
 *
 *   fragment          ->  vector<N x T>: element e of a lane sits at index
 *                         e * stride and holds matrix element (row, col),
 *                         a function of the lane and e (the layout's
 *                         `fragment`)
 *   load_matrix       ->  each lane loads its elements (memref strides and
 *                         leadDimension as given; `transpose` reads the
 *                         matrix column-major: a logical transpose)
 *   store_matrix      ->  each lane stores its elements (`transpose` alike)
 *   compute           ->  the layout's `compute` text (a matrix
 *                         instruction, lane shuffles, loops), after a check
 *                         that the block is whole groups of the lanes it
 *                         reads where the layout says so (stores get it
 *                         too, assert_whole_waves)
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
 * The layouts are the kinds' (device_amd_mma.c, device_mma_cdna.c,
 * device_mma_lanes.c, device_nvidia_mma.c), but for one anyone may take:
 * every lane holds the whole matrix (row-major, mma_lowering_whole, the
 * host's), which costs work but no lane exchange. A layout whose kind
 * lowers the ops itself (`elementwise`: NVIDIA's wmma) gets only the
 * elementwise ops handed over. */
#include "device_mma.h"

#include "diag.h"
#include "ir.h"
#include "xstr.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int mma_read_type(MlirType t, struct mma_type *m) {
  char text[128], role[4];
  ir_type_text(t, text, sizeof text);
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

/* Every lane holds the whole matrix, row-major. */
static int whole_fragment(const struct mma_type *m, struct fragment *f, char *why, size_t n) {
  (void)why, (void)n;
  f->count = f->size = m->rows * m->cols;
  f->stride = 1;
  snprintf(f->position, sizeof f->position, "%s",
           "%row = arith.divui %e, %ccols : index\n"
           "    %col = arith.remui %e, %ccols : index\n");
  return 0;
}

int mma_unit_operands(const char *unit, const struct mma_type m[3], char *why, size_t n) {
  if (strcmp(m[0].elem, m[1].elem) != 0 || (!strcmp(m[0].elem, "i8") != !strcmp(m[2].elem, "i32"))) {
    if (n)
      why[0] = '\0';
    return -1;
  }
  if (m[0].sign == 'u' || m[1].sign == 'u') {
    snprintf(why, n, "%s multiplies signed 8-bit integers only (si8), not ui8", unit);
    return -1;
  }
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
int mma_add_function(MlirOperation gpu_module, const char *body, char *name, size_t size) {
  snprintf(name, size, "__gpucc_mma_%016llx", (unsigned long long)hash_text(body));
  const char *at = strstr(body, "@NAME");
  char *text = xasprintf("%.*s@%s%s", (int)(at - body), body, name, at + 5);
  int rc = ir_add_function(gpu_module, name, text);
  free(text);
  return rc;
}

const char mma_prologue[] = "  %c0 = arith.constant 0 : index\n"
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
static void lane_text(FILE *out, const struct mma_lowering *layout, const char *count) {
  fputs("  %lane = gpu.lane_id\n"
        "  %lm = arith.remui %lane, %c16 : index\n  %lh = arith.divui %lane, %c16 : index\n",
        out);
  if (layout->lead_lane_moves)
    fprintf(out, "  %%lead = arith.cmpi eq, %%lane, %%c0 : index\n"
                 "  %%n = arith.select %%lead, %s, %%c0 : index\n",
            count);
  else
    fprintf(out, "  %%n = arith.addi %s, %%c0 : index\n", count);
}

/* The text of a load or store function for memref type `mem` (its text,
 * rank, element, memory space). */
static char *access_function(int store, const struct mma_lowering *layout, const struct mma_type *m,
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
  fprintf(out, ")%s%s {\n%s", store ? "" : " -> ", store ? "" : vec, mma_prologue);
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

/* C + A * B in loops over the whole matrices (the subgroup's first lane
 * alone: see lane_text). */
static char *whole_compute(const struct mma_type m[3], const struct fragment f[3], char *why,
                           size_t n) {
  (void)why, (void)n;
  const struct mma_type *a = &m[0], *b = &m[1], *c = &m[2];
  const struct fragment *fa = &f[0], *fb = &f[1], *fc = &f[2];
  char va[64], vb[64], vc[64];
  snprintf(va, sizeof va, "vector<%ux%s>", fa->size, a->elem);
  snprintf(vb, sizeof vb, "vector<%ux%s>", fb->size, b->elem);
  snprintf(vc, sizeof vc, "vector<%ux%s>", fc->size, c->elem);
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
  fprintf(o, "func.func private @NAME(%%a: %s, %%b: %s, %%c: %s) -> %s {\n%s", va, vb, vc, vc, mma_prologue);
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
const char *mma_elementwise_arith(const char *kind) {
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
                     vin, vout, mma_prologue, fin->count, fin->stride, fout->stride, vout, vout, ein, vin,
                     ein, eout, eout, vout, vout, vout);
  }
  if (!strcmp(kind, "negates"))
    return xasprintf("func.func private @NAME(%%x: %s) -> %s {\n"
                     "  %%z = arith.constant dense<0> : %s\n"
                     "  %%r = arith.subi %%z, %%x : %s\n  return %%r : %s\n}\n",
                     vin, vout, vin, vin, vout);
  const char *op = mma_elementwise_arith(kind);
  if (!op)
    return NULL;
  return nargs == 1 ? xasprintf("func.func private @NAME(%%x: %s) -> %s {\n"
                                "  %%r = %s %%x : %s\n  return %%r : %s\n}\n",
                                vin, vout, op, vin, vout)
                    : xasprintf("func.func private @NAME(%%x: %s, %%y: %s) -> %s {\n"
                                "  %%r = %s %%x, %%y : %s\n  return %%r : %s\n}\n",
                                vin, vin, vout, op, vin, vout);
}

const struct mma_lowering mma_lowering_whole = {
    .unit = "gpucc's loops",
    .fragment = whole_fragment,
    .compute = whole_compute,
    .lead_lane_moves = 1,
};

/* ---- rewriting the ops ---- */

struct rewrite {
  MlirOperation gpu_module;
  const struct mma_lowering *layout;
  const char *target;
};

/* Replaces op by a call of the function `body` with op's operands (and
 * result type `result`, or none). */
static int call_instead(const struct rewrite *r, MlirOperation op, char *body, MlirType result) {
  if (!body)
    return ir_error_at(op, "cannot lower '%s' for %s: unsupported operand",
                             "gpu.subgroup_mma op", r->target);
  char name[64];
  int rc = mma_add_function(r->gpu_module, body, name, sizeof name);
  free(body);
  if (rc != 0)
    return -1;
  MlirValue args[8];
  intptr_t n = mlirOperationGetNumOperands(op);
  if (n > (intptr_t)(sizeof args / sizeof args[0]))
    return ir_error_at(op, "internal: too many operands for a matrix op");
  for (intptr_t i = 0; i < n; i++)
    args[i] = mlirOperationGetOperand(op, i);
  MlirOperation call = ir_call_before(op, name, n, args, mlirTypeIsNull(result) ? 0 : 1, &result);
  if (!mlirTypeIsNull(result))
    mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(op, 0), mlirOperationGetResult(call, 0));
  mlirOperationDestroy(op);
  return 0;
}

/* The matrix type of value v with its fragment; errors located at op. */
static int operand_of(const struct rewrite *r, MlirOperation op, MlirValue v, struct mma_type *m,
                      struct fragment *f) {
  char why[256];
  if (mma_read_type(mlirValueGetType(v), m) != 0)
    return ir_error_at(op, "internal: not a matrix operand");
  if (r->layout->fragment(m, f, why, sizeof why) != 0) {
    char name[64];
    MlirStringRef s = mlirIdentifierStr(mlirOperationGetName(op));
    snprintf(name, sizeof name, "%.*s", (int)s.length, s.data);
    return ir_error_at(op, "cannot lower '%s' for %s: %s", name, r->target, why);
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

/* Whether the kernel around op states a block size (known_block_size) of
 * whole groups of `lanes`. */
static int known_whole_waves(MlirOperation op, int lanes) {
  int64_t threads = ir_known_block_threads(op);
  return threads > 0 && threads % lanes == 0;
}

/* A matrix unit may read the registers of every lane of a group (an MFMA
 * all 64 lanes of its wavefront): in a block of, say, 96 threads the
 * second wavefront's missing lanes would feed it whatever their registers
 * hold, and their part of a stored matrix would never be written. So where
 * the layout says so, each compute and store first asserts that the block
 * is whole groups; the kind makes cf.assert a message (at the op's
 * location) and a trap, which the runtime reports as a failed launch. A
 * kernel whose known_block_size settles it goes unchecked. */
static int assert_whole_waves(const struct rewrite *r, MlirOperation op) {
  int lanes = r->layout->group_lanes;
  if (lanes == 0 || known_whole_waves(op, lanes))
    return 0;
  char name[64], msg[256];
  char *body = r->layout->whole_groups();
  int rc = mma_add_function(r->gpu_module, body, name, sizeof name);
  free(body);
  if (rc != 0)
    return -1;
  MlirContext ctx = mlirOperationGetContext(op);
  MlirType i1 = mlirIntegerTypeGet(ctx, 1);
  MlirOperation call = ir_call_before(op, name, 0, NULL, 1, &i1);
  MlirValue ok = mlirOperationGetResult(call, 0);
  MlirStringRef op_name = mlirIdentifierStr(mlirOperationGetName(op));
  snprintf(msg, sizeof msg, "%.*s on %s needs whole %s of %d threads", (int)op_name.length,
           op_name.data, r->target, r->layout->group_name, lanes);
  MlirNamedAttribute text = mlirNamedAttributeGet(
      mlirIdentifierGet(ctx, mlirStringRefCreateFromCString("msg")),
      mlirStringAttrGet(ctx, mlirStringRefCreateFromCString(msg)));
  MlirType none = {NULL};
  ir_op_before(op, "cf.assert", 1, &ok, none, 1, &text);
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
  ir_type_text(mt, mem, sizeof mem);
  MlirAttribute ms = mlirMemRefTypeGetMemorySpace(mt);
  if (!mlirAttributeIsNull(ms))
    ir_attr_text(ms, space, sizeof space);
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
  char why[256] = "";
  char *body = r->layout->compute(m, f, why, sizeof why);
  if (!body && why[0])
    return ir_error_at(op, "cannot lower 'gpu.subgroup_mma_compute' for %s: %s", r->target, why);
  if (!body)
    return ir_error_at(op, "cannot lower 'gpu.subgroup_mma_compute' for %s: %s has no %s x %s -> %s",
                             r->target, r->layout->unit, m[0].elem, m[1].elem, m[2].elem);
  if (assert_whole_waves(r, op) != 0) {
    free(body);
    return -1;
  }
  return call_instead(r, op, body, fragment_type(mlirOperationGetContext(op), &m[2], &f[2]));
}

static int rewrite_elementwise(const struct rewrite *r, MlirOperation op) {
  char kind[64];
  ir_attr_text(mlirOperationGetInherentAttributeByName(op, mlirStringRefCreateFromCString("opType")),
                     kind, sizeof kind);
  const char *k = strrchr(kind, ' ');
  k = k ? k + 1 : kind;
  kind[strcspn(kind, ">")] = '\0';
  if (r->layout->elementwise)
    return r->layout->elementwise(r->gpu_module, op, k, r->target);
  struct mma_type in, out;
  struct fragment fin, fout;
  if (operand_of(r, op, mlirOperationGetOperand(op, 0), &in, &fin) != 0 ||
      operand_of(r, op, mlirOperationGetResult(op, 0), &out, &fout) != 0)
    return -1;
  MlirContext ctx = mlirOperationGetContext(op);
  MlirType tin = fragment_type(ctx, &in, &fin), tout = fragment_type(ctx, &out, &fout);
  char vin[64], vout[64];
  ir_type_text(tin, vin, sizeof vin);
  ir_type_text(tout, vout, sizeof vout);
  char *body = elementwise_function(k, vin, vout, (int)mlirOperationGetNumOperands(op), &fin, &fout,
                                    in.elem, out.elem);
  if (!body)
    return ir_error_at(op, "cannot lower 'gpu.subgroup_mma_elementwise %s' for %s", k, r->target);
  return call_instead(r, op, body, tout);
}

static int rewrite_constant(const struct rewrite *r, MlirOperation op) {
  struct mma_type m;
  struct fragment f;
  if (operand_of(r, op, mlirOperationGetResult(op, 0), &m, &f) != 0)
    return -1;
  MlirType t = fragment_type(mlirOperationGetContext(op), &m, &f);
  char vec[64];
  ir_type_text(t, vec, sizeof vec);
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
  if (rt->rc != 0 || mma_read_type(mlirValueGetType(v), &m) != 0)
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
    ir_attr_text(ft, text, sizeof text);
    if (strstr(text, "!gpu.mma_matrix")) {
      rt->rc = ir_error_at(op, "cannot lower a function taking or returning !gpu.mma_matrix for %s: "
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

int lowering_expand_mma(MlirOperation gpu_module, const struct mma_lowering *layout, const char *target) {
  static const char *const names[] = {"gpu.subgroup_mma_load_matrix", "gpu.subgroup_mma_store_matrix",
                                      "gpu.subgroup_mma_compute", "gpu.subgroup_mma_elementwise",
                                      "gpu.subgroup_mma_constant_matrix", NULL};
  MlirOperation *found;
  size_t n = ir_find_ops(gpu_module, names, NULL, &found);
  struct rewrite r = {gpu_module, layout, target};
  int rc = 0;
  /* Last first: an op's operands still have their matrix types when it is
   * rewritten, because what defines them comes earlier. */
  for (size_t i = n; i-- > 0 && rc == 0;) {
    MlirOperation op = found[i];
    if (layout->elementwise) {
      if (ir_op_is(op, "gpu.subgroup_mma_elementwise"))
        rc = rewrite_elementwise(&r, op);
    } else if (ir_op_is(op, "gpu.subgroup_mma_load_matrix"))
      rc = rewrite_access(&r, op, 0);
    else if (ir_op_is(op, "gpu.subgroup_mma_store_matrix"))
      rc = rewrite_access(&r, op, 1);
    else if (ir_op_is(op, "gpu.subgroup_mma_compute"))
      rc = rewrite_compute(&r, op);
    else if (ir_op_is(op, "gpu.subgroup_mma_elementwise"))
      rc = rewrite_elementwise(&r, op);
    else
      rc = rewrite_constant(&r, op);
  }
  free(found);
  if (rc != 0 || n == 0 || layout->elementwise)
    return rc;
  struct retype rt = {&r, 0};
  mlirOperationWalk(gpu_module, retype_op, &rt, MlirWalkPreOrder);
  return rt.rc;
}
