/* kernel_abi.c: what a kernel receives for each memref argument.
 *
 * LLVM 22's GPU lowering passes a memref kernel argument as its whole
 * descriptor (allocated and aligned pointers, offset, sizes, strides: 5
 * parameters for 1-D, 7 for 2-D) and drops llvm.noalias on it ("Cannot
 * copy noalias with non-bare pointers"), so NVIDIA never gets
 * ld.global.nc. Its bare-pointer convention would need static shapes in
 * every function of the gpu.module, the device functions and the helpers
 * the device rewrites add included. So the kernels are rewritten here,
 * once, before the program is split into host and device code, and the
 * launches with them: both sides agree by construction, and the device and
 * host lowerings keep their default convention.
 *
 * A memref argument of a kernel (ranked, strided layout, generic or global
 * memory) becomes
 *   - one pointer, `!llvm.ptr<as>`: the aligned pointer, with the
 *     argument's attributes (llvm.noalias reaches the PTX);
 *   - one index per part of the layout its type leaves dynamic: the offset,
 *     each dynamic size, each dynamic stride unless the layout is the
 *     identity, whose strides follow from the sizes.
 * The kernel rebuilds the memref it had from them (the pointer as the
 * descriptor of a 0-d memref, then memref.reinterpret_cast); every
 * gpu.launch_func passes them (memref.extract_aligned_pointer_as_index,
 * memref.extract_strided_metadata). Then
 *   - the parameters the kernel does not read go, from the kernel and every
 *     launch: those without a use, and the sizes of a memref that only ops
 *     which never read sizes use (loads, stores, atomics, views of it);
 *   - a memref argument to which every launch passes a buffer of its own
 *     (a gpu.alloc or memref.alloc no other memref argument of that launch
 *     comes from, through views) gets llvm.noalias.
 * Memrefs in other memory (workgroup, private: not a host's to pass),
 * unranked ones and those with a non-strided layout keep the descriptor.
 * The runtime ABI does not change: mgpuLaunchKernel gets fewer parameters.
 *
 * Requires: outlined kernels (gpu.func in gpu.modules, gpu.launch_func). */
#include "frontend.h"

#include "diag.h"

#include <mlir-c/AffineMap.h>
#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static MlirStringRef ref(const char *s) { return mlirStringRefCreateFromCString(s); }

static void *xcalloc(size_t n, size_t size) {
  void *p = calloc(n ? n : 1, size);
  if (!p)
    BUG("out of memory");
  return p;
}

/* --- which memrefs, and what they become -------------------------------- */

/* The LLVM address space of a memref's pointers as the GPU lowerings (NVVM,
 * ROCDL) map it, for memory a host can pass: generic (0) or global (1).
 * -1 for the rest. */
static int pointer_space(MlirType t) {
  MlirAttribute s = mlirMemRefTypeGetMemorySpace(t);
  if (mlirAttributeIsNull(s))
    return 0;
  if (mlirAttributeIsAInteger(s)) {
    int64_t v = mlirIntegerAttrGetValueInt(s);
    return v == 0 || v == 1 ? (int)v : -1;
  }
  char text[64];
  ir_attr_text(s, text, sizeof text);
  return strcmp(text, "#gpu.address_space<global>") == 0 ? 1 : -1;
}

/* A memref argument that travels as a pointer and its dynamic parts. */
struct view {
  MlirType type;
  intptr_t rank;
  int space;      /* LLVM address space of the pointer */
  int identity;   /* strides follow from the sizes */
  int64_t offset; /* static, or dynamic */
  int64_t *strides;
};

static int is_dynamic(int64_t v) { return mlirShapedTypeIsDynamicStrideOrOffset(v); }

/* Fills v for type t. Returns 1 when t travels as a pointer, else 0. */
static int view_of(MlirType t, struct view *v) {
  if (!mlirTypeIsAMemRef(t) || (v->space = pointer_space(t)) < 0)
    return 0;
  v->type = t;
  v->rank = mlirShapedTypeGetRank(t);
  v->strides = xcalloc((size_t)v->rank, sizeof *v->strides);
  if (mlirLogicalResultIsFailure(mlirMemRefTypeGetStridesAndOffset(t, v->strides, &v->offset))) {
    free(v->strides);
    return 0;
  }
  MlirAttribute layout = mlirMemRefTypeGetLayout(t);
  v->identity = mlirAttributeIsAAffineMap(layout) && mlirAffineMapIsIdentity(mlirAffineMapAttrGetValue(layout));
  return 1;
}

/* The parameters of a kernel, new and kept: each one part of an argument
 * of the original signature (`source`). */
enum part {
  WHOLE = KERNEL_ARG_WHOLE,
  POINTER = KERNEL_ARG_POINTER,
  OFFSET = KERNEL_ARG_OFFSET,
  SIZE = KERNEL_ARG_SIZE,
  STRIDE = KERNEL_ARG_STRIDE,
};

struct param {
  intptr_t source;
  enum part part;
  intptr_t dim;        /* SIZE, STRIDE */
  MlirType type;
  MlirAttribute attrs; /* a dictionary */
  MlirValue arg;       /* the kernel's block argument */
};

struct params {
  struct param *p;
  size_t len, cap;
};

static void push(struct params *ps, struct param p) {
  if (ps->len == ps->cap) {
    ps->cap = ps->cap ? 2 * ps->cap : 16;
    ps->p = realloc(ps->p, ps->cap * sizeof *ps->p);
    if (!ps->p)
      BUG("out of memory");
  }
  ps->p[ps->len++] = p;
}

/* The parameters one argument becomes, in the order the kernel takes them:
 * pointer, offset, sizes, strides. */
static void push_view(struct params *ps, intptr_t source, const struct view *v, MlirAttribute attrs) {
  MlirContext ctx = mlirTypeGetContext(v->type);
  MlirType index = mlirIndexTypeGet(ctx);
  char ptr[32];
  snprintf(ptr, sizeof ptr, "!llvm.ptr<%d>", v->space);
  push(ps, (struct param){source, POINTER, 0, mlirTypeParseGet(ctx, ref(ptr)), attrs, {NULL}});
  MlirAttribute none = mlirDictionaryAttrGet(ctx, 0, NULL);
  if (is_dynamic(v->offset))
    push(ps, (struct param){source, OFFSET, 0, index, none, {NULL}});
  for (intptr_t d = 0; d < v->rank; d++)
    if (mlirShapedTypeIsDynamicDim(v->type, d))
      push(ps, (struct param){source, SIZE, d, index, none, {NULL}});
  for (intptr_t d = 0; d < v->rank && !v->identity; d++)
    if (is_dynamic(v->strides[d]))
      push(ps, (struct param){source, STRIDE, d, index, none, {NULL}});
}

/* --- building ops ------------------------------------------------------- */

static MlirOperation make(MlirOperation before, MlirLocation loc, const char *name, intptr_t nops,
                          const MlirValue *ops, intptr_t nres, const MlirType *res, intptr_t nattr,
                          const MlirNamedAttribute *attrs) {
  MlirOperationState st = mlirOperationStateGet(ref(name), loc);
  mlirOperationStateAddOperands(&st, nops, ops);
  mlirOperationStateAddResults(&st, nres, res);
  mlirOperationStateAddAttributes(&st, nattr, attrs);
  MlirOperation op = mlirOperationCreate(&st);
  mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(before), before, op);
  return op;
}

static MlirNamedAttribute named(MlirContext ctx, const char *name, MlirAttribute a) {
  return mlirNamedAttributeGet(mlirIdentifierGet(ctx, ref(name)), a);
}

static MlirValue index_constant(MlirOperation before, MlirLocation loc, int64_t v) {
  MlirContext ctx = mlirOperationGetContext(before);
  MlirType index = mlirIndexTypeGet(ctx);
  MlirNamedAttribute value = named(ctx, "value", mlirIntegerAttrGet(index, v));
  return mlirOperationGetResult(make(before, loc, "arith.constant", 0, NULL, 1, &index, 1, &value), 0);
}

static MlirValue multiply(MlirOperation before, MlirLocation loc, MlirValue a, MlirValue b) {
  MlirValue ops[2] = {a, b};
  MlirType index = mlirValueGetType(a);
  return mlirOperationGetResult(make(before, loc, "arith.muli", 2, ops, 1, &index, 0, NULL), 0);
}

/* The 0-d memref of memref type t's element type and memory space. */
static MlirType base_type(MlirType t) {
  return mlirMemRefTypeGet(mlirShapedTypeGetElementType(t), 0, NULL, mlirAttributeGetNull(),
                           mlirMemRefTypeGetMemorySpace(t));
}

/* --- the kernel side ---------------------------------------------------- */

/* The 0-d memref whose descriptor is (ptr, ptr, 0): what the memref lowering
 * makes of it is that struct again, so the cast folds away. */
static MlirValue memref_of_pointer(MlirOperation before, MlirLocation loc, MlirValue ptr,
                                   const struct view *v) {
  MlirContext ctx = mlirOperationGetContext(before);
  char text[96];
  snprintf(text, sizeof text, "!llvm.struct<(ptr<%d>, ptr<%d>, i64)>", v->space, v->space);
  MlirType desc = mlirTypeParseGet(ctx, ref(text));
  MlirType i64 = mlirIntegerTypeGet(ctx, 64);
  MlirNamedAttribute zero_attr = named(ctx, "value", mlirIntegerAttrGet(i64, 0));
  MlirValue zero = mlirOperationGetResult(make(before, loc, "llvm.mlir.constant", 0, NULL, 1, &i64, 1, &zero_attr), 0);
  MlirValue d = mlirOperationGetResult(make(before, loc, "llvm.mlir.poison", 0, NULL, 1, &desc, 0, NULL), 0);
  MlirValue fields[3] = {ptr, ptr, zero};
  for (int64_t i = 0; i < 3; i++) {
    MlirNamedAttribute pos = named(ctx, "position", mlirDenseI64ArrayGet(ctx, 1, &i));
    MlirValue ops[2] = {d, fields[i]};
    d = mlirOperationGetResult(make(before, loc, "llvm.insertvalue", 2, ops, 1, &desc, 1, &pos), 0);
  }
  MlirType base = base_type(v->type);
  return mlirOperationGetResult(make(before, loc, "builtin.unrealized_conversion_cast", 1, &d, 1, &base, 0, NULL), 0);
}

/* The parameters of argument `source` (ps[first..]) as the kernel's memref:
 * memref.reinterpret_cast of the pointer with the static parts of the type
 * and the dynamic ones from the parameters (identity strides computed). */
static MlirOperation rebuild(MlirOperation before, MlirLocation loc, const struct params *ps, size_t first,
                             const struct view *v) {
  MlirContext ctx = mlirOperationGetContext(before);
  intptr_t rank = v->rank;
  int64_t dyn = mlirShapedTypeGetDynamicStrideOrOffset();
  int64_t *sizes = xcalloc((size_t)rank, sizeof *sizes), *strides = xcalloc((size_t)rank, sizeof *strides);
  MlirValue *size_v = xcalloc((size_t)rank, sizeof *size_v), *stride_v = xcalloc((size_t)rank, sizeof *stride_v);
  MlirValue offset_v = {NULL};
  for (size_t i = first; i < ps->len && ps->p[i].source == ps->p[first].source; i++) {
    const struct param *p = &ps->p[i];
    if (p->part == OFFSET)
      offset_v = p->arg;
    else if (p->part == SIZE)
      size_v[p->dim] = p->arg;
    else if (p->part == STRIDE)
      stride_v[p->dim] = p->arg;
  }
  for (intptr_t d = 0; d < rank; d++) {
    sizes[d] = mlirShapedTypeIsDynamicDim(v->type, d) ? mlirShapedTypeGetDynamicSize() : mlirShapedTypeGetDimSize(v->type, d);
    strides[d] = is_dynamic(v->strides[d]) ? dyn : v->strides[d];
  }
  if (v->identity) {
    /* Innermost first: a stride is the product of the sizes after it. */
    MlirValue product = {NULL};
    int64_t static_product = 1;
    for (intptr_t d = rank - 1; d >= 0; d--) {
      if (is_dynamic(v->strides[d]))
        stride_v[d] = mlirValueIsNull(product) ? index_constant(before, loc, static_product)
                      : static_product == 1 ? product
                                            : multiply(before, loc, product, index_constant(before, loc, static_product));
      if (mlirShapedTypeIsDynamicDim(v->type, d))
        product = mlirValueIsNull(product) ? size_v[d] : multiply(before, loc, product, size_v[d]);
      else
        static_product *= sizes[d];
    }
  }
  MlirValue *ops = xcalloc((size_t)(2 + 2 * rank), sizeof *ops);
  intptr_t n = 0, noff = 0, nsizes = 0, nstrides = 0;
  ops[n++] = memref_of_pointer(before, loc, ps->p[first].arg, v);
  if (!mlirValueIsNull(offset_v))
    ops[n++] = offset_v, noff = 1;
  for (intptr_t d = 0; d < rank; d++)
    if (!mlirValueIsNull(size_v[d]))
      ops[n++] = size_v[d], nsizes++;
  for (intptr_t d = 0; d < rank; d++)
    if (!mlirValueIsNull(stride_v[d]))
      ops[n++] = stride_v[d], nstrides++;
  int32_t segments[4] = {1, (int32_t)noff, (int32_t)nsizes, (int32_t)nstrides};
  int64_t offset = is_dynamic(v->offset) ? dyn : v->offset;
  MlirNamedAttribute attrs[4] = {
      named(ctx, "static_offsets", mlirDenseI64ArrayGet(ctx, 1, &offset)),
      named(ctx, "static_sizes", mlirDenseI64ArrayGet(ctx, rank, sizes)),
      named(ctx, "static_strides", mlirDenseI64ArrayGet(ctx, rank, strides)),
      named(ctx, "operandSegmentSizes", mlirDenseI32ArrayGet(ctx, 4, segments)),
  };
  MlirOperation cast = make(before, loc, "memref.reinterpret_cast", n, ops, 1, &v->type, 4, attrs);
  free(ops);
  free(sizes);
  free(strides);
  free(size_v);
  free(stride_v);
  return cast;
}

/* --- what a kernel does not read ------------------------------------------ */

/* Ops that read a memref's pointer, offset and strides but never its sizes,
 * and the operand that is the memref. */
static const struct {
  const char *name;
  intptr_t operand;
} size_blind_uses[] = {
    {"memref.load", 0},     {"memref.store", 1},  {"memref.atomic_rmw", 1}, {"memref.generic_atomic_rmw", 0},
    {"vector.load", 0},     {"vector.store", 1},  {"affine.load", 0},       {"affine.store", 1},
    {"memref.prefetch", 0}, {"memref.reinterpret_cast", 0}, {"memref.extract_aligned_pointer_as_index", 0},
};

/* Whether nothing reads the sizes of memref m: each use is one of the ops
 * above, or a view whose own result is such a memref (a subview's sizes
 * are its operands; a cast passes the sizes on), or metadata whose sizes
 * go unused. Conservative: anything else (memref.dim, calls, copies,
 * reshapes, ...) reads them. */
static int sizes_unread(MlirValue m, int depth) {
  if (depth > 16)
    return 0;
  for (MlirOpOperand u = mlirValueGetFirstUse(m); !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u)) {
    MlirOperation user = mlirOpOperandGetOwner(u);
    intptr_t at = (intptr_t)mlirOpOperandGetOperandNumber(u);
    int ok = 0;
    for (size_t i = 0; i < sizeof size_blind_uses / sizeof size_blind_uses[0] && !ok; i++)
      ok = ir_op_is(user, size_blind_uses[i].name) && at == size_blind_uses[i].operand;
    if (!ok && at == 0 && (ir_op_is(user, "memref.subview") || ir_op_is(user, "memref.cast") ||
                           ir_op_is(user, "memref.assume_alignment")))
      ok = mlirOperationGetNumResults(user) == 1 && sizes_unread(mlirOperationGetResult(user, 0), depth + 1);
    if (!ok && ir_op_is(user, "memref.extract_strided_metadata")) {
      intptr_t rank = (mlirOperationGetNumResults(user) - 2) / 2;
      ok = 1;
      for (intptr_t d = 0; d < rank && ok; d++)
        ok = mlirOpOperandIsNull(mlirValueGetFirstUse(mlirOperationGetResult(user, 2 + d)));
    }
    if (!ok)
      return 0;
  }
  return 1;
}

/* The sizes of a rebuilt memref that nothing reads become poison, so that
 * their parameters lose their only use. */
static void forget_unread_sizes(MlirOperation cast, MlirValue *poison, MlirBlock entry) {
  if (!sizes_unread(mlirOperationGetResult(cast, 0), 0))
    return;
  MlirAttribute seg = mlirOperationGetInherentAttributeByName(cast, ref("operandSegmentSizes"));
  intptr_t first = 1 + mlirDenseI32ArrayGetElement(seg, 1), n = mlirDenseI32ArrayGetElement(seg, 2);
  if (n == 0)
    return;
  if (mlirValueIsNull(*poison)) {
    MlirContext ctx = mlirOperationGetContext(cast);
    MlirType index = mlirIndexTypeGet(ctx);
    MlirNamedAttribute value = named(ctx, "value", mlirAttributeParseGet(ctx, ref("#ub.poison")));
    MlirOperation first = mlirBlockGetFirstOperation(entry); /* before every use */
    *poison = mlirOperationGetResult(make(first, mlirOperationGetLocation(cast), "ub.poison", 0, NULL, 1, &index, 1, &value), 0);
  }
  for (intptr_t i = first; i < first + n; i++)
    mlirOperationSetOperand(cast, i, *poison);
}

static int unused(MlirOperation op) {
  for (intptr_t i = 0; i < mlirOperationGetNumResults(op); i++)
    if (!mlirOpOperandIsNull(mlirValueGetFirstUse(mlirOperationGetResult(op, i))))
      return 0;
  return 1;
}

/* Erases the views of memref m (memref.assume_alignment, casts, subviews,
 * as an earlier rewrite may have put at the top of a kernel) whose results
 * nobody uses, so that an argument only they used has no use left. */
static void erase_unused_views(MlirValue m, int depth) {
  static const char *const views[] = {"memref.assume_alignment", "memref.cast", "memref.subview",
                                      "memref.reinterpret_cast", NULL};
  MlirOpOperand u = mlirValueGetFirstUse(m);
  while (!mlirOpOperandIsNull(u) && depth < 16) {
    MlirOperation user = mlirOpOperandGetOwner(u);
    u = mlirOpOperandGetNextUse(u); /* before user may go */
    int view = 0;
    for (size_t i = 0; views[i] && !view; i++)
      view = ir_op_is(user, views[i]);
    if (!view || mlirOperationGetNumResults(user) != 1)
      continue;
    erase_unused_views(mlirOperationGetResult(user, 0), depth + 1);
    if (unused(user)) {
      /* The next use may be this op's other operand: skip past it. */
      while (!mlirOpOperandIsNull(u) && mlirOperationEqual(mlirOpOperandGetOwner(u), user))
        u = mlirOpOperandGetNextUse(u);
      mlirOperationDestroy(user);
    }
  }
}

/* The number of ops before `end` in block b. */
static size_t ops_before(MlirBlock b, MlirOperation end) {
  size_t n = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(b); !mlirOperationEqual(op, end);
       op = mlirOperationGetNextInBlock(op))
    n++;
  return n;
}

/* Erases those of the first n ops of the entry block (the prologue) whose
 * results nobody uses, last first, so that chains go whole. */
static void erase_dead_prologue(MlirBlock entry, size_t n) {
  MlirOperation *ops = xcalloc(n, sizeof *ops);
  MlirOperation op = mlirBlockGetFirstOperation(entry);
  for (size_t k = 0; k < n; k++, op = mlirOperationGetNextInBlock(op))
    ops[k] = op;
  while (n-- > 0)
    if (unused(ops[n]))
      mlirOperationDestroy(ops[n]);
  free(ops);
}

/* --- distinct buffers ------------------------------------------------------ */

/* The allocation a memref comes from through views, or a null op when it
 * is not a gpu.alloc / memref.alloc seen here. */
static MlirOperation allocation_of(MlirValue m) {
  static const char *const views[] = {"memref.subview", "memref.cast", "memref.reinterpret_cast",
                                      "memref.expand_shape", "memref.collapse_shape", "memref.transpose",
                                      "memref.assume_alignment", "memref.memory_space_cast", NULL};
  for (int depth = 0; depth < 64 && mlirValueIsAOpResult(m); depth++) {
    MlirOperation def = mlirOpResultGetOwner(m);
    if (ir_op_is(def, "gpu.alloc") || ir_op_is(def, "memref.alloc"))
      return def;
    int view = 0;
    for (size_t i = 0; views[i] && !view; i++)
      view = ir_op_is(def, views[i]);
    if (!view)
      break;
    m = mlirOperationGetOperand(def, 0);
  }
  return (MlirOperation){NULL};
}

/* Whether argument `arg` of every launch (kernel operands ops[s][...]) is
 * a buffer of its own: an allocation from which no other memref operand of
 * that launch comes, and every other memref operand's origin known, and no
 * LLVM pointer passed (else it could be anything, this buffer too). */
static int own_buffer(MlirValue *const *ops, size_t nsites, intptr_t nargs, intptr_t arg) {
  if (nsites == 0)
    return 0;
  for (size_t s = 0; s < nsites; s++) {
    MlirOperation mine = allocation_of(ops[s][arg]);
    if (mlirOperationIsNull(mine))
      return 0;
    for (intptr_t j = 0; j < nargs; j++) {
      MlirType t = mlirValueGetType(ops[s][j]);
      char text[16];
      ir_type_text(t, text, sizeof text);
      if (!strncmp(text, "!llvm.ptr", 9)) /* a pointer into anything */
        return 0;
      if (j == arg || !(mlirTypeIsAMemRef(t) || mlirTypeIsAUnrankedMemRef(t)))
        continue;
      MlirOperation other = allocation_of(ops[s][j]);
      if (mlirOperationIsNull(other) || mlirOperationEqual(other, mine))
        return 0;
    }
  }
  return 1;
}

static MlirAttribute with_noalias(MlirAttribute dict) {
  MlirContext ctx = mlirAttributeGetContext(dict);
  if (!mlirAttributeIsNull(mlirDictionaryAttrGetElementByName(dict, ref("llvm.noalias"))))
    return dict;
  intptr_t n = mlirDictionaryAttrGetNumElements(dict);
  MlirNamedAttribute *all = xcalloc((size_t)n + 1, sizeof *all);
  for (intptr_t i = 0; i < n; i++)
    all[i] = mlirDictionaryAttrGetElement(dict, i);
  all[n] = named(ctx, "llvm.noalias", mlirUnitAttrGet(ctx));
  MlirAttribute r = mlirDictionaryAttrGet(ctx, n + 1, all);
  free(all);
  return r;
}

/* --- the launches ----------------------------------------------------------- */

struct site {
  MlirOperation launch;
  MlirValue *old; /* its kernel operands, in the original signature */
  intptr_t count; /* how many */
};

static void set_kernel_operands(MlirOperation launch, intptr_t count, const MlirValue *kernel_ops) {
  MlirContext ctx = mlirOperationGetContext(launch);
  intptr_t start, old;
  ir_launch_operands(launch, &start, &old);
  intptr_t total = mlirOperationGetNumOperands(launch), rest = total - start - old;
  MlirValue *ops = xcalloc((size_t)(start + count + rest), sizeof *ops);
  for (intptr_t i = 0; i < start; i++)
    ops[i] = mlirOperationGetOperand(launch, i);
  for (intptr_t i = 0; i < count; i++)
    ops[start + i] = kernel_ops[i];
  for (intptr_t i = 0; i < rest; i++)
    ops[start + count + i] = mlirOperationGetOperand(launch, start + old + i);
  MlirAttribute seg = mlirOperationGetInherentAttributeByName(launch, ref("operandSegmentSizes"));
  intptr_t n = mlirDenseArrayGetNumElements(seg);
  int32_t *sizes = xcalloc((size_t)n, sizeof *sizes);
  for (intptr_t i = 0; i < n; i++)
    sizes[i] = mlirDenseI32ArrayGetElement(seg, i);
  sizes[n - 2] = (int32_t)count;
  mlirOperationSetOperands(launch, start + count + rest, ops);
  mlirOperationSetInherentAttributeByName(launch, ref("operandSegmentSizes"), mlirDenseI32ArrayGet(ctx, n, sizes));
  free(sizes);
  free(ops);
}

/* What a launch passes for memref m: its aligned pointer as !llvm.ptr, and
 * its dynamic parts from memref.extract_strided_metadata (made once, when
 * some part is wanted). */
struct sent {
  MlirValue ptr;
  MlirOperation meta;
};

static MlirValue send(MlirOperation launch, MlirValue m, const struct param *p, struct sent *s) {
  MlirContext ctx = mlirOperationGetContext(launch);
  MlirLocation loc = mlirOperationGetLocation(launch);
  MlirType index = mlirIndexTypeGet(ctx), i64 = mlirIntegerTypeGet(ctx, 64);
  if (p->part == POINTER) {
    MlirValue v = mlirOperationGetResult(make(launch, loc, "memref.extract_aligned_pointer_as_index", 1, &m, 1, &index, 0, NULL), 0);
    v = mlirOperationGetResult(make(launch, loc, "arith.index_cast", 1, &v, 1, &i64, 0, NULL), 0);
    return mlirOperationGetResult(make(launch, loc, "llvm.inttoptr", 1, &v, 1, &p->type, 0, NULL), 0);
  }
  MlirType t = mlirValueGetType(m);
  intptr_t rank = mlirShapedTypeGetRank(t);
  if (mlirOperationIsNull(s->meta)) {
    MlirType *types = xcalloc((size_t)(2 + 2 * rank), sizeof *types);
    types[0] = base_type(t);
    for (intptr_t i = 1; i < 2 + 2 * rank; i++)
      types[i] = index;
    s->meta = make(launch, loc, "memref.extract_strided_metadata", 1, &m, 2 + 2 * rank, types, 0, NULL);
    free(types);
  }
  intptr_t at = p->part == OFFSET ? 1 : p->part == SIZE ? 2 + p->dim : 2 + rank + p->dim;
  return mlirOperationGetResult(s->meta, at);
}

/* The launch's kernel operands for the new parameters. */
static void relaunch(struct site *site, const struct params *ps, intptr_t nold) {
  MlirValue *ops = xcalloc(ps->len, sizeof *ops);
  struct sent *sent = xcalloc((size_t)nold, sizeof *sent);
  for (size_t i = 0; i < ps->len; i++) {
    const struct param *p = &ps->p[i];
    MlirValue m = site->old[p->source];
    ops[i] = p->part == WHOLE ? m : send(site->launch, m, p, &sent[p->source]);
  }
  set_kernel_operands(site->launch, (intptr_t)ps->len, ops);
  free(sent);
  free(ops);
}

/* --- one kernel ---------------------------------------------------------- */

static MlirAttribute arg_attrs_of(MlirOperation fn, intptr_t i) {
  MlirAttribute all = mlirOperationGetInherentAttributeByName(fn, ref("arg_attrs"));
  if (mlirAttributeIsNull(all) || i >= mlirArrayAttrGetNumElements(all))
    return mlirDictionaryAttrGet(mlirOperationGetContext(fn), 0, NULL);
  return mlirArrayAttrGetElement(all, i);
}

static void set_signature(MlirOperation fn, const struct params *ps) {
  MlirContext ctx = mlirOperationGetContext(fn);
  MlirType *types = xcalloc(ps->len, sizeof *types);
  MlirAttribute *attrs = xcalloc(ps->len, sizeof *attrs);
  for (size_t i = 0; i < ps->len; i++)
    types[i] = ps->p[i].type, attrs[i] = ps->p[i].attrs;
  MlirType ft = mlirFunctionTypeGet(ctx, (intptr_t)ps->len, types, 0, NULL);
  mlirOperationSetInherentAttributeByName(fn, ref("function_type"), mlirTypeAttrGet(ft));
  mlirOperationSetInherentAttributeByName(fn, ref("arg_attrs"), mlirArrayAttrGet(ctx, (intptr_t)ps->len, attrs));
  free(types);
  free(attrs);
}

/* The new parameters of fn, in order, from its original ones: a memref
 * that travels as a pointer its parts, anything else itself. */
static void plan(MlirOperation fn, intptr_t nold, struct view *views, int *is_view,
                 struct site *sites, size_t nsites, struct params *ps) {
  MlirType ft = mlirTypeAttrGetValue(mlirOperationGetInherentAttributeByName(fn, ref("function_type")));
  MlirValue **ops = xcalloc(nsites, sizeof *ops);
  for (size_t s = 0; s < nsites; s++)
    ops[s] = sites[s].old;
  for (intptr_t i = 0; i < nold; i++) {
    MlirType t = mlirFunctionTypeGetInput(ft, i);
    MlirAttribute attrs = arg_attrs_of(fn, i);
    is_view[i] = view_of(t, &views[i]);
    if (!is_view[i]) {
      push(ps, (struct param){i, WHOLE, 0, t, attrs, {NULL}});
      continue;
    }
    if (own_buffer(ops, nsites, nold, i))
      attrs = with_noalias(attrs);
    push_view(ps, i, &views[i], attrs);
  }
  free(ops);
}

/* Drops the parameters whose block argument has no use, from ps and the
 * entry block. */
static void drop_unused(MlirBlock entry, struct params *ps) {
  size_t k = 0;
  for (size_t i = 0; i < ps->len; i++) {
    if (mlirOpOperandIsNull(mlirValueGetFirstUse(ps->p[i].arg))) {
      mlirBlockEraseArgument(entry, (unsigned)k);
      continue;
    }
    ps->p[k++] = ps->p[i];
  }
  ps->len = k;
}

/* Whether fn's parameters change: a memref travels as a pointer, or an
 * argument is never used. */
static int changes(MlirBlock entry, intptr_t nold, const int *is_view) {
  for (intptr_t i = 0; i < nold; i++)
    if (is_view[i] || mlirOpOperandIsNull(mlirValueGetFirstUse(mlirBlockGetArgument(entry, i))))
      return 1;
  return 0;
}

/* Gives fn the parameters ps (planned from its nold arguments) and its
 * launches their operands. */
static void apply(MlirOperation fn, intptr_t nold, const struct view *views, const int *is_view,
                  struct params *ps, struct site *sites, size_t nsites) {
  /* New block arguments after the old ones (and before the attributions),
   * the old ones replaced, then erased. */
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(fn, 0));
  MlirOperation body = mlirBlockGetFirstOperation(entry);
  MlirLocation loc = mlirOperationGetLocation(fn);
  for (size_t i = 0; i < ps->len; i++) {
    MlirValue old = mlirBlockGetArgument(entry, ps->p[i].source);
    ps->p[i].arg = mlirBlockInsertArgument(entry, nold + (intptr_t)i, ps->p[i].type, mlirValueGetLocation(old));
  }
  MlirOperation *casts = xcalloc((size_t)nold, sizeof *casts);
  for (size_t i = 0; i < ps->len; i++) {
    const struct param *p = &ps->p[i];
    MlirValue old = mlirBlockGetArgument(entry, p->source);
    if (p->part == WHOLE) {
      mlirValueReplaceAllUsesOfWith(old, p->arg);
    } else if (p->part == POINTER) {
      casts[p->source] = rebuild(body, loc, ps, i, &views[p->source]);
      mlirValueReplaceAllUsesOfWith(old, mlirOperationGetResult(casts[p->source], 0));
    }
  }
  for (intptr_t i = 0; i < nold; i++)
    mlirBlockEraseArgument(entry, 0);

  /* What the kernel does not read goes. */
  MlirValue poison = {NULL};
  for (intptr_t i = 0; i < nold; i++)
    if (is_view[i])
      forget_unread_sizes(casts[i], &poison, entry);
  size_t prologue = ops_before(entry, body); /* body's first ops may go now */
  for (intptr_t i = 0; i < nold; i++)
    if (is_view[i])
      erase_unused_views(mlirOperationGetResult(casts[i], 0), 0);
  erase_dead_prologue(entry, prologue);
  drop_unused(entry, ps);
  set_signature(fn, ps);
  for (size_t s = 0; s < nsites; s++)
    relaunch(&sites[s], ps, nold);
  free(casts);
}

/* KERNEL_ARGS_ATTR, for the program's own lowered kernel, which takes
 * the arguments as written (carried_code.c): per parameter, the argument
 * it is made of and which part (enum kernel_arg_part). */
static void record_sources(MlirOperation fn, const struct params *ps) {
  int32_t *pairs = xcalloc(2 * ps->len + 1, sizeof *pairs);
  for (size_t i = 0; i < ps->len; i++)
    pairs[2 * i] = (int32_t)ps->p[i].source, pairs[2 * i + 1] = (int32_t)ps->p[i].part;
  MlirContext ctx = mlirOperationGetContext(fn);
  mlirOperationSetDiscardableAttributeByName(fn, ref(KERNEL_ARGS_ATTR),
                                             mlirDenseI32ArrayGet(ctx, (intptr_t)(2 * ps->len), pairs));
  free(pairs);
}

/* record: fn's gpu.module carries the program's own code for it
 * (record_sources). */
static void rewrite_kernel(MlirOperation fn, struct site *sites, size_t nsites, int record) {
  MlirType ft = mlirTypeAttrGetValue(mlirOperationGetInherentAttributeByName(fn, ref("function_type")));
  intptr_t nold = mlirFunctionTypeGetNumInputs(ft);
  struct view *views = xcalloc((size_t)nold, sizeof *views);
  int *is_view = xcalloc((size_t)nold, sizeof *is_view);
  struct params ps = {0};
  plan(fn, nold, views, is_view, sites, nsites, &ps);
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(fn, 0));
  if (changes(entry, nold, is_view))
    apply(fn, nold, views, is_view, &ps, sites, nsites);
  if (record)
    record_sources(fn, &ps);
  for (intptr_t i = 0; i < nold; i++)
    if (is_view[i])
      free(views[i].strides);
  free(views);
  free(is_view);
  free(ps.p);
}

/* --- the program ------------------------------------------------------------- */

static int is_kernel(MlirOperation op) {
  return ir_is_kernel(op) && !mlirRegionIsNull(mlirOperationGetRegion(op, 0)) &&
         !mlirBlockIsNull(mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0)));
}

/* The launches of kernel fn in module `mod`, with their kernel operands. */
static size_t sites_of(MlirOperation mod, MlirOperation fn, const struct ir_launch_index *ix,
                       struct site **out) {
  size_t nlaunches;
  const MlirOperation *launches = ir_launch_index_find(ix, mod, fn, &nlaunches);
  struct site *sites = xcalloc(nlaunches + 1, sizeof *sites);
  size_t n = 0;
  for (size_t i = 0; i < nlaunches; i++) {
    intptr_t start, count;
    ir_launch_operands(launches[i], &start, &count);
    sites[n].launch = launches[i];
    sites[n].count = count;
    sites[n].old = xcalloc((size_t)count + 1, sizeof *sites[n].old);
    for (intptr_t k = 0; k < count; k++)
      sites[n].old[k] = mlirOperationGetOperand(launches[i], start + k);
    n++;
  }
  *out = sites;
  return n;
}

/* MLIR 22's verifier checks a launch's operands against its kernel's
 * parameters only for launches outside loops and other regions: here
 * every launch is, at the launch. Returns 0 or -1 (reported). */
static int check_operands(MlirOperation fn, const struct site *sites, size_t nsites) {
  MlirType ft = mlirTypeAttrGetValue(mlirOperationGetInherentAttributeByName(fn, ref("function_type")));
  intptr_t nparams = mlirFunctionTypeGetNumInputs(ft);
  char *name = ir_symbol_name(fn);
  int rc = 0;
  for (size_t s = 0; s < nsites; s++) {
    const struct site *site = &sites[s];
    if (site->count != nparams) {
      rc = ir_error_at(site->launch, "'gpu.launch_func' passes %ld argument%s, but kernel '%s' takes %ld",
                       (long)site->count, site->count == 1 ? "" : "s", name ? name : "", (long)nparams);
      continue;
    }
    for (intptr_t a = 0; a < nparams; a++) {
      MlirType want = mlirFunctionTypeGetInput(ft, a), got = mlirValueGetType(site->old[a]);
      if (mlirTypeEqual(want, got))
        continue;
      char wt[256], gt[256];
      ir_type_text(want, wt, sizeof wt);
      ir_type_text(got, gt, sizeof gt);
      rc = ir_error_at(site->launch, "'gpu.launch_func' passes '%s' as argument %ld of kernel '%s', "
                                     "which takes '%s'",
                       gt, (long)a, name ? name : "", wt);
      break;
    }
  }
  free(name);
  return rc;
}

int frontend_kernel_abi(MlirModule module) {
  static const char *const launch_names[] = {"gpu.launch_func", NULL};
  MlirOperation *launches, *mods;
  size_t nlaunches = ir_find_ops(mlirModuleGetOperation(module), launch_names, NULL, &launches);
  size_t nmods = ir_gpu_modules(module, &mods);
  struct ir_launch_index *ix = ir_launch_index_new(launches, nlaunches);
  int rc = 0;
  for (size_t m = 0; m < nmods; m++) {
    MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(mods[m], 0));
    int carries = !mlirOperationIsNull(frontend_carried_code(mods[m]));
    for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
         op = mlirOperationGetNextInBlock(op)) {
      if (!is_kernel(op))
        continue;
      struct site *sites;
      size_t nsites = sites_of(mods[m], op, ix, &sites);
      if (check_operands(op, sites, nsites) != 0)
        rc = -1;
      else
        rewrite_kernel(op, sites, nsites, carries);
      for (size_t s = 0; s < nsites; s++)
        free(sites[s].old);
      free(sites);
    }
  }
  ir_launch_index_free(ix);
  free(mods);
  free(launches);
  if (rc != 0)
    return rc;
  if (!mlirOperationVerify(mlirModuleGetOperation(module)))
    return diag_error("internal: the kernels' new parameters do not verify");
  return 0;
}
