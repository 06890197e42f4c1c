/* device_contract_wmma.c: warp-uniform vector.contract as wmma on NVIDIA.
 *
 * In a kernel each thread computes a vector.contract on its own. A 16x16x16
 * matmul contraction whose tiles every lane of a warp reads from the same
 * addresses and writes to the same address is the same computation as one
 * tensor-core multiply that the warp does together (gpu.subgroup_mma_*,
 * which LLVM lowers to wmma): each element of the result is written once
 * instead of 32 times with one value. Upstream's convert-vector-to-gpu does
 * this rewrite for every contraction it can, assuming the warp-level
 * meaning; gpucc's contractions have the per-thread one, so the rewrite is
 * done here only where that changes nothing:
 *
 * - the shape: maps (m,k), (k,n), (m,n), iterators parallel, parallel,
 *   reduction, kind add, 16x16 tiles; A and B f16 (read as f16, or extended
 *   to f32 by arith.extf, as contract_widen.c writes a mixed contraction),
 *   the accumulator f16 or f32, read or a splat constant; the result used
 *   only by one transfer_write;
 * - the accesses: transfer_read/write in bounds, unmasked, of the last two
 *   dimensions of a global or workgroup memref with unit last stride and a
 *   static row stride that wmma takes (a multiple of 16 bytes, at least a
 *   row);
 * - uniformity (device_warp_uniform.c): memrefs and indices the same in
 *   every lane, the ops in uniform control flow of the kernel;
 * - nothing between the first read and the write writes memory (the wmma
 *   loads happen at the write), all in one block.
 *
 * At run time the tiles must start on 32 bytes, as wmma requires, and the
 * warp must be whole: a warp of a block whose size is not a multiple of 32
 * lacks lanes (all lanes active: nvvm activemask is all ones; a kernel's
 * known_block_size can prove it instead). The rewrite is
 *
 *   scf.if (aligned && whole warp) { gpu.subgroup_mma_load_matrix ...,
 *     gpu.subgroup_mma_compute, gpu.subgroup_mma_store_matrix }
 *   else { the transfers and the contraction, per thread, as written }
 *
 * whose condition is itself the same in every lane. Results may differ in
 * the last bits: the tensor core sums in its own order and precision, as
 * any reassociation of the sum (-ffp-contract=fast) may. */
#include "device_contract_wmma.h"

#include "device_warp_uniform.h"
#include "frontend.h"

#include <mlir-c/AffineMap.h>
#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TILE 16
#define WARP 32
/* wmma's operands in memory: the matrix starts on 256 bits, rows are a
 * multiple of 16 bytes apart (CUDA's load_matrix_sync contract). */
#define WMMA_ALIGN 32
#define WMMA_LD_BYTES 16
/* All 32 lanes active, as NVVM reads it (the host target, which never gets
 * this rewrite, reads it too: tests/contract_wmma runs rewritten programs
 * there). */
#define ACTIVEMASK "llvm.call_intrinsic \"llvm.nvvm.activemask\"() : () -> i32"

enum { A, B, C, D };

/* One tile in memory: a transfer_read (A, B, C) or the transfer_write (D). */
struct tile {
  MlirOperation op;
  MlirValue memref;
  intptr_t first_index, rank; /* op's operands first_index.. are the indices */
  int64_t ld;                 /* elements from one row to the next */
  MlirType elem;
};

struct match {
  MlirOperation contract, kernel;
  struct tile t[4];         /* t[C].op null: C is the splat `splat` */
  MlirOperation ext[2];     /* arith.extf from A's or B's read, or null */
  MlirAttribute splat;
  MlirType acc;             /* the accumulator's element type */
};

static MlirStringRef ref(const char *s) { return mlirStringRefCreateFromCString(s); }

static MlirNamedAttribute named(MlirContext ctx, const char *name, MlirAttribute a) {
  return mlirNamedAttributeGet(mlirIdentifierGet(ctx, ref(name)), a);
}

static int attr_text_is(MlirOperation op, const char *name, const char *want) {
  MlirAttribute a = mlirOperationGetAttributeByName(op, ref(name));
  if (mlirAttributeIsNull(a))
    return 0;
  char text[512];
  frontend_attr_text(a, text, sizeof text);
  return strcmp(text, want) == 0;
}

static int is_16x16(MlirType t, MlirType elem) {
  return mlirTypeIsAVector(t) && mlirShapedTypeGetRank(t) == 2 && mlirShapedTypeGetDimSize(t, 0) == TILE &&
         mlirShapedTypeGetDimSize(t, 1) == TILE && mlirTypeEqual(mlirShapedTypeGetElementType(t), elem);
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
  frontend_attr_text(s, text, sizeof text);
  return !strcmp(text, "#gpu.address_space<global>") || !strcmp(text, "#gpu.address_space<workgroup>");
}

/* The row stride of memref type t when its last dimension is contiguous
 * and its rows are static, far enough apart and as wmma takes them; else 0. */
static int64_t row_stride(MlirType t, MlirType elem) {
  intptr_t rank = mlirShapedTypeGetRank(t);
  int64_t strides[16], offset, bytes = frontend_element_bytes(elem);
  if (rank < 2 || rank > 16 || bytes <= 0 ||
      mlirLogicalResultIsFailure(mlirMemRefTypeGetStridesAndOffset(t, strides, &offset)))
    return 0;
  int64_t ld = strides[rank - 2];
  if (strides[rank - 1] != 1 || mlirShapedTypeIsDynamicStrideOrOffset(ld) || ld < TILE ||
      (ld * bytes) % WMMA_LD_BYTES != 0)
    return 0;
  return ld;
}

/* Whether op (a transfer_read of vector<16x16xelem>, or the transfer_write
 * of one when `write`) moves a tile of the last two dimensions of a
 * warp-uniform memref at warp-uniform indices; fills *t. */
static int tile_access(MlirOperation op, int write, MlirType elem, struct tile *t) {
  if (!frontend_op_is(op, write ? "vector.transfer_write" : "vector.transfer_read"))
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
  if (mlirAffineMapGetNumDims(map) != rank || mlirAffineMapGetNumResults(map) != 2 ||
      !mlirAffineMapIsMinorIdentity(map))
    return 0;
  int64_t ld = row_stride(mt, elem);
  if (ld == 0 || !warp_uniform_value(mem))
    return 0;
  intptr_t first = write ? 2 : 1;
  for (intptr_t i = first; i < first + rank; i++)
    if (!warp_uniform_value(mlirOperationGetOperand(op, i)))
      return 0;
  *t = (struct tile){.op = op, .memref = mem, .first_index = first, .rank = rank, .ld = ld, .elem = elem};
  return 1;
}

/* Operand i (A or B) of the contraction: an f16 tile, read as it is or
 * extended to the accumulator's f32. */
static int match_operand(struct match *m, int i, MlirType f16) {
  MlirValue v = mlirOperationGetOperand(m->contract, i);
  m->ext[i] = (MlirOperation){NULL};
  if (mlirValueIsAOpResult(v) && frontend_op_is(mlirOpResultGetOwner(v), "arith.extf")) {
    /* to the accumulator's type only: f16 x f16 products are exact in f32 */
    if (!mlirTypeIsAF32(m->acc) || !mlirTypeEqual(mlirShapedTypeGetElementType(mlirValueGetType(v)), m->acc))
      return 0;
    m->ext[i] = mlirOpResultGetOwner(v);
    v = mlirOperationGetOperand(m->ext[i], 0);
  }
  return mlirValueIsAOpResult(v) && tile_access(mlirOpResultGetOwner(v), 0, f16, &m->t[i]);
}

/* The accumulator: a tile read, or a splat constant. */
static int match_accumulator(struct match *m) {
  MlirValue v = mlirOperationGetOperand(m->contract, 2);
  if (!mlirValueIsAOpResult(v))
    return 0;
  MlirOperation def = mlirOpResultGetOwner(v);
  m->t[C].op = (MlirOperation){NULL};
  if (frontend_op_is(def, "arith.constant")) {
    MlirAttribute value = mlirOperationGetAttributeByName(def, ref("value"));
    if (mlirAttributeIsNull(value) || !mlirAttributeIsADenseElements(value) ||
        !mlirDenseElementsAttrIsSplat(value))
      return 0;
    m->splat = mlirDenseElementsAttrGetSplatValue(value);
    return 1;
  }
  return tile_access(def, 0, m->acc, &m->t[C]);
}

/* Whether op leaves memory as it is (it may read it): what may stand
 * between the tiles' reads and the write, where the wmma loads happen. */
static int writes_nothing(MlirOperation op) {
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
  if (frontend_ref_starts(name, "arith.") || frontend_ref_starts(name, "math.") ||
      frontend_ref_starts(name, "index.") || frontend_ref_starts(name, "llvm.mlir.") ||
      frontend_ref_is(name, "llvm.insertvalue") || frontend_ref_is(name, "llvm.extractvalue"))
    return 1;
  if (frontend_ref_starts(name, "vector.")) {
    for (size_t i = 0; writers[i]; i++)
      if (frontend_ref_is(name, writers[i]))
        return 0;
    return 1;
  }
  for (size_t i = 0; readers[i]; i++)
    if (frontend_ref_is(name, readers[i]))
      return 1;
  return 0;
}

/* The ops of the match in its block (the write last), *n of them. */
static void match_ops(const struct match *m, MlirOperation *ops, size_t *n) {
  size_t k = 0;
  for (int i = A; i <= C; i++)
    if (!mlirOperationIsNull(m->t[i].op))
      ops[k++] = m->t[i].op;
  for (int i = 0; i < 2; i++)
    if (!mlirOperationIsNull(m->ext[i]))
      ops[k++] = m->ext[i];
  ops[k++] = m->contract;
  ops[k++] = m->t[D].op;
  /* in block order (a handful: insertion sort) */
  for (size_t i = 1; i < k; i++)
    for (size_t j = i; j > 0 && mlirOperationIsBeforeInBlock(ops[j], ops[j - 1]); j--) {
      MlirOperation x = ops[j];
      ops[j] = ops[j - 1];
      ops[j - 1] = x;
    }
  *n = k;
}

/* All of the match in one block, and no memory written from its first op
 * to the write. */
static int one_quiet_block(const struct match *m) {
  MlirOperation ops[7];
  size_t n;
  MlirBlock block = mlirOperationGetBlock(m->contract);
  for (int i = A; i <= D; i++)
    if (!mlirOperationIsNull(m->t[i].op) && !mlirBlockEqual(mlirOperationGetBlock(m->t[i].op), block))
      return 0;
  for (int i = 0; i < 2; i++)
    if (!mlirOperationIsNull(m->ext[i]) && !mlirBlockEqual(mlirOperationGetBlock(m->ext[i]), block))
      return 0;
  match_ops(m, ops, &n);
  if (!mlirOperationEqual(ops[n - 1], m->t[D].op))
    return 0;
  for (MlirOperation op = ops[0]; !mlirOperationEqual(op, m->t[D].op); op = mlirOperationGetNextInBlock(op))
    if (!writes_nothing(op))
      return 0;
  return 1;
}

static int match_contract(MlirOperation op, struct match *m) {
  MlirContext ctx = mlirOperationGetContext(op);
  MlirType f16 = mlirF16TypeGet(ctx);
  memset(m, 0, sizeof *m);
  m->contract = op;
  if (mlirOperationGetNumOperands(op) != 3 || mlirOperationGetNumResults(op) != 1 ||
      !attr_text_is(op, "kind", "#vector.kind<add>") ||
      !attr_text_is(op, "indexing_maps",
                    "[affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, "
                    "affine_map<(d0, d1, d2) -> (d0, d1)>]") ||
      !attr_text_is(op, "iterator_types",
                    "[#vector.iterator_type<parallel>, #vector.iterator_type<parallel>, "
                    "#vector.iterator_type<reduction>]"))
    return 0;
  MlirValue r = mlirOperationGetResult(op, 0);
  MlirType rt = mlirValueGetType(r);
  if (!mlirTypeIsAVector(rt))
    return 0;
  m->acc = mlirShapedTypeGetElementType(rt);
  if (!mlirTypeIsAF16(m->acc) && !mlirTypeIsAF32(m->acc))
    return 0;
  /* the result: one use, the value a transfer_write stores */
  MlirOpOperand use = mlirValueGetFirstUse(r);
  if (mlirOpOperandIsNull(use) || !mlirOpOperandIsNull(mlirOpOperandGetNextUse(use)) ||
      mlirOpOperandGetOperandNumber(use) != 0)
    return 0;
  if (!match_operand(m, A, f16) || !match_operand(m, B, f16) || !match_accumulator(m) ||
      !tile_access(mlirOpOperandGetOwner(use), 1, m->acc, &m->t[D]))
    return 0;
  m->kernel = warp_uniform_kernel_of(op);
  return !mlirOperationIsNull(m->kernel) && one_quiet_block(m);
}

/* Whether the kernel's known_block_size makes every warp whole. */
static int blocks_fill_warps(MlirOperation kernel) {
  int64_t threads = frontend_known_block_threads(kernel);
  return threads > 0 && threads % WARP == 0;
}

static MlirValue index_const(MlirOperation at, int64_t v) {
  MlirContext ctx = mlirOperationGetContext(at);
  MlirType index = mlirIndexTypeGet(ctx);
  MlirNamedAttribute value = named(ctx, "value", mlirIntegerAttrGet(index, v));
  return frontend_op_before(at, "arith.constant", 0, NULL, index, 1, &value);
}

static MlirValue binary(MlirOperation at, const char *name, MlirValue a, MlirValue b) {
  MlirValue ops[2] = {a, b};
  return frontend_op_before(at, name, 2, ops, mlirValueGetType(a), 0, NULL);
}

static MlirValue cmp_eq(MlirOperation at, MlirValue a, MlirValue b) {
  MlirContext ctx = mlirOperationGetContext(at);
  MlirValue ops[2] = {a, b};
  MlirNamedAttribute eq = named(ctx, "predicate", mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), 0));
  return frontend_op_before(at, "arith.cmpi", 2, ops, mlirIntegerTypeGet(ctx, 1), 1, &eq);
}

/* i1, before at: the tile's first element is on WMMA_ALIGN bytes (the
 * aligned pointer, plus the offset and indices times strides, from the
 * memref's metadata: views may have a dynamic offset). */
static MlirValue tile_aligned(MlirOperation at, const struct tile *t) {
  MlirContext ctx = mlirOperationGetContext(at);
  MlirType index = mlirIndexTypeGet(ctx), mt = mlirValueGetType(t->memref);
  intptr_t rank = t->rank;
  MlirType results[1 + 1 + 2 * 16];
  results[0] = mlirMemRefTypeGet(t->elem, 0, NULL, mlirAttributeGetNull(), mlirMemRefTypeGetMemorySpace(mt));
  for (intptr_t i = 1; i < 2 + 2 * rank; i++)
    results[i] = index;
  MlirOperationState st = mlirOperationStateGet(ref("memref.extract_strided_metadata"), mlirOperationGetLocation(at));
  mlirOperationStateAddOperands(&st, 1, &t->memref);
  mlirOperationStateAddResults(&st, 2 + 2 * rank, results);
  MlirOperation meta = mlirOperationCreate(&st);
  mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(at), at, meta);
  MlirValue lin = mlirOperationGetResult(meta, 1);
  for (intptr_t d = 0; d < rank; d++) {
    MlirValue idx = mlirOperationGetOperand(t->op, t->first_index + d);
    lin = binary(at, "arith.addi", lin, binary(at, "arith.muli", idx, mlirOperationGetResult(meta, 2 + rank + d)));
  }
  MlirValue ptr = frontend_op_before(at, "memref.extract_aligned_pointer_as_index", 1, &t->memref, index, 0, NULL);
  MlirValue addr = binary(at, "arith.addi", ptr, binary(at, "arith.muli", lin, index_const(at, frontend_element_bytes(t->elem))));
  return cmp_eq(at, binary(at, "arith.remui", addr, index_const(at, WMMA_ALIGN)), index_const(at, 0));
}

static MlirType mma_type(MlirContext ctx, MlirType elem, const char *operand) {
  char e[32], text[96];
  frontend_type_text(elem, e, sizeof e);
  snprintf(text, sizeof text, "!gpu.mma_matrix<%dx%dx%s, \"%s\">", TILE, TILE, e, operand);
  return mlirTypeParseGet(ctx, ref(text));
}

static MlirNamedAttribute lead_dimension(MlirContext ctx, int64_t ld) {
  return named(ctx, "leadDimension", mlirIntegerAttrGet(mlirIndexTypeGet(ctx), ld));
}

static MlirValue load_tile(MlirOperation at, const struct tile *t, const char *operand) {
  MlirContext ctx = mlirOperationGetContext(at);
  MlirValue ops[17];
  ops[0] = t->memref;
  for (intptr_t d = 0; d < t->rank; d++)
    ops[1 + d] = mlirOperationGetOperand(t->op, t->first_index + d);
  MlirNamedAttribute ld = lead_dimension(ctx, t->ld);
  return frontend_op_before(at, "gpu.subgroup_mma_load_matrix", 1 + t->rank, ops,
                            mma_type(ctx, t->elem, operand), 1, &ld);
}

/* The warp's version, before at (the then-branch's yield). */
static void build_wmma(MlirOperation at, const struct match *m) {
  MlirContext ctx = mlirOperationGetContext(at);
  MlirType ctype = mma_type(ctx, m->acc, "COp");
  MlirValue ops[18];
  ops[0] = load_tile(at, &m->t[A], "AOp");
  ops[1] = load_tile(at, &m->t[B], "BOp");
  if (!mlirOperationIsNull(m->t[C].op)) {
    ops[2] = load_tile(at, &m->t[C], "COp");
  } else {
    MlirNamedAttribute value = named(ctx, "value", m->splat);
    MlirValue s = frontend_op_before(at, "arith.constant", 0, NULL, m->acc, 1, &value);
    ops[2] = frontend_op_before(at, "gpu.subgroup_mma_constant_matrix", 1, &s, ctype, 0, NULL);
  }
  MlirValue d = frontend_op_before(at, "gpu.subgroup_mma_compute", 3, ops, ctype, 0, NULL);
  const struct tile *t = &m->t[D];
  ops[0] = d;
  ops[1] = t->memref;
  for (intptr_t i = 0; i < t->rank; i++)
    ops[2 + i] = mlirOperationGetOperand(t->op, t->first_index + i);
  MlirNamedAttribute ld = lead_dimension(ctx, t->ld);
  frontend_op_before(at, "gpu.subgroup_mma_store_matrix", 2 + t->rank, ops, (MlirType){NULL}, 1, &ld);
}

/* Whether every use of op's results is by one of ops[0..n). */
static int used_only_by(MlirOperation op, const MlirOperation *ops, size_t n) {
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

/* The per-thread version: the write and the contraction into the else
 * branch, with the reads and extensions that nothing else uses. */
static void move_per_thread(const struct match *m, MlirOperation else_yield) {
  MlirOperation ops[7], moved[7];
  size_t n, k = 0;
  match_ops(m, ops, &n);
  /* from the write backwards: an op moves when only moved ops use it */
  for (size_t i = n; i-- > 0;)
    if (mlirOperationEqual(ops[i], m->t[D].op) || used_only_by(ops[i], moved, k))
      moved[k++] = ops[i];
  for (size_t i = k; i-- > 0;)
    mlirOperationMoveBefore(moved[i], else_yield);
}

static int rewrite(const struct match *m) {
  MlirOperation at = m->t[D].op;
  MlirValue cond = {NULL};
  for (int i = A; i <= D; i++) {
    if (mlirOperationIsNull(m->t[i].op))
      continue;
    MlirValue ok = tile_aligned(at, &m->t[i]);
    cond = mlirValueIsNull(cond) ? ok : binary(at, "arith.andi", cond, ok);
  }
  if (!blocks_fill_warps(m->kernel)) {
    MlirContext ctx = mlirOperationGetContext(at);
    MlirOperation mask = mlirOperationCreateParse(ctx, ref(ACTIVEMASK), ref("gpucc"));
    if (mlirOperationIsNull(mask))
      return frontend_error_at(at, "internal: cannot build the full-warp check");
    mlirOperationSetLocation(mask, mlirOperationGetLocation(at));
    mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(at), at, mask);
    MlirType i32 = mlirIntegerTypeGet(ctx, 32);
    MlirNamedAttribute all = named(ctx, "value", mlirIntegerAttrGet(i32, -1));
    MlirValue full = cmp_eq(at, mlirOperationGetResult(mask, 0),
                            frontend_op_before(at, "arith.constant", 0, NULL, i32, 1, &all));
    cond = binary(at, "arith.andi", cond, full);
  }
  MlirOperation then_yield, else_yield;
  frontend_if_before(at, cond, (MlirType){NULL}, &then_yield, &else_yield);
  build_wmma(then_yield, m);
  move_per_thread(m, else_yield);
  return 0;
}

int lowering_contract_to_wmma(MlirOperation gpu_module) {
  static const char *const names[] = {"vector.contract", NULL};
  MlirOperation *ops;
  size_t n = frontend_find_ops(gpu_module, names, NULL, &ops);
  int done = 0, rc = 0;
  for (size_t i = 0; i < n; i++) {
    struct match m;
    if (rc == 0 && match_contract(ops[i], &m)) {
      rc = rewrite(&m);
      done++;
    }
  }
  free(ops);
  return rc < 0 ? -1 : done;
}
