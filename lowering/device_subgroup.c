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
 * Only uniform reductions (frontend/normalize.c marks those in a kernel's
 * entry block) of scalars are rewritten: a shuffle needs every lane of the
 * subgroup. A shuffle moves 32 bits on every target, so narrower values
 * (i1..i16, f16, bf16) travel zero-extended in an i32 and 64-bit ones (i64,
 * f64) as two i32 halves; the combining op always runs in the value's own
 * type, so results are exact. Vectors, index values and reductions that are
 * not uniform are left, and the leftover check names them.
 *
 * Where the target's pipeline runs convert-gpu-to-nvvm with has-redux
 * (NVIDIA sm_80 and newer), full-subgroup i32 reductions of the kinds LLVM
 * 22 maps onto redux.sync (add, and, or, xor, minsi, maxsi) are left to it:
 * one instruction instead of five shuffle steps. */
#include "device_subgroup.h"

#include "diag.h"
#include "frontend.h"
#include "target_kinds.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Builds one op before `at` and returns its first result (or a null value). */
static MlirValue build(MlirOperation at, const char *name, intptr_t nops, const MlirValue *ops,
                       MlirType result, intptr_t nattr, const MlirNamedAttribute *attrs) {
  MlirOperationState st = mlirOperationStateGet(mlirStringRefCreateFromCString(name),
                                                mlirOperationGetLocation(at));
  if (nops)
    mlirOperationStateAddOperands(&st, nops, ops);
  if (!mlirTypeIsNull(result))
    mlirOperationStateAddResults(&st, 1, &result);
  if (nattr)
    mlirOperationStateAddAttributes(&st, nattr, attrs);
  MlirOperation op = mlirOperationCreate(&st);
  mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(at), at, op);
  return mlirTypeIsNull(result) ? (MlirValue){NULL} : mlirOperationGetResult(op, 0);
}

static MlirNamedAttribute named(MlirContext ctx, const char *name, MlirAttribute a) {
  return mlirNamedAttributeGet(mlirIdentifierGet(ctx, mlirStringRefCreateFromCString(name)), a);
}

static MlirValue constant(MlirOperation at, MlirType t, int64_t v) {
  MlirNamedAttribute value = named(mlirOperationGetContext(at), "value", mlirIntegerAttrGet(t, v));
  return build(at, "arith.constant", 0, NULL, t, 1, &value);
}

static MlirValue binary(MlirOperation at, const char *name, MlirValue a, MlirValue b) {
  MlirValue ops[2] = {a, b};
  return build(at, name, 2, ops, mlirValueGetType(a), 0, NULL);
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
  frontend_attr_text(a, text, sizeof text);
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
  return build(at, name, 1, &v, to, 0, NULL);
}

static MlirValue shuffle_xor(MlirOperation at, MlirValue v, MlirValue offset, MlirValue width) {
  MlirContext ctx = mlirOperationGetContext(at);
  MlirValue ops[3] = {v, offset, width};
  MlirAttribute xor_mode =
      mlirAttributeParseGet(ctx, mlirStringRefCreateFromCString("#gpu<shuffle_mode xor>"));
  MlirNamedAttribute mode = named(ctx, "mode", xor_mode);
  MlirOperationState st = mlirOperationStateGet(mlirStringRefCreateFromCString("gpu.shuffle"),
                                                mlirOperationGetLocation(at));
  MlirType results[2] = {mlirValueGetType(v), mlirIntegerTypeGet(ctx, 1)};
  mlirOperationStateAddOperands(&st, 3, ops);
  mlirOperationStateAddResults(&st, 2, results);
  mlirOperationStateAddAttributes(&st, 1, &mode);
  MlirOperation sh = mlirOperationCreate(&st);
  mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(at), at, sh);
  return mlirOperationGetResult(sh, 0);
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

static int rewrite_reduce(MlirOperation op, unsigned width, int redux) {
  MlirContext ctx = mlirOperationGetContext(op);
  MlirValue x = mlirOperationGetOperand(op, 0);
  MlirType t = mlirValueGetType(x);
  unsigned bits = scalar_bits(t);
  int is_float = mlirTypeIsAFloat(t);
  if (mlirAttributeIsNull(mlirOperationGetInherentAttributeByName(op, mlirStringRefCreateFromCString("uniform"))) ||
      bits == 0 || (bits > 32 && bits != 64))
    return 0; /* left for the leftover check */
  char kind[32];
  reduction_kind(mlirOperationGetInherentAttributeByName(op, mlirStringRefCreateFromCString("op")), kind);
  const char *combine = combiner(kind, is_float);
  if (!combine || (redux && leave_to_redux(op, t, kind, width)))
    return 0;
  int64_t cluster = int_attr(op, "cluster_size", width), stride = int_attr(op, "cluster_stride", 1);
  MlirType i32 = mlirIntegerTypeGet(ctx, 32);
  MlirValue w = constant(op, i32, width);
  for (int64_t offset = stride; offset < cluster * stride; offset *= 2)
    x = binary(op, combine, x, shuffle_any(op, x, constant(op, i32, offset), w));
  mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(op, 0), x);
  mlirOperationDestroy(op);
  return 0;
}

static MlirValue dim(MlirOperation at, const char *op, const char *d) {
  MlirContext ctx = mlirOperationGetContext(at);
  char text[32];
  snprintf(text, sizeof text, "#gpu<dim %s>", d);
  MlirNamedAttribute a = named(ctx, "dimension", mlirAttributeParseGet(ctx, mlirStringRefCreateFromCString(text)));
  return build(at, op, 0, NULL, mlirIndexTypeGet(ctx), 1, &a);
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
  if (frontend_op_is(op, "gpu.subgroup_size"))
    r = w;
  else if (frontend_op_is(op, "gpu.subgroup_id"))
    r = binary(op, "arith.divui", linear_thread(op), w);
  else
    r = binary(op, "arith.ceildivui", block_threads(op), w);
  mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(op, 0), r);
  mlirOperationDestroy(op);
}

/* The target's pipeline lowers some reductions itself (see the top). */
static int pipeline_has_redux(const struct target *t) {
  char text[4096];
  return t->info->kind->lowering->pipeline(text, sizeof text, t) == 0 &&
         strstr(text, "has-redux") != NULL;
}

int lowering_expand_subgroup_ops(MlirOperation gpu_module, const struct target *t) {
  unsigned width = t->info->kind->lowering->subgroup_width(t);
  int redux = pipeline_has_redux(t);
  static const char *const names[] = {"gpu.subgroup_reduce", "gpu.subgroup_size", "gpu.subgroup_id",
                                      "gpu.num_subgroups", NULL};
  MlirOperation *found;
  size_t n = frontend_find_ops(gpu_module, names, NULL, &found);
  int rc = 0;
  for (size_t i = 0; i < n && rc == 0; i++) {
    if (frontend_op_is(found[i], "gpu.subgroup_reduce"))
      rc = rewrite_reduce(found[i], width, redux);
    else
      replace_index(found[i], width);
  }
  free(found);
  return rc;
}
