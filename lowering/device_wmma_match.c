/* device_wmma_match.c: the checks a contraction's pieces pass before
 * device_contract_wmma.c (one contraction) or device_contract_wmma_loop.c
 * (one accumulated in a k-loop) rewrites them for wmma: each tile's
 * transfer, the multiplicands' types per chip, the accumulator, and that
 * nothing between reads and write writes memory. The bottom layer of the
 * rewrite: it calls neither of those files. */
#include "device_contract_wmma_internal.h"

#include "device_warp_uniform.h"
#include "ir.h"

#include <mlir-c/AffineExpr.h>
#include <mlir-c/AffineMap.h>
#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <string.h>

/* rows of wmma's operands are a multiple of 16 bytes apart (CUDA's
 * load_matrix_sync contract) */
#define WMMA_LD_BYTES 16

static MlirStringRef ref(const char *s) { return mlirStringRefCreateFromCString(s); }

int wmma_attr_is(MlirOperation op, const char *name, const char *want) {
  MlirAttribute a = mlirOperationGetAttributeByName(op, ref(name));
  if (mlirAttributeIsNull(a))
    return 0;
  char text[512];
  ir_attr_text(a, text, sizeof text);
  return strcmp(text, want) == 0;
}

static int is_16x16(MlirType t, MlirType elem) {
  return mlirTypeIsAVector(t) && mlirShapedTypeGetRank(t) == 2 && mlirShapedTypeGetDimSize(t, 0) == WMMA_TILE &&
         mlirShapedTypeGetDimSize(t, 1) == WMMA_TILE && mlirTypeEqual(mlirShapedTypeGetElementType(t), elem);
}

static int all_in_bounds(MlirOperation op) {
  MlirAttribute a = mlirOperationGetAttributeByName(op, ref("in_bounds"));
  if (mlirAttributeIsNull(a) || !mlirAttributeIsAArray(a) || mlirArrayAttrGetNumElements(a) != 2)
    return 0;
  for (intptr_t i = 0; i < 2; i++) {
    MlirAttribute b = mlirArrayAttrGetElement(a, i);
    if (!mlirAttributeIsABool(b) || !mlirBoolAttrGetValue(b))
      return 0;
  }
  return 1;
}

/* Global memory (the default space) or workgroup memory: what wmma
 * addresses. */
static int wmma_space(MlirType memref) {
  MlirAttribute s = mlirMemRefTypeGetMemorySpace(memref);
  if (mlirAttributeIsNull(s))
    return 1;
  if (mlirAttributeIsAInteger(s)) {
    int64_t n = mlirIntegerAttrGetValueInt(s);
    return n == 0 || n == 1 || n == 3;
  }
  char text[128];
  ir_attr_text(s, text, sizeof text);
  return !strcmp(text, "#gpu.address_space<global>") || !strcmp(text, "#gpu.address_space<workgroup>");
}

/* The row stride of memref type t when its last dimension is contiguous
 * and its rows are static, far enough apart and as wmma takes them; else 0. */
static int64_t row_stride(MlirType t, MlirType elem) {
  intptr_t rank = mlirShapedTypeGetRank(t);
  int64_t strides[16], offset, bytes = ir_element_bytes(elem);
  if (rank < 2 || rank > 16 || bytes <= 0 ||
      mlirLogicalResultIsFailure(mlirMemRefTypeGetStridesAndOffset(t, strides, &offset)))
    return 0;
  int64_t ld = strides[rank - 2];
  if (strides[rank - 1] != 1 || mlirShapedTypeIsDynamicStrideOrOffset(ld) || ld < WMMA_TILE ||
      (ld * bytes) % WMMA_LD_BYTES != 0)
    return 0;
  return ld;
}

/* Whether map (of a rank-`rank` memref) is (..., d0, d1) -> (d1, d0). */
static int minor_transposed(MlirAffineMap map, intptr_t rank) {
  MlirAffineExpr r0 = mlirAffineMapGetResult(map, 0), r1 = mlirAffineMapGetResult(map, 1);
  return mlirAffineExprIsADim(r0) && mlirAffineExprIsADim(r1) &&
         mlirAffineDimExprGetPosition(r0) == rank - 1 && mlirAffineDimExprGetPosition(r1) == rank - 2;
}

int wmma_tile_access(MlirOperation op, int write, MlirType elem, struct tile *t) {
  if (!ir_op_is(op, write ? "vector.transfer_write" : "vector.transfer_read"))
    return 0;
  MlirValue vec = write ? mlirOperationGetOperand(op, 0) : mlirOperationGetResult(op, 0);
  MlirValue mem = mlirOperationGetOperand(op, write ? 1 : 0);
  MlirType mt = mlirValueGetType(mem);
  if (!is_16x16(mlirValueGetType(vec), elem) || !mlirTypeIsAMemRef(mt) ||
      !mlirTypeEqual(mlirShapedTypeGetElementType(mt), elem) || !wmma_space(mt))
    return 0;
  intptr_t rank = mlirShapedTypeGetRank(mt);
  /* read: memref, indices, padding; write: vector, memref, indices; no mask */
  if (mlirOperationGetNumOperands(op) != rank + 2 || !all_in_bounds(op))
    return 0;
  MlirAttribute perm = mlirOperationGetAttributeByName(op, ref("permutation_map"));
  if (mlirAttributeIsNull(perm) || !mlirAttributeIsAAffineMap(perm))
    return 0;
  MlirAffineMap map = mlirAffineMapAttrGetValue(perm);
  if (mlirAffineMapGetNumDims(map) != rank || mlirAffineMapGetNumResults(map) != 2)
    return 0;
  /* a read may transpose the tile: the vector is the memory's column-major */
  int transposed = !write && minor_transposed(map, rank);
  if (!transposed && !mlirAffineMapIsMinorIdentity(map))
    return 0;
  int64_t ld = row_stride(mt, elem);
  if (ld == 0 || !warp_uniform_value(mem))
    return 0;
  intptr_t first = write ? 2 : 1;
  for (intptr_t i = first; i < first + rank; i++)
    if (!warp_uniform_value(mlirOperationGetOperand(op, i)))
      return 0;
  *t = (struct tile){
      .op = op, .memref = mem, .first_index = first, .rank = rank, .ld = ld, .elem = elem, .transpose = transposed};
  return 1;
}

static int is_int(MlirType t, unsigned bits) {
  return mlirTypeIsAInteger(t) && mlirIntegerTypeGetWidth(t) == bits;
}

/* The lowest chip (sm_XX as XX) whose wmma takes the operands. */
static int operands_chip(enum wmma_operands k) {
  switch (k) {
  case WMMA_F16:
    return 70;
  case WMMA_S8:
  case WMMA_U8:
    return 72;
  case WMMA_BF16:
    return 80;
  }
  return 1000;
}

/* What wmma multiplies when operand i reads `from` (a tile element) and
 * extends it by `ext` (null: none) to the accumulator's type; -1: none. */
static int operand_kind(MlirType from, MlirOperation ext, MlirType acc) {
  /* unextended: the same type, or a mixed contraction not yet widened,
   * whose operands extend as floats or signed integers */
  int fp_ext = mlirOperationIsNull(ext) ? !is_int(from, 8) : ir_op_is(ext, "arith.extf");
  if (mlirOperationIsNull(ext) && mlirTypeIsAF16(from) && mlirTypeIsAF16(acc))
    return WMMA_F16;
  if (fp_ext && mlirTypeIsAF32(acc)) {
    /* f16 and bf16 products are exact in f32 */
    if (mlirTypeIsAF16(from))
      return WMMA_F16;
    if (mlirTypeIsABF16(from))
      return WMMA_BF16;
    return -1;
  }
  if (is_int(from, 8) && is_int(acc, 32)) {
    if (mlirOperationIsNull(ext) || ir_op_is(ext, "arith.extsi"))
      return WMMA_S8;
    if (ir_op_is(ext, "arith.extui"))
      return WMMA_U8;
  }
  return -1;
}

/* Operand i (A or B) of the contraction: a tile, read as it is or
 * extended; its kind in *kind. */
static int match_operand(struct match *m, int i, int *kind) {
  MlirValue v = mlirOperationGetOperand(m->contract, i);
  m->ext[i] = (MlirOperation){NULL};
  if (mlirValueIsAOpResult(v)) {
    MlirOperation def = mlirOpResultGetOwner(v);
    if (ir_op_is(def, "arith.extf") || ir_op_is(def, "arith.extsi") ||
        ir_op_is(def, "arith.extui")) {
      if (!mlirTypeEqual(mlirShapedTypeGetElementType(mlirValueGetType(v)), m->acc))
        return 0;
      m->ext[i] = def;
      v = mlirOperationGetOperand(def, 0);
    }
  }
  MlirType t = mlirValueGetType(v);
  if (!mlirTypeIsAVector(t) || !mlirValueIsAOpResult(v))
    return 0;
  MlirType from = mlirShapedTypeGetElementType(t);
  *kind = operand_kind(from, m->ext[i], m->acc);
  int transpose = m->t[i].transpose; /* the map's */
  if (*kind < 0 || !wmma_tile_access(mlirOpResultGetOwner(v), 0, from, &m->t[i]))
    return 0;
  /* transposed by the map or by the read: column-major; by both: not */
  m->t[i].transpose ^= transpose;
  return 1;
}

int wmma_match_operands(struct match *m, int chip) {
  MlirType rt = mlirValueGetType(mlirOperationGetResult(m->contract, 0));
  if (!mlirTypeIsAVector(rt))
    return 0;
  m->acc = mlirShapedTypeGetElementType(rt);
  if (!mlirTypeIsAF16(m->acc) && !mlirTypeIsAF32(m->acc) && !is_int(m->acc, 32))
    return 0;
  int ka, kb;
  if (!match_operand(m, A, &ka) || !match_operand(m, B, &kb) || ka != kb || operands_chip(ka) > chip)
    return 0;
  m->operands = ka;
  return 1;
}

int wmma_match_accumulator(struct match *m, MlirValue v) {
  if (!mlirValueIsAOpResult(v))
    return 0;
  MlirOperation def = mlirOpResultGetOwner(v);
  m->t[C].op = (MlirOperation){NULL};
  if (ir_op_is(def, "arith.constant")) {
    MlirAttribute value = mlirOperationGetAttributeByName(def, ref("value"));
    if (mlirAttributeIsNull(value) || !mlirAttributeIsADenseElements(value) ||
        !mlirDenseElementsAttrIsSplat(value))
      return 0;
    m->splat = mlirDenseElementsAttrGetSplatValue(value);
    return 1;
  }
  if (ir_op_is(def, "vector.broadcast")) {
    m->fill = mlirOperationGetOperand(def, 0);
    return mlirTypeEqual(mlirValueGetType(m->fill), m->acc) && warp_uniform_value(m->fill);
  }
  return wmma_tile_access(def, 0, m->acc, &m->t[C]) && !m->t[C].transpose;
}

int wmma_writes_nothing(MlirOperation op) {
  static const char *const writers[] = {"vector.transfer_write", "vector.store", "vector.maskedstore",
                                        "vector.scatter", "vector.compressstore", "vector.print", NULL};
  static const char *const readers[] = {"memref.load", "memref.dim", "memref.subview", "memref.cast",
                                        "memref.reinterpret_cast", "memref.expand_shape",
                                        "memref.collapse_shape", "affine.apply", "affine.min", "affine.max",
                                        "builtin.unrealized_conversion_cast", "gpu.thread_id", "gpu.block_id",
                                        "gpu.block_dim", "gpu.grid_dim", "gpu.lane_id", "gpu.subgroup_id",
                                        NULL};
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  if (mlirOperationGetNumRegions(op) != 0)
    return 0;
  if (ir_ref_starts(name, "arith.") || ir_ref_starts(name, "math.") ||
      ir_ref_starts(name, "index.") || ir_ref_starts(name, "llvm.mlir.") ||
      ir_ref_is(name, "llvm.insertvalue") || ir_ref_is(name, "llvm.extractvalue"))
    return 1;
  if (ir_ref_starts(name, "vector.")) {
    for (size_t i = 0; writers[i]; i++)
      if (ir_ref_is(name, writers[i]))
        return 0;
    return 1;
  }
  for (size_t i = 0; readers[i]; i++)
    if (ir_ref_is(name, readers[i]))
      return 1;
  return 0;
}

int wmma_used_only_by(MlirOperation op, const MlirOperation *ops, size_t n) {
  for (intptr_t r = 0; r < mlirOperationGetNumResults(op); r++)
    for (MlirOpOperand u = mlirValueGetFirstUse(mlirOperationGetResult(op, r)); !mlirOpOperandIsNull(u);
         u = mlirOpOperandGetNextUse(u)) {
      size_t k = 0;
      while (k < n && !mlirOperationEqual(ops[k], mlirOpOperandGetOwner(u)))
        k++;
      if (k == n)
        return 0;
    }
  return 1;
}
