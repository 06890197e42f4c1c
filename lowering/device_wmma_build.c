/* device_wmma_build.c: the warp's ops of a contraction rewritten to wmma
 * (device_contract_wmma.c): the run-time checks, and the loads, multiply
 * and store.
 *
 * f16 and 8-bit integer tiles are gpu.subgroup_mma ops, which LLVM lowers
 * to wmma. bf16 is not: LLVM 22's !gpu.mma_matrix takes no bf16 element
 * and its nvvm.wmma ops no bf16 fragment, while the NVPTX backend has the
 * wmma intrinsics for it (sm_80 and newer). So a bf16 tile is loaded by
 * llvm.nvvm.wmma.m16n16k16.load.{a,b}.*.bf16 and multiplied by
 * llvm.nvvm.wmma.m16n16k16.mma.*.bf16, in private functions of the
 * gpu.module; the f32 accumulator stays an !gpu.mma_matrix (its fragment is
 * the same for every multiplicand type: wmma.load.c names none), handed to
 * the multiply as the NVVM struct through unrealized casts that the
 * conversion folds, so loads, stores and loops of it are the gpu ops'. */
#include "device_contract_wmma_internal.h"

#include "device_mma.h"
#include "ir.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <stdio.h>
#include <string.h>

#define WARP 32
/* All 32 lanes active, as NVVM reads it (the host target, which never gets
 * this rewrite, reads it too: tests/contract_wmma runs rewritten programs
 * there). */
#define ACTIVEMASK "llvm.call_intrinsic \"llvm.nvvm.activemask\"() : () -> i32"
/* The NVVM structs of bf16 fragments: A and B four i32 (bf16 pairs), the
 * f32 accumulator eight f32. */
#define BF16_AB "!llvm.struct<(i32, i32, i32, i32)>"
#define F32_ACC "!llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>"

static MlirStringRef ref(const char *s) { return mlirStringRefCreateFromCString(s); }

static MlirNamedAttribute named(MlirContext ctx, const char *name, MlirAttribute a) {
  return mlirNamedAttributeGet(mlirIdentifierGet(ctx, ref(name)), a);
}

MlirValue wmma_index_const(MlirOperation at, int64_t v) {
  MlirContext ctx = mlirOperationGetContext(at);
  MlirType index = mlirIndexTypeGet(ctx);
  MlirNamedAttribute value = named(ctx, "value", mlirIntegerAttrGet(index, v));
  return ir_op_before(at, "arith.constant", 0, NULL, index, 1, &value);
}

MlirValue wmma_binary(MlirOperation at, const char *name, MlirValue a, MlirValue b) {
  MlirValue ops[2] = {a, b};
  return ir_op_before(at, name, 2, ops, mlirValueGetType(a), 0, NULL);
}

static MlirValue cmp_eq(MlirOperation at, MlirValue a, MlirValue b) {
  MlirContext ctx = mlirOperationGetContext(at);
  MlirValue ops[2] = {a, b};
  MlirNamedAttribute eq = named(ctx, "predicate", mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), 0));
  return ir_op_before(at, "arith.cmpi", 2, ops, mlirIntegerTypeGet(ctx, 1), 1, &eq);
}

MlirValue wmma_and(MlirOperation at, MlirValue cond, MlirValue more) {
  if (mlirValueIsNull(more))
    return cond;
  return mlirValueIsNull(cond) ? more : wmma_binary(at, "arith.andi", cond, more);
}

static MlirValue tile_index(const struct tile *t, const MlirValue *index, intptr_t d) {
  return index ? index[d] : mlirOperationGetOperand(t->op, t->first_index + d);
}

/* The address (index) of the tile's first element, before at: the aligned
 * pointer, plus the offset and indices times strides, from the memref's
 * metadata (views may have a dynamic offset). */
static MlirValue tile_address(MlirOperation at, const struct tile *t, const MlirValue *index) {
  MlirContext ctx = mlirOperationGetContext(at);
  MlirType idx = mlirIndexTypeGet(ctx), mt = mlirValueGetType(t->memref);
  intptr_t rank = t->rank;
  MlirType results[1 + 1 + 2 * 16];
  results[0] = mlirMemRefTypeGet(t->elem, 0, NULL, mlirAttributeGetNull(), mlirMemRefTypeGetMemorySpace(mt));
  for (intptr_t i = 1; i < 2 + 2 * rank; i++)
    results[i] = idx;
  MlirOperationState st = mlirOperationStateGet(ref("memref.extract_strided_metadata"), mlirOperationGetLocation(at));
  mlirOperationStateAddOperands(&st, 1, &t->memref);
  mlirOperationStateAddResults(&st, 2 + 2 * rank, results);
  MlirOperation meta = mlirOperationCreate(&st);
  mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(at), at, meta);
  MlirValue lin = mlirOperationGetResult(meta, 1);
  for (intptr_t d = 0; d < rank; d++) {
    MlirValue stride = mlirOperationGetResult(meta, 2 + rank + d);
    lin = wmma_binary(at, "arith.addi", lin, wmma_binary(at, "arith.muli", tile_index(t, index, d), stride));
  }
  MlirValue ptr = ir_op_before(at, "memref.extract_aligned_pointer_as_index", 1, &t->memref, idx, 0, NULL);
  MlirValue bytes = wmma_index_const(at, ir_element_bytes(t->elem));
  return wmma_binary(at, "arith.addi", ptr, wmma_binary(at, "arith.muli", lin, bytes));
}

MlirValue wmma_multiple_of(MlirOperation at, MlirValue v, int64_t n) {
  return cmp_eq(at, wmma_binary(at, "arith.remui", v, wmma_index_const(at, n)), wmma_index_const(at, 0));
}

MlirValue wmma_tile_aligned(MlirOperation at, const struct tile *t, const MlirValue *index) {
  return wmma_multiple_of(at, tile_address(at, t, index), WMMA_ALIGN);
}

/* Whether the kernel's known_block_size makes every warp whole. */
static int blocks_fill_warps(MlirOperation kernel) {
  int64_t threads = ir_known_block_threads(kernel);
  return threads > 0 && threads % WARP == 0;
}

MlirValue wmma_whole_warp(MlirOperation at, MlirOperation kernel) {
  if (blocks_fill_warps(kernel))
    return (MlirValue){NULL};
  MlirContext ctx = mlirOperationGetContext(at);
  MlirOperation mask = mlirOperationCreateParse(ctx, ref(ACTIVEMASK), ref("gpucc"));
  if (mlirOperationIsNull(mask))
    return (MlirValue){NULL};
  mlirOperationSetLocation(mask, mlirOperationGetLocation(at));
  mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(at), at, mask);
  MlirType i32 = mlirIntegerTypeGet(ctx, 32);
  MlirNamedAttribute all = named(ctx, "value", mlirIntegerAttrGet(i32, -1));
  return cmp_eq(at, mlirOperationGetResult(mask, 0), ir_op_before(at, "arith.constant", 0, NULL, i32, 1, &all));
}

/* The fragment's element type as !gpu.mma_matrix spells it. */
static MlirType mma_type(MlirContext ctx, const char *elem, const char *operand) {
  char text[96];
  snprintf(text, sizeof text, "!gpu.mma_matrix<%dx%dx%s, \"%s\">", WMMA_TILE, WMMA_TILE, elem, operand);
  return mlirTypeParseGet(ctx, ref(text));
}

MlirType wmma_acc_type(const struct match *m) {
  char e[32];
  ir_type_text(m->acc, e, sizeof e);
  return mma_type(mlirTypeGetContext(m->acc), e, "COp");
}

static MlirNamedAttribute lead_dimension(MlirContext ctx, int64_t ld) {
  return named(ctx, "leadDimension", mlirIntegerAttrGet(mlirIndexTypeGet(ctx), ld));
}

static MlirNamedAttribute unit(MlirContext ctx, const char *name) {
  return named(ctx, name, mlirUnitAttrGet(ctx));
}

/* gpu.subgroup_mma_load_matrix of tile t as a fragment of `elem`. */
static MlirValue load_tile(MlirOperation at, const struct tile *t, const char *elem, const char *operand) {
  MlirContext ctx = mlirOperationGetContext(at);
  MlirValue ops[17];
  ops[0] = t->memref;
  for (intptr_t d = 0; d < t->rank; d++)
    ops[1 + d] = tile_index(t, NULL, d);
  MlirNamedAttribute attrs[2] = {lead_dimension(ctx, t->ld), unit(ctx, "transpose")};
  return ir_op_before(at, "gpu.subgroup_mma_load_matrix", 1 + t->rank, ops, mma_type(ctx, elem, operand),
                            t->transpose ? 2 : 1, attrs);
}

MlirValue wmma_load_acc(MlirOperation at, const struct match *m, const struct tile *c) {
  MlirContext ctx = mlirOperationGetContext(at);
  char e[32];
  ir_type_text(m->acc, e, sizeof e);
  if (c && !mlirOperationIsNull(c->op))
    return load_tile(at, c, e, "COp");
  MlirValue s = m->fill;
  if (mlirValueIsNull(s)) {
    MlirNamedAttribute value = named(ctx, "value", m->splat);
    s = ir_op_before(at, "arith.constant", 0, NULL, m->acc, 1, &value);
  }
  return ir_op_before(at, "gpu.subgroup_mma_constant_matrix", 1, &s, wmma_acc_type(m), 0, NULL);
}

static MlirOperation gpu_module_of(MlirOperation op) {
  while (!mlirOperationIsNull(op) && !ir_op_is(op, "gpu.module"))
    op = mlirOperationGetParentOperation(op);
  return op;
}

static int is_kernel_entry_arg(MlirValue v) {
  if (!mlirValueIsABlockArgument(v))
    return 0;
  MlirBlock block = mlirBlockArgumentGetOwner(v);
  MlirOperation fn = mlirBlockGetParentOperation(block);
  return ir_is_kernel(fn) && mlirBlockEqual(mlirRegionGetFirstBlock(mlirOperationGetRegion(fn, 0)), block);
}

/* The value inserted at position 1 (a memref descriptor's aligned
 * pointer) into the LLVM struct agg, or a null value. */
static MlirValue aligned_pointer(MlirValue agg) {
  for (int i = 0; i < 16 && mlirValueIsAOpResult(agg); i++) {
    MlirOperation def = mlirOpResultGetOwner(agg);
    if (!ir_op_is(def, "llvm.insertvalue"))
      break;
    MlirAttribute p = mlirOperationGetAttributeByName(def, ref("position"));
    if (!mlirAttributeIsNull(p) && mlirDenseArrayGetNumElements(p) == 1 && mlirDenseI64ArrayGetElement(p, 0) == 1)
      return mlirOperationGetOperand(def, 1);
    agg = mlirOperationGetOperand(def, 0);
  }
  return (MlirValue){NULL};
}

/* Whether memref m (in the default space) views a kernel parameter: one
 * as written, or rebuilt from its pointer as the kernel ABI does
 * (frontend/kernel_abi.c), through views. Kernel parameters address
 * global memory, as CUDA defines them. */
static int views_kernel_param(MlirValue m) {
  static const char *const views[] = {"memref.reinterpret_cast", "memref.cast", "memref.subview",
                                      "memref.assume_alignment", "memref.expand_shape",
                                      "memref.collapse_shape", NULL};
  for (int i = 0; i < 16; i++) {
    if (is_kernel_entry_arg(m))
      return 1;
    if (!mlirValueIsAOpResult(m))
      return 0;
    MlirOperation def = mlirOpResultGetOwner(m);
    if (ir_op_is(def, "builtin.unrealized_conversion_cast")) {
      MlirValue p = aligned_pointer(mlirOperationGetOperand(def, 0));
      return !mlirValueIsNull(p) && is_kernel_entry_arg(p);
    }
    size_t k = 0;
    while (views[k] && !ir_op_is(def, views[k]))
      k++;
    if (!views[k])
      return 0;
    m = mlirOperationGetOperand(def, 0);
  }
  return 0;
}

/* The LLVM address space of the memref's memory for the intrinsics; -1:
 * generic, of global memory (a kernel parameter), which the load may
 * address as global. */
static int address_space(const struct tile *t) {
  MlirAttribute s = mlirMemRefTypeGetMemorySpace(mlirValueGetType(t->memref));
  if (!mlirAttributeIsNull(s)) {
    if (mlirAttributeIsAInteger(s))
      return (int)mlirIntegerAttrGetValueInt(s);
    char text[128];
    ir_attr_text(s, text, sizeof text);
    return strstr(text, "workgroup") ? 3 : 1;
  }
  return views_kernel_param(t->memref) ? -1 : 0;
}

/* A bf16 A or B tile as the NVVM struct, through a private function of
 * the gpu.module taking the tile's address and row stride. */
static MlirValue bf16_load(MlirOperation at, const struct tile *t, char frag) {
  MlirContext ctx = mlirOperationGetContext(at);
  int as = address_space(t);
  int cast_global = as == -1;
  if (cast_global)
    as = 1;
  char ptr[32], to_ptr[160], body[1024], name[64];
  snprintf(ptr, sizeof ptr, as ? "!llvm.ptr<%d>" : "!llvm.ptr", as);
  if (cast_global)
    snprintf(to_ptr, sizeof to_ptr, "%s",
             "  %p0 = llvm.inttoptr %i : i64 to !llvm.ptr\n"
             "  %p = llvm.addrspacecast %p0 : !llvm.ptr to !llvm.ptr<1>\n");
  else
    snprintf(to_ptr, sizeof to_ptr, "  %%p = llvm.inttoptr %%i : i64 to %s\n", ptr);
  snprintf(body, sizeof body,
           "func.func private @NAME(%%addr: index, %%ld: i32) -> " BF16_AB " {\n"
           "  %%i = arith.index_cast %%addr : index to i64\n"
           "%s"
           "  %%r = llvm.call_intrinsic \"llvm.nvvm.wmma.m16n16k16.load.%c.%s.stride.bf16.p%d\"(%%p, %%ld)"
           " : (%s, i32) -> " BF16_AB "\n"
           "  return %%r : " BF16_AB "\n}\n",
           to_ptr, frag, t->transpose ? "col" : "row", as, ptr);
  if (mma_add_function(gpu_module_of(at), body, name, sizeof name) != 0)
    return (MlirValue){NULL};
  MlirType i32 = mlirIntegerTypeGet(ctx, 32);
  MlirNamedAttribute ldv = named(ctx, "value", mlirIntegerAttrGet(i32, t->ld));
  MlirValue args[2] = {tile_address(at, t, NULL), ir_op_before(at, "arith.constant", 0, NULL, i32, 1, &ldv)};
  MlirType rt = mlirTypeParseGet(ctx, ref(BF16_AB));
  return mlirOperationGetResult(ir_call_before(at, name, 2, args, 1, &rt), 0);
}

/* A x B + acc for bf16: the NVVM structs to LLVM's mma intrinsic. */
static MlirValue bf16_multiply(MlirOperation at, const struct match *m, const struct tile *a, const struct tile *b,
                               MlirValue acc) {
  MlirContext ctx = mlirOperationGetContext(at);
  char body[4096], name[64];
  size_t k = (size_t)snprintf(body, sizeof body,
                              "func.func private @NAME(%%a: " BF16_AB ", %%b: " BF16_AB ", %%c: " F32_ACC
                              ") -> " F32_ACC " {\n");
  for (int i = 0; i < 4; i++)
    k += (size_t)snprintf(body + k, sizeof body - k,
                          "  %%a%d = llvm.extractvalue %%a[%d] : " BF16_AB "\n"
                          "  %%b%d = llvm.extractvalue %%b[%d] : " BF16_AB "\n",
                          i, i, i, i);
  for (int i = 0; i < 8; i++)
    k += (size_t)snprintf(body + k, sizeof body - k, "  %%c%d = llvm.extractvalue %%c[%d] : " F32_ACC "\n", i, i);
  k += (size_t)snprintf(body + k, sizeof body - k,
                        "  %%d = llvm.call_intrinsic \"llvm.nvvm.wmma.m16n16k16.mma.%s.%s.bf16\"(%%a0, %%a1, %%a2, "
                        "%%a3, %%b0, %%b1, %%b2, %%b3, %%c0, %%c1, %%c2, %%c3, %%c4, %%c5, %%c6, %%c7) : (i32, i32, "
                        "i32, i32, i32, i32, i32, i32, f32, f32, f32, f32, f32, f32, f32, f32) -> " F32_ACC "\n"
                        "  return %%d : " F32_ACC "\n}\n",
                        a->transpose ? "col" : "row", b->transpose ? "col" : "row");
  if (k >= sizeof body || mma_add_function(gpu_module_of(at), body, name, sizeof name) != 0)
    return (MlirValue){NULL};
  MlirType s = mlirTypeParseGet(ctx, ref(F32_ACC));
  MlirValue args[3] = {bf16_load(at, a, 'a'), bf16_load(at, b, 'b'), {NULL}};
  if (mlirValueIsNull(args[0]) || mlirValueIsNull(args[1]))
    return (MlirValue){NULL};
  args[2] = ir_op_before(at, "builtin.unrealized_conversion_cast", 1, &acc, s, 0, NULL);
  MlirValue d = mlirOperationGetResult(ir_call_before(at, name, 3, args, 1, &s), 0);
  return ir_op_before(at, "builtin.unrealized_conversion_cast", 1, &d, wmma_acc_type(m), 0, NULL);
}

MlirValue wmma_multiply(MlirOperation at, const struct match *m, const struct tile *a, const struct tile *b,
                        MlirValue acc) {
  static const char *const elems[] = {[WMMA_F16] = "f16", [WMMA_S8] = "si8", [WMMA_U8] = "ui8"};
  if (m->operands == WMMA_BF16)
    return bf16_multiply(at, m, a, b, acc);
  MlirContext ctx = mlirOperationGetContext(at);
  MlirValue ops[3] = {load_tile(at, a, elems[m->operands], "AOp"), load_tile(at, b, elems[m->operands], "BOp"), acc};
  MlirNamedAttribute attrs[2];
  intptr_t n = 0;
  if (a->transpose)
    attrs[n++] = unit(ctx, "a_transpose");
  if (b->transpose)
    attrs[n++] = unit(ctx, "b_transpose");
  return ir_op_before(at, "gpu.subgroup_mma_compute", 3, ops, wmma_acc_type(m), n, attrs);
}

void wmma_store(MlirOperation at, const struct tile *t, MlirValue d) {
  MlirContext ctx = mlirOperationGetContext(at);
  MlirValue ops[18];
  ops[0] = d;
  ops[1] = t->memref;
  for (intptr_t i = 0; i < t->rank; i++)
    ops[2 + i] = tile_index(t, NULL, i);
  MlirNamedAttribute ld = lead_dimension(ctx, t->ld);
  ir_op_before(at, "gpu.subgroup_mma_store_matrix", 2 + t->rank, ops, (MlirType){NULL}, 1, &ld);
}
