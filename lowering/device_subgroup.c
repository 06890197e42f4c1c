/* device_subgroup.c: subgroup ops in device code, for every target.
 *
 * LLVM 22 lowers gpu.subgroup_reduce only through a test pass, and
 * gpu.subgroup_size / subgroup_id / num_subgroups not at all on the targets
 * gpucc uses, yet vector distribution and reductions written for GPUs leave
 * exactly these ops. They are simple to write with ops every pipeline
 * lowers, once the subgroup width is known (the target kind says it: 32 on
 * NVIDIA and the host, 64 on AMD's wave64 chips):
 *
 *   subgroup_reduce op x   ->  for (o = stride; o < cluster * stride; o *= 2)
 *                                x = op(x, gpu.shuffle xor x, o, width)
 *                              (a butterfly: every lane ends with the result)
 *   subgroup_size          ->  width
 *   subgroup_id            ->  linear thread id / width
 *   num_subgroups          ->  ceil(threads per block / width)
 *
 * The butterfly is for uniform reductions (frontend/normalize.c marks those
 * in a kernel's entry block) of scalars: a shuffle needs every lane of the
 * subgroup. A shuffle moves 32 bits on every target, so narrower values
 * (i1..i16, f16, bf16) travel zero-extended in an i32 and 64-bit ones (i64,
 * f64) as two i32 halves; the combining op always runs in the value's own
 * type, so results are exact. Vectors and other integer widths (i48,
 * i128) are left, and the leftover check names them.
 *
 * A reduction that is not uniform (under `scf.if %tid < 8`, in a loop whose
 * trip count depends on the thread) combines the lanes that reach it, as the
 * gpu dialect says. It becomes a call of a function of the gpu.module that
 * asks which lanes are active, then reads each active lane's value in turn,
 * lowest lane first, the same in every lane (so float results are the same
 * bits in every lane and on every target), keeping those of its own cluster:
 *
 *   active = the lanes here                 (a mask of width bits)
 *   for (m = active; m; m &= m - 1)        (the same trip count in every
 *     v = x of lane cttz(m)                 active lane: a uniform loop)
 *     if that lane is in my cluster: acc = first ? v : op(acc, v)
 *
 * How a target asks and reads is the dialect its pipeline lowers gpu ops to
 * (the kind's `lanes`, target_kinds.h): NVVM (NVIDIA, and the host, which rewrites
 * NVVM for the CPU): llvm.nvvm.activemask and shfl.sync idx among those
 * lanes; ROCDL (AMD): ballot of the exec mask and readlane, 64-bit masks on
 * wave64. On NVIDIA sm_80+ (has-redux) an i32 add/and/or/xor/min/max
 * (signed or not) over the whole subgroup is one redux.sync with the active
 * mask instead. Clusters work the same way (each lane keeps the values of
 * the active lanes of its own cluster). A target whose kind has neither
 * keeps the reduction, and the leftover check names it.
 *
 * Where the kind says its pipeline has redux (`has_redux`: NVIDIA sm_80
 * and newer, convert-gpu-to-nvvm{has-redux}), full-subgroup uniform i32
 * reductions of the kinds LLVM 22 maps onto redux.sync (add, and, or, xor,
 * minsi, maxsi) are left to it: one instruction instead of five shuffle
 * steps. */
#include "device_subgroup.h"

#include "diag.h"
#include "ir.h"
#include "target_kinds.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static MlirNamedAttribute named(MlirContext ctx, const char *name, MlirAttribute a) {
  return mlirNamedAttributeGet(mlirIdentifierGet(ctx, mlirStringRefCreateFromCString(name)), a);
}

static MlirValue constant(MlirOperation at, MlirType t, int64_t v) {
  MlirNamedAttribute value = named(mlirOperationGetContext(at), "value", mlirIntegerAttrGet(t, v));
  return ir_op_before(at, "arith.constant", 0, NULL, t, 1, &value);
}

static MlirValue binary(MlirOperation at, const char *name, MlirValue a, MlirValue b) {
  MlirValue ops[2] = {a, b};
  return ir_op_before(at, name, 2, ops, mlirValueGetType(a), 0, NULL);
}

/* The arith op that combines two values for reduction kind `kind`. */
static const char *combiner(const char *kind, int is_float) {
  static const struct {
    const char *kind, *int_op, *float_op;
  } table[] = {
      {"add", "arith.addi", "arith.addf"},     {"mul", "arith.muli", "arith.mulf"},
      {"minui", "arith.minui", NULL},          {"minsi", "arith.minsi", NULL},
      {"maxui", "arith.maxui", NULL},          {"maxsi", "arith.maxsi", NULL},
      {"and", "arith.andi", NULL},             {"or", "arith.ori", NULL},
      {"xor", "arith.xori", NULL},             {"minnumf", NULL, "arith.minnumf"},
      {"maxnumf", NULL, "arith.maxnumf"},      {"minimumf", NULL, "arith.minimumf"},
      {"maximumf", NULL, "arith.maximumf"},
  };
  for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
    if (!strcmp(kind, table[i].kind))
      return is_float ? table[i].float_op : table[i].int_op;
  return NULL;
}

/* "#gpu<all_reduce_op add>" -> "add". */
static void reduction_kind(MlirAttribute a, char *out) {
  char text[128];
  ir_attr_text(a, text, sizeof text);
  const char *p = strrchr(text, ' ');
  snprintf(out, 32, "%.31s", p ? p + 1 : text); /* kinds are short words */
  out[strcspn(out, ">")] = '\0';
}

static int64_t int_attr(MlirOperation op, const char *name, int64_t dflt) {
  MlirAttribute a = mlirOperationGetInherentAttributeByName(op, mlirStringRefCreateFromCString(name));
  return mlirAttributeIsNull(a) ? dflt : mlirIntegerAttrGetValueInt(a);
}

/* A value of type t as the bits a 32-bit shuffle moves, and back. */
static MlirValue cast(MlirOperation at, const char *name, MlirValue v, MlirType to) {
  return ir_op_before(at, name, 1, &v, to, 0, NULL);
}

/* `gpu.shuffle <mode> v, offset, width` before `at`; *valid (if not NULL)
 * gets its second result. */
static MlirValue shuffle(MlirOperation at, MlirAttribute mode, MlirValue v, MlirValue offset,
                         MlirValue width, MlirValue *valid) {
  MlirContext ctx = mlirOperationGetContext(at);
  MlirValue ops[3] = {v, offset, width};
  MlirNamedAttribute m = named(ctx, "mode", mode);
  MlirOperationState st = mlirOperationStateGet(mlirStringRefCreateFromCString("gpu.shuffle"),
                                                mlirOperationGetLocation(at));
  MlirType results[2] = {mlirValueGetType(v), mlirIntegerTypeGet(ctx, 1)};
  mlirOperationStateAddOperands(&st, 3, ops);
  mlirOperationStateAddResults(&st, 2, results);
  mlirOperationStateAddAttributes(&st, 1, &m);
  MlirOperation sh = mlirOperationCreate(&st);
  mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(at), at, sh);
  if (valid)
    *valid = mlirOperationGetResult(sh, 1);
  return mlirOperationGetResult(sh, 0);
}

static MlirValue shuffle_xor(MlirOperation at, MlirValue v, MlirValue offset, MlirValue width) {
  MlirAttribute xor_mode = mlirAttributeParseGet(mlirOperationGetContext(at),
                                                 mlirStringRefCreateFromCString("#gpu<shuffle_mode xor>"));
  return shuffle(at, xor_mode, v, offset, width, NULL);
}

/* Bits of a scalar: 0 for what a shuffle cannot carry (vectors, index). */
static unsigned scalar_bits(MlirType t) {
  if (mlirTypeIsAInteger(t))
    return mlirIntegerTypeGetWidth(t);
  if (mlirTypeIsAF16(t) || mlirTypeIsABF16(t))
    return 16;
  if (mlirTypeIsAF32(t))
    return 32;
  if (mlirTypeIsAF64(t))
    return 64;
  return 0;
}

/* x of another lane (x xor offset), through 32-bit shuffles. */
static MlirValue shuffle_any(MlirOperation at, MlirValue x, MlirValue offset, MlirValue width) {
  MlirContext ctx = mlirOperationGetContext(at);
  MlirType t = mlirValueGetType(x), i32 = mlirIntegerTypeGet(ctx, 32);
  unsigned bits = scalar_bits(t);
  if (mlirTypeIsAF32(t) || (mlirTypeIsAInteger(t) && bits == 32))
    return shuffle_xor(at, x, offset, width);
  MlirType ti = mlirIntegerTypeGet(ctx, bits);
  MlirValue v = mlirTypeIsAInteger(t) ? x : cast(at, "arith.bitcast", x, ti);
  if (bits < 32) {
    MlirValue w = shuffle_xor(at, cast(at, "arith.extui", v, i32), offset, width);
    v = cast(at, "arith.trunci", w, ti);
  } else { /* 64: low and high halves */
    MlirValue c32 = constant(at, ti, 32);
    MlirValue lo = cast(at, "arith.trunci", v, i32);
    MlirValue hi = cast(at, "arith.trunci", binary(at, "arith.shrui", v, c32), i32);
    lo = cast(at, "arith.extui", shuffle_xor(at, lo, offset, width), ti);
    hi = cast(at, "arith.extui", shuffle_xor(at, hi, offset, width), ti);
    v = binary(at, "arith.ori", lo, binary(at, "arith.shli", hi, c32));
  }
  return mlirTypeIsAInteger(t) ? v : cast(at, "arith.bitcast", v, t);
}

/* The reductions convert-gpu-to-nvvm{has-redux} turns into redux.sync:
 * uniform, i32, over the whole subgroup, of a kind LLVM 22 maps (it has no
 * unsigned min/max and no mul). A cluster as wide as the subgroup is the
 * whole subgroup: its attribute goes, as the pattern takes no clusters. */
static int leave_to_redux(MlirOperation op, MlirType t, const char *kind, unsigned width) {
  static const char *const kinds[] = {"add", "and", "or", "xor", "minsi", "maxsi"};
  if (!mlirTypeIsAInteger(t) || mlirIntegerTypeGetWidth(t) != 32)
    return 0;
  int known = 0;
  for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
    known |= !strcmp(kind, kinds[i]);
  int64_t cluster = int_attr(op, "cluster_size", width), stride = int_attr(op, "cluster_stride", 1);
  if (!known || cluster != (int64_t)width || stride != 1)
    return 0;
  mlirOperationSetInherentAttributeByName(op, mlirStringRefCreateFromCString("cluster_size"),
                                          (MlirAttribute){NULL});
  return 1;
}

struct subgroup {
  MlirOperation gpu_module;
  unsigned width;
  int redux; /* the pipeline makes redux.sync of whole-subgroup i32 reductions */
  const struct lane_ops *lanes; /* the kind's lane reads, or NULL */
};

/* redux.sync's name for a reduction kind, or NULL. */
static const char *redux_kind(const char *kind) {
  static const char *const table[][2] = {{"add", "add"},   {"and", "and"},   {"or", "or"},
                                         {"xor", "xor"},   {"minsi", "min"}, {"maxsi", "max"},
                                         {"minui", "umin"}, {"maxui", "umax"}};
  for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
    if (!strcmp(kind, table[i][0]))
      return table[i][1];
  return NULL;
}

/* The loop of the function below (see the top), after %active: a mask of
 * width bits. The value travels in 32-bit pieces, as in shuffle_any. */
static void active_reduce_loop(FILE *o, const struct subgroup *sg, const char *type, unsigned bits,
                               int is_float, const char *combine, unsigned spread) {
  const char *m = sg->width == 64 ? "i64" : "i32";
  fprintf(o, "  %%c0 = arith.constant 0 : i32\n  %%c31 = arith.constant 31 : i32\n"
             "  %%z = arith.constant 0 : %s\n  %%one = arith.constant 1 : %s\n"
             "  %%false = arith.constant false\n  %%yes = arith.constant true\n", m, m);
  /* The 32-bit pieces a lane read moves (%p0, and %p1 for 64 bits). */
  const char *xi = "%x";
  if (is_float) {
    fprintf(o, "  %%xi = arith.bitcast %%x : %s to i%u\n", type, bits);
    xi = "%xi";
  }
  const char *piece[2] = {"%p0", "%p1"};
  if (bits < 32)
    fprintf(o, "  %%p0 = arith.extui %s : i%u to i32\n", xi, bits);
  else if (bits == 32)
    piece[0] = xi;
  else
    fprintf(o, "  %%c32 = arith.constant 32 : i64\n  %%p0 = arith.trunci %s : i64 to i32\n"
               "  %%xh = arith.shrui %s, %%c32 : i64\n  %%p1 = arith.trunci %%xh : i64 to i32\n",
            xi, xi);
  if (spread != sg->width - 1)
    fprintf(o, "  %%lane_index = gpu.lane_id\n  %%lane = arith.index_cast %%lane_index : index to i32\n"
               "  %%outside = arith.constant %u : i32\n",
            (sg->width - 1) & ~spread);
  fprintf(o,
          "  %%r:3 = scf.while (%%bm = %%active, %%bacc = %%x, %%bhave = %%false) : (%1$s, %2$s, i1) "
          "-> (%1$s, %2$s, i1) {\n"
          "    %%more = arith.cmpi ne, %%bm, %%z : %1$s\n"
          "    scf.condition(%%more) %%bm, %%bacc, %%bhave : %1$s, %2$s, i1\n"
          "  } do {\n"
          "  ^bb0(%%m: %1$s, %%acc: %2$s, %%have: i1):\n"
          "    %%jm = math.cttz %%m : %1$s\n",
          m, type);
  const char *j = "%jm";
  if (sg->width == 64) {
    fputs("    %j = arith.trunci %jm : i64 to i32\n", o);
    j = "%j";
  }
  for (int k = 0; k < (bits == 64 ? 2 : 1); k++)
    sg->lanes->read_lane(o, k, piece[k], j);
  const char *vi = "%v0";
  if (bits < 32) {
    fprintf(o, "    %%vi = arith.trunci %%v0 : i32 to i%u\n", bits);
    vi = "%vi";
  } else if (bits == 64) {
    fputs("    %lo = arith.extui %v0 : i32 to i64\n    %hi = arith.extui %v1 : i32 to i64\n"
          "    %his = arith.shli %hi, %c32 : i64\n    %vi = arith.ori %lo, %his : i64\n", o);
    vi = "%vi";
  }
  if (is_float) {
    fprintf(o, "    %%v = arith.bitcast %s : i%u to %s\n", vi, bits, type);
    vi = "%v";
  }
  fprintf(o, "    %%c = %2$s %%acc, %1$s : %3$s\n    %%y = arith.select %%have, %%c, %1$s : %3$s\n",
          vi, combine, type);
  const char *acc = "%y", *have = "%yes";
  if (spread != sg->width - 1) { /* only the lanes of the caller's cluster count */
    fprintf(o, "    %%d = arith.xori %s, %%lane : i32\n    %%dout = arith.andi %%d, %%outside : i32\n"
               "    %%in = arith.cmpi eq, %%dout, %%c0 : i32\n"
               "    %%nacc = arith.select %%in, %%y, %%acc : %s\n"
               "    %%nhave = arith.ori %%have, %%in : i1\n",
            j, type);
    acc = "%nacc";
    have = "%nhave";
  }
  fprintf(o,
          "    %%m1 = arith.subi %%m, %%one : %1$s\n    %%nm = arith.andi %%m, %%m1 : %1$s\n"
          "    scf.yield %%nm, %3$s, %4$s : %1$s, %2$s, i1\n"
          "  }\n"
          "  return %%r#1 : %2$s\n}\n",
          m, type, acc, have);
}

/* The text of function @name that reduces %x over the active lanes of the
 * caller's cluster (cluster lanes differ from the caller's lane only in
 * the bits of `spread`), lowest lane first. */
static char *active_reduce_text(const struct subgroup *sg, const char *name, const char *type,
                                unsigned bits, int is_float, const char *combine,
                                const char *redux, unsigned spread) {
  char *text = NULL;
  size_t len = 0;
  FILE *o = open_memstream(&text, &len);
  if (!o)
    BUG("out of memory");
  const char *m = sg->width == 64 ? "i64" : "i32";
  fprintf(o, "func.func private @%s(%%x: %s) -> %s {\n", name, type, type);
  sg->lanes->active(o, m);
  if (redux) { /* the whole subgroup, i32 */
    sg->lanes->reduce(o, redux);
    fputs("  return %r : i32\n}\n", o);
  } else {
    active_reduce_loop(o, sg, type, bits, is_float, combine, spread);
  }
  if (fclose(o) != 0)
    BUG("out of memory");
  return text;
}

/* Whether the kind reads the active lanes of a subgroup this wide. */
static int can_read_active(const struct subgroup *sg) {
  return sg->lanes && (sg->width == 32 || sg->width == 64) && sg->width <= sg->lanes->max_width;
}

/* A call, before `at`, of the function that reduces op's operand over the
 * active lanes (see the top), made once per type, kind and cluster; a null
 * value if the function cannot be added (reported). */
static MlirValue active_call(MlirOperation op, MlirOperation at, const struct subgroup *sg,
                             MlirType t, unsigned bits, const char *kind, const char *combine) {
  int64_t cluster = int_attr(op, "cluster_size", sg->width), stride = int_attr(op, "cluster_stride", 1);
  /* The lane-index bits that vary within a cluster (sizes and strides are
   * powers of two); all of them for the whole subgroup. */
  unsigned spread = (unsigned)((cluster - 1) * stride) & (sg->width - 1);
  const char *redux = NULL;
  if (sg->redux && sg->lanes->reduce && spread == sg->width - 1 && mlirTypeIsAInteger(t) &&
      bits == 32)
    redux = redux_kind(kind);
  char type[64], name[160];
  ir_type_text(t, type, sizeof type);
  snprintf(name, sizeof name, "__gpucc_reduce_active_%s_%s_%x", kind, type, spread);
  char *text = active_reduce_text(sg, name, type, bits, mlirTypeIsAFloat(t), combine, redux, spread);
  int rc = ir_add_function(sg->gpu_module, name, text);
  free(text);
  if (rc != 0)
    return (MlirValue){NULL};
  MlirValue x = mlirOperationGetOperand(op, 0);
  return mlirOperationGetResult(ir_call_before(at, name, 1, &x, 1, &t), 0);
}

/* A reduction that not every lane of the subgroup may reach: the call
 * instead of the op. Left (0) where the target's pipeline has no lane
 * dialect gpucc knows. */
static int reduce_active(MlirOperation op, const struct subgroup *sg, MlirType t, unsigned bits,
                         const char *kind, const char *combine) {
  if (!can_read_active(sg))
    return 0;
  MlirValue r = active_call(op, op, sg, t, bits, kind, combine);
  if (mlirValueIsNull(r))
    return -1;
  mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(op, 0), r);
  mlirOperationDestroy(op);
  return 0;
}

/* Whether the kernel holding op says (known_block_size) that its blocks are
 * a whole number of subgroups. */
static int blocks_fill_subgroups(MlirOperation op, unsigned width) {
  int64_t threads = ir_known_block_threads(op);
  return threads > 0 && threads % width == 0;
}

static MlirValue linear_thread(MlirOperation at);
static MlirValue block_threads(MlirOperation at);

/* i1: the subgroup of the calling lane has all `width` lanes (the last
 * subgroup of a block whose size is not a multiple of it has fewer). */
static MlirValue subgroup_is_full(MlirOperation at, unsigned width) {
  MlirContext ctx = mlirOperationGetContext(at);
  MlirType index = mlirIndexTypeGet(ctx);
  MlirValue w = constant(at, index, width);
  MlirValue first = binary(at, "arith.muli", binary(at, "arith.divui", linear_thread(at), w), w);
  MlirValue end = binary(at, "arith.addi", first, w);
  MlirValue ops[2] = {end, block_threads(at)};
  MlirNamedAttribute ule =
      named(ctx, "predicate", mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), 7 /* ule */));
  return ir_op_before(at, "arith.cmpi", 2, ops, mlirIntegerTypeGet(ctx, 1), 1, &ule);
}

static int rewrite_reduce(MlirOperation op, const struct subgroup *sg) {
  MlirContext ctx = mlirOperationGetContext(op);
  MlirValue x = mlirOperationGetOperand(op, 0);
  MlirType t = mlirValueGetType(x);
  unsigned bits = scalar_bits(t), width = sg->width;
  int is_float = mlirTypeIsAFloat(t);
  if (bits == 0 || (bits > 32 && bits != 64))
    return 0; /* left for the leftover check */
  char kind[32];
  reduction_kind(mlirOperationGetInherentAttributeByName(op, mlirStringRefCreateFromCString("op")), kind);
  const char *combine = combiner(kind, is_float);
  if (!combine)
    return 0;
  if (mlirAttributeIsNull(mlirOperationGetInherentAttributeByName(op, mlirStringRefCreateFromCString("uniform"))))
    return reduce_active(op, sg, t, bits, kind, combine);
  int redux = sg->redux && leave_to_redux(op, t, kind, width);
  /* A butterfly (or redux.sync) needs every lane of the subgroup, which the
   * last subgroup of a block of, say, 40 threads does not have: there the
   * missing partners would count the caller's own value again (the host) or
   * make the shuffle undefined (a GPU). So, unless known_block_size rules
   * it out, the partial subgroup takes the active-lane function instead. */
  MlirOperation at = op, then_yield = {NULL}, else_yield = {NULL}, guard = {NULL};
  if (!blocks_fill_subgroups(op, width) && can_read_active(sg)) {
    guard = ir_if_before(op, subgroup_is_full(op, width), t, &then_yield, &else_yield);
    MlirValue partial = active_call(op, else_yield, sg, t, bits, kind, combine);
    if (mlirValueIsNull(partial))
      return -1;
    mlirOperationSetOperands(else_yield, 1, &partial);
    at = then_yield;
  }
  MlirValue result = mlirOperationGetResult(op, 0);
  if (redux) { /* the op itself, left to the pipeline */
    if (!mlirOperationIsNull(guard)) {
      mlirOperationMoveBefore(op, then_yield);
      mlirOperationSetOperands(then_yield, 1, &result);
      MlirValue r = mlirOperationGetResult(guard, 0);
      mlirValueReplaceAllUsesExcept(result, r, 1, &then_yield);
    }
    return 0;
  }
  int64_t cluster = int_attr(op, "cluster_size", width), stride = int_attr(op, "cluster_stride", 1);
  MlirType i32 = mlirIntegerTypeGet(ctx, 32);
  MlirValue w = constant(at, i32, width);
  for (int64_t offset = stride; offset < cluster * stride; offset *= 2)
    x = binary(at, combine, x, shuffle_any(at, x, constant(at, i32, offset), w));
  if (!mlirOperationIsNull(guard)) {
    mlirOperationSetOperands(then_yield, 1, &x);
    x = mlirOperationGetResult(guard, 0);
  }
  mlirValueReplaceAllUsesOfWith(result, x);
  mlirOperationDestroy(op);
  return 0;
}

/* A gpu.shuffle (user-written) of `v` with op's mode, offset and width,
 * before op; *valid gets its second result. */
static MlirValue shuffle_like(MlirOperation op, MlirValue v, MlirValue *valid) {
  MlirAttribute mode = mlirOperationGetInherentAttributeByName(op, mlirStringRefCreateFromCString("mode"));
  return shuffle(op, mode, v, mlirOperationGetOperand(op, 1), mlirOperationGetOperand(op, 2), valid);
}

/* A scalar of fewer than 32 bits shuffled as an i32 (zero-extended). */
static MlirValue shuffle_narrow(MlirOperation op, MlirValue x, MlirValue *valid) {
  MlirContext ctx = mlirOperationGetContext(op);
  MlirType t = mlirValueGetType(x), i32 = mlirIntegerTypeGet(ctx, 32);
  unsigned bits = scalar_bits(t);
  if (bits == 0 || bits >= 32)
    return shuffle_like(op, x, valid);
  MlirType ti = mlirIntegerTypeGet(ctx, bits);
  MlirValue v = mlirTypeIsAInteger(t) ? x : cast(op, "arith.bitcast", x, ti);
  v = cast(op, "arith.trunci", shuffle_like(op, cast(op, "arith.extui", v, i32), valid), ti);
  return mlirTypeIsAInteger(t) ? v : cast(op, "arith.bitcast", v, t);
}

static MlirNamedAttribute position(MlirContext ctx, int64_t i) {
  return named(ctx, "static_position", mlirDenseI64ArrayGet(ctx, 1, &i));
}

/* For a kind whose shuffle moves 32 and 64 bits only (shuffles_wide_only;
 * NVVM's: "operand #1 must be 32-bit signless integer or 32-bit float"):
 * narrower scalars travel as i32, and
 * vectors (of up to 64 elements) one element at a time; every element's
 * partner is the same lane, so the first shuffle's `valid` is everyone's. */
static void widen_shuffle(MlirOperation op) {
  MlirContext ctx = mlirOperationGetContext(op);
  MlirValue x = mlirOperationGetOperand(op, 0), valid, r;
  MlirType t = mlirValueGetType(x);
  if (mlirTypeIsAVector(t)) {
    if (mlirShapedTypeGetRank(t) != 1 || mlirShapedTypeGetDimSize(t, 0) > 64 ||
        scalar_bits(mlirShapedTypeGetElementType(t)) == 0)
      return; /* left for the leftover check */
    MlirType et = mlirShapedTypeGetElementType(t);
    r = x;
    for (int64_t i = 0; i < mlirShapedTypeGetDimSize(t, 0); i++) {
      MlirNamedAttribute at = position(ctx, i);
      MlirValue e = ir_op_before(op, "vector.extract", 1, &x, et, 1, &at);
      MlirValue v, ok;
      v = shuffle_narrow(op, e, &ok);
      if (i == 0)
        valid = ok;
      MlirValue ins[2] = {v, r};
      r = ir_op_before(op, "vector.insert", 2, ins, t, 1, &at);
    }
  } else if (scalar_bits(t) > 0 && scalar_bits(t) < 32) {
    r = shuffle_narrow(op, x, &valid);
  } else {
    return;
  }
  mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(op, 0), r);
  mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(op, 1), valid);
  mlirOperationDestroy(op);
}

/* gpu.all_reduce of i8/i16/f16/bf16 with a named op: LLVM's lowering
 * shuffles the element type, which NVVM cannot. It runs on the value
 * widened to i32 (sign- or zero-extended as the op compares) or f32 and is
 * narrowed back: exact for integers (the low bits of a wider sum or product
 * are the narrow ones) and for min/max; float sums and products are rounded
 * once instead of at every step (their order is unspecified anyway). A
 * reduction with a body region is left as it is. */
static void widen_all_reduce(MlirOperation op) {
  MlirContext ctx = mlirOperationGetContext(op);
  MlirValue x = mlirOperationGetOperand(op, 0);
  MlirType t = mlirValueGetType(x);
  unsigned bits = scalar_bits(t);
  MlirAttribute kind = mlirOperationGetInherentAttributeByName(op, mlirStringRefCreateFromCString("op"));
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0));
  if (bits == 0 || bits >= 32 || mlirAttributeIsNull(kind) ||
      (!mlirBlockIsNull(body) && !mlirOperationIsNull(mlirBlockGetFirstOperation(body))))
    return;
  char k[64];
  ir_attr_text(kind, k, sizeof k);
  int is_float = !mlirTypeIsAInteger(t);
  MlirType wide = is_float ? mlirF32TypeGet(ctx) : mlirIntegerTypeGet(ctx, 32);
  const char *ext = is_float ? "arith.extf" : strstr(k, "ui>") ? "arith.extui" : "arith.extsi";
  MlirValue w = cast(op, ext, x, wide);
  MlirOperationState st = mlirOperationStateGet(mlirStringRefCreateFromCString("gpu.all_reduce"),
                                                mlirOperationGetLocation(op));
  MlirRegion empty = mlirRegionCreate();
  MlirNamedAttribute attrs[2];
  attrs[0] = named(ctx, "op", kind);
  intptr_t nattrs = 1;
  MlirAttribute uniform =
      mlirOperationGetInherentAttributeByName(op, mlirStringRefCreateFromCString("uniform"));
  if (!mlirAttributeIsNull(uniform))
    attrs[nattrs++] = named(ctx, "uniform", uniform);
  mlirOperationStateAddOperands(&st, 1, &w);
  mlirOperationStateAddResults(&st, 1, &wide);
  mlirOperationStateAddAttributes(&st, nattrs, attrs);
  mlirOperationStateAddOwnedRegions(&st, 1, &empty);
  MlirOperation r = mlirOperationCreate(&st);
  mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(op), op, r);
  MlirValue narrow = cast(op, is_float ? "arith.truncf" : "arith.trunci", mlirOperationGetResult(r, 0), t);
  mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(op, 0), narrow);
  mlirOperationDestroy(op);
}

static MlirValue dim(MlirOperation at, const char *op, const char *d) {
  MlirContext ctx = mlirOperationGetContext(at);
  char text[32];
  snprintf(text, sizeof text, "#gpu<dim %s>", d);
  MlirNamedAttribute a = named(ctx, "dimension", mlirAttributeParseGet(ctx, mlirStringRefCreateFromCString(text)));
  return ir_op_before(at, op, 0, NULL, mlirIndexTypeGet(ctx), 1, &a);
}

/* x + nx * (y + ny * z), or nx * ny * nz with ids = 0. */
static MlirValue linear_thread(MlirOperation at) {
  MlirValue x = dim(at, "gpu.thread_id", "x"), y = dim(at, "gpu.thread_id", "y");
  MlirValue z = dim(at, "gpu.thread_id", "z");
  MlirValue nx = dim(at, "gpu.block_dim", "x"), ny = dim(at, "gpu.block_dim", "y");
  MlirValue yz = binary(at, "arith.addi", y, binary(at, "arith.muli", ny, z));
  return binary(at, "arith.addi", x, binary(at, "arith.muli", nx, yz));
}

static MlirValue block_threads(MlirOperation at) {
  MlirValue nx = dim(at, "gpu.block_dim", "x"), ny = dim(at, "gpu.block_dim", "y");
  MlirValue nz = dim(at, "gpu.block_dim", "z");
  return binary(at, "arith.muli", nx, binary(at, "arith.muli", ny, nz));
}

static void replace_index(MlirOperation op, unsigned width) {
  MlirType index = mlirIndexTypeGet(mlirOperationGetContext(op));
  MlirValue w = constant(op, index, width), r;
  if (ir_op_is(op, "gpu.subgroup_size"))
    r = w;
  else if (ir_op_is(op, "gpu.subgroup_id"))
    r = binary(op, "arith.divui", linear_thread(op), w);
  else
    r = binary(op, "arith.ceildivui", block_threads(op), w);
  mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(op, 0), r);
  mlirOperationDestroy(op);
}

int lowering_expand_subgroup_ops(MlirOperation gpu_module, const struct target *t) {
  const struct target_lowering *l = t->info->kind->lowering;
  struct subgroup sg = {gpu_module, l->subgroup_width(t), l->has_redux && l->has_redux(t), l->lanes};
  static const char *const names[] = {"gpu.subgroup_reduce", "gpu.subgroup_size", "gpu.subgroup_id",
                                      "gpu.num_subgroups", NULL};
  static const char *const shuffles[] = {"gpu.shuffle", "gpu.all_reduce", NULL};
  MlirOperation *found;
  size_t n;
  if (sg.lanes && sg.lanes->shuffles_wide_only) { /* before the reductions add 32-bit ones */
    n = ir_find_ops(gpu_module, shuffles, NULL, &found);
    for (size_t i = 0; i < n; i++) {
      if (ir_op_is(found[i], "gpu.shuffle"))
        widen_shuffle(found[i]);
      else
        widen_all_reduce(found[i]);
    }
    free(found);
  }
  n = ir_find_ops(gpu_module, names, NULL, &found);
  int rc = 0;
  for (size_t i = 0; i < n && rc == 0; i++) {
    if (ir_op_is(found[i], "gpu.subgroup_reduce"))
      rc = rewrite_reduce(found[i], &sg);
    else
      replace_index(found[i], sg.width);
  }
  free(found);
  return rc;
}
