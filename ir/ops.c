/* ops.c: small helpers for the rewrites and checks that frontend/ and
 * lowering/ make by hand: comparing names, printing a type or attribute
 * into a buffer (for messages and generated names), and finding operations
 * by name (collected first, so that the caller may replace or erase what it
 * found while nothing walks the IR), and the functions and calls that
 * device rewrites add (a function written as MLIR text, once per module);
 * symbol names and a module's gpu.modules. */
#include "ir.h"

#include "diag.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ir_ref_is(MlirStringRef s, const char *lit) {
  return s.length == strlen(lit) && memcmp(s.data, lit, s.length) == 0;
}

int ir_ref_starts(MlirStringRef s, const char *prefix) {
  size_t n = strlen(prefix);
  return s.length >= n && memcmp(s.data, prefix, n) == 0;
}

int ir_op_is(MlirOperation op, const char *name) {
  return ir_ref_is(mlirIdentifierStr(mlirOperationGetName(op)), name);
}

struct text_sink {
  char *buf;
  size_t size, len;
};

static void append_chunk(MlirStringRef s, void *ud) {
  struct text_sink *t = ud;
  size_t room = t->size - 1 - t->len;
  size_t n = s.length < room ? s.length : room;
  memcpy(t->buf + t->len, s.data, n);
  t->len += n;
  t->buf[t->len] = '\0';
}

void ir_type_text(MlirType t, char *buf, size_t size) {
  struct text_sink sink = {buf, size, 0};
  buf[0] = '\0';
  mlirTypePrint(t, append_chunk, &sink);
}

void ir_attr_text(MlirAttribute a, char *buf, size_t size) {
  struct text_sink sink = {buf, size, 0};
  buf[0] = '\0';
  mlirAttributePrint(a, append_chunk, &sink);
}

struct found_ops {
  const char *const *names;
  int (*keep)(MlirOperation);
  MlirOperation *ops;
  size_t len, cap;
};

static MlirWalkResult visit(MlirOperation op, void *ud) {
  struct found_ops *f = ud;
  int named = 0;
  for (size_t i = 0; f->names[i] && !named; i++)
    named = ir_op_is(op, f->names[i]);
  if (!named || (f->keep && !f->keep(op)))
    return MlirWalkResultAdvance;
  if (f->len == f->cap) {
    f->cap = f->cap ? 2 * f->cap : 16;
    MlirOperation *grown = realloc(f->ops, f->cap * sizeof *grown);
    if (!grown)
      BUG("out of memory");
    f->ops = grown;
  }
  f->ops[f->len++] = op;
  return MlirWalkResultAdvance;
}

size_t ir_find_ops(MlirOperation root, const char *const *names, int (*keep)(MlirOperation),
                         MlirOperation **out) {
  struct found_ops f = {names, keep, NULL, 0, 0};
  mlirOperationWalk(root, visit, &f, MlirWalkPreOrder);
  *out = f.ops;
  return f.len;
}

int ir_add_function(MlirOperation module, const char *name, const char *text) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  MlirStringRef want = mlirStringRefCreateFromCString(name);
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    MlirAttribute sym = mlirOperationGetInherentAttributeByName(op, mlirStringRefCreateFromCString("sym_name"));
    if (!mlirAttributeIsNull(sym) && mlirStringRefEqual(mlirStringAttrGetValue(sym), want))
      return 0;
  }
  MlirOperation fn = mlirOperationCreateParse(mlirOperationGetContext(module),
                                              mlirStringRefCreateFromCString(text),
                                              mlirStringRefCreateFromCString("gpucc-generated"));
  if (mlirOperationIsNull(fn))
    return diag_error("internal: cannot build the function '%s'", name);
  mlirBlockInsertOwnedOperation(body, 0, fn);
  return 0;
}

MlirOperation ir_parse_before(MlirOperation before, const char *text) {
  MlirOperation op = mlirOperationCreateParse(mlirOperationGetContext(before),
                                              mlirStringRefCreateFromCString(text),
                                              mlirStringRefCreateFromCString("gpucc-generated"));
  if (mlirOperationIsNull(op))
    BUG("gpucc made an op text that does not parse");
  mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(before), before, op);
  return op;
}

MlirValue ir_op_before(MlirOperation at, const char *name, intptr_t nops, const MlirValue *ops,
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

MlirOperation ir_if_before(MlirOperation at, MlirValue cond, MlirType result,
                                 MlirOperation *then_yield, MlirOperation *else_yield) {
  MlirLocation loc = mlirOperationGetLocation(at);
  MlirRegion regions[2];
  MlirOperation *yields[2] = {then_yield, else_yield};
  for (int k = 0; k < 2; k++) {
    regions[k] = mlirRegionCreate();
    MlirBlock b = mlirBlockCreate(0, NULL, NULL);
    mlirRegionAppendOwnedBlock(regions[k], b);
    MlirOperationState ys = mlirOperationStateGet(mlirStringRefCreateFromCString("scf.yield"), loc);
    *yields[k] = mlirOperationCreate(&ys);
    mlirBlockAppendOwnedOperation(b, *yields[k]);
  }
  MlirOperationState st = mlirOperationStateGet(mlirStringRefCreateFromCString("scf.if"), loc);
  mlirOperationStateAddOperands(&st, 1, &cond);
  if (!mlirTypeIsNull(result))
    mlirOperationStateAddResults(&st, 1, &result);
  mlirOperationStateAddOwnedRegions(&st, 2, regions);
  MlirOperation op = mlirOperationCreate(&st);
  mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(at), at, op);
  return op;
}

int ir_in_device_code(MlirOperation op) {
  for (MlirOperation p = mlirOperationGetParentOperation(op); !mlirOperationIsNull(p);
       p = mlirOperationGetParentOperation(p))
    if (ir_op_is(p, "gpu.module") || ir_op_is(p, "gpu.launch"))
      return 1;
  return 0;
}

MlirOperation ir_call_before(MlirOperation at, const char *callee, intptr_t nargs,
                                   const MlirValue *args, intptr_t nresults, const MlirType *results) {
  MlirContext ctx = mlirOperationGetContext(at);
  MlirOperationState st = mlirOperationStateGet(mlirStringRefCreateFromCString("func.call"),
                                                mlirOperationGetLocation(at));
  mlirOperationStateAddOperands(&st, nargs, args);
  mlirOperationStateAddResults(&st, nresults, results);
  MlirNamedAttribute attr = mlirNamedAttributeGet(
      mlirIdentifierGet(ctx, mlirStringRefCreateFromCString("callee")),
      mlirFlatSymbolRefAttrGet(ctx, mlirStringRefCreateFromCString(callee)));
  mlirOperationStateAddAttributes(&st, 1, &attr);
  MlirOperation call = mlirOperationCreate(&st);
  mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(at), at, call);
  return call;
}

int ir_launches(MlirOperation launch, MlirOperation module, MlirOperation kernel) {
  MlirAttribute sym =
      mlirOperationGetInherentAttributeByName(launch, mlirStringRefCreateFromCString("kernel"));
  return !mlirAttributeIsNull(sym) && mlirAttributeIsASymbolRef(sym) &&
         mlirSymbolRefAttrGetNumNestedReferences(sym) == 1 &&
         mlirStringRefEqual(mlirSymbolRefAttrGetRootReference(sym), ir_symbol_ref(module)) &&
         mlirStringRefEqual(mlirFlatSymbolRefAttrGetValue(mlirSymbolRefAttrGetNestedReference(sym, 0)),
                            ir_symbol_ref(kernel));
}

/* One launch under its kernel's two names; sorted by them, then by
 * program order. */
struct launch_key {
  MlirStringRef module, kernel;
  size_t order;
  MlirOperation op;
};

struct ir_launch_index {
  struct launch_key *keys;
  MlirOperation *ops; /* in the keys' order */
  size_t n;
};

static int ref_cmp(MlirStringRef a, MlirStringRef b) {
  int c = memcmp(a.data, b.data, a.length < b.length ? a.length : b.length);
  return c ? c : (a.length > b.length) - (a.length < b.length);
}

static int key_cmp(const void *pa, const void *pb) {
  const struct launch_key *a = pa, *b = pb;
  int c = ref_cmp(a->module, b->module);
  if (!c)
    c = ref_cmp(a->kernel, b->kernel);
  return c ? c : (a->order > b->order) - (a->order < b->order);
}

struct ir_launch_index *ir_launch_index_new(const MlirOperation *launches, size_t n) {
  struct ir_launch_index *ix = calloc(1, sizeof *ix);
  if (!ix || !(ix->keys = calloc(n + 1, sizeof *ix->keys)) || !(ix->ops = calloc(n + 1, sizeof *ix->ops)))
    BUG("out of memory");
  for (size_t i = 0; i < n; i++) {
    MlirAttribute sym =
        mlirOperationGetInherentAttributeByName(launches[i], mlirStringRefCreateFromCString("kernel"));
    if (mlirAttributeIsNull(sym) || !mlirAttributeIsASymbolRef(sym) ||
        mlirSymbolRefAttrGetNumNestedReferences(sym) != 1)
      continue; /* launches nothing ir_launches would match */
    struct launch_key *k = &ix->keys[ix->n++];
    k->module = mlirSymbolRefAttrGetRootReference(sym);
    k->kernel = mlirFlatSymbolRefAttrGetValue(mlirSymbolRefAttrGetNestedReference(sym, 0));
    k->order = i;
    k->op = launches[i];
  }
  qsort(ix->keys, ix->n, sizeof *ix->keys, key_cmp);
  for (size_t i = 0; i < ix->n; i++)
    ix->ops[i] = ix->keys[i].op;
  return ix;
}

const MlirOperation *ir_launch_index_find(const struct ir_launch_index *ix,
                                                MlirOperation module, MlirOperation kernel,
                                                size_t *count) {
  struct launch_key want = {ir_symbol_ref(module), ir_symbol_ref(kernel), 0, {NULL}};
  size_t lo = 0, hi = ix->n; /* the first key not below want */
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (key_cmp(&ix->keys[mid], &want) < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  size_t end = lo;
  while (end < ix->n && !ref_cmp(ix->keys[end].module, want.module) &&
         !ref_cmp(ix->keys[end].kernel, want.kernel))
    end++;
  *count = end - lo;
  return end > lo ? &ix->ops[lo] : NULL;
}

void ir_launch_index_free(struct ir_launch_index *ix) {
  if (!ix)
    return;
  free(ix->keys);
  free(ix->ops);
  free(ix);
}

/* gpu.launch_func's operand segments end with the kernel operands and the
 * optional async object. */
void ir_launch_operands(MlirOperation launch, intptr_t *start, intptr_t *count) {
  MlirAttribute seg = mlirOperationGetInherentAttributeByName(
      launch, mlirStringRefCreateFromCString("operandSegmentSizes"));
  intptr_t n = mlirDenseArrayGetNumElements(seg);
  *start = 0;
  for (intptr_t i = 0; i < n - 2; i++)
    *start += mlirDenseI32ArrayGetElement(seg, i);
  *count = mlirDenseI32ArrayGetElement(seg, n - 2);
}

char *ir_string_literal(MlirStringRef s) {
  char *out = malloc(s.length * 3 + 4);
  if (!out)
    return NULL;
  size_t k = 0;
  for (size_t i = 0; i < s.length; i++) {
    unsigned char c = (unsigned char)s.data[i];
    if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\')
      out[k++] = (char)c;
    else
      k += (size_t)sprintf(out + k, "\\%02X", c);
  }
  strcpy(out + k, "\\00");
  return out;
}

MlirOperation ir_find_function(MlirModule module, const char *name) {
  for (MlirOperation op = mlirBlockGetFirstOperation(mlirModuleGetBody(module));
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    if (!ir_op_is(op, "func.func") && !ir_op_is(op, "llvm.func"))
      continue;
    MlirAttribute sym = mlirOperationGetInherentAttributeByName(op, mlirStringRefCreateFromCString("sym_name"));
    if (mlirAttributeIsNull(sym) || !mlirAttributeIsAString(sym) ||
        !ir_ref_is(mlirStringAttrGetValue(sym), name))
      continue;
    if (!mlirBlockIsNull(mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0))))
      return op; /* a body: a definition */
  }
  return (MlirOperation){NULL};
}

int ir_is_kernel(MlirOperation op) {
  return !mlirOperationIsNull(op) && ir_op_is(op, "gpu.func") &&
         !mlirAttributeIsNull(mlirOperationGetDiscardableAttributeByName(op, mlirStringRefCreateFromCString("gpu.kernel")));
}

MlirOperation ir_find_child(MlirOperation parent, const char *op_name, const char *name) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(parent, 0));
  for (MlirOperation op = mlirBlockIsNull(body) ? (MlirOperation){NULL} : mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    if (!ir_op_is(op, op_name))
      continue;
    MlirAttribute sym = mlirOperationGetInherentAttributeByName(op, mlirStringRefCreateFromCString("sym_name"));
    if (!mlirAttributeIsNull(sym) && mlirAttributeIsAString(sym) && ir_ref_is(mlirStringAttrGetValue(sym), name))
      return op;
  }
  return (MlirOperation){NULL};
}

int64_t ir_element_bytes(MlirType t) {
  if (mlirTypeIsAIndex(t))
    return 8;
  if (mlirTypeIsAInteger(t))
    return (mlirIntegerTypeGetWidth(t) + 7) / 8;
  if (mlirTypeIsAFloat(t))
    return (mlirFloatTypeGetWidth(t) + 7) / 8;
  if (mlirTypeIsAComplex(t)) {
    int64_t half = ir_element_bytes(mlirComplexTypeGetElementType(t)), n;
    return __builtin_mul_overflow(half, 2, &n) ? 0 : n;
  }
  if (mlirTypeIsAVector(t) && mlirShapedTypeHasStaticShape(t)) {
    int64_t n = ir_element_bytes(mlirShapedTypeGetElementType(t));
    for (intptr_t d = 0; d < mlirShapedTypeGetRank(t); d++)
      if (__builtin_mul_overflow(n, mlirShapedTypeGetDimSize(t, d), &n))
        return 0;
    return n;
  }
  return 0;
}

int64_t ir_memref_bytes(MlirType t) {
  if (!mlirTypeIsAMemRef(t) || !mlirShapedTypeHasStaticShape(t))
    return 0;
  int64_t n = ir_element_bytes(mlirShapedTypeGetElementType(t));
  for (intptr_t d = 0; d < mlirShapedTypeGetRank(t); d++)
    if (__builtin_mul_overflow(n, mlirShapedTypeGetDimSize(t, d), &n))
      return -1;
  return n;
}

MlirType ir_memref_like(MlirType t, MlirType element, MlirAttribute space) {
  intptr_t rank = mlirShapedTypeGetRank(t);
  int64_t *shape = malloc((size_t)(rank ? rank : 1) * sizeof *shape);
  if (!shape)
    BUG("out of memory");
  for (intptr_t d = 0; d < rank; d++)
    shape[d] = mlirShapedTypeGetDimSize(t, d);
  MlirType m = mlirMemRefTypeGet(mlirTypeIsNull(element) ? mlirShapedTypeGetElementType(t) : element,
                                 rank, shape, mlirMemRefTypeGetLayout(t),
                                 mlirAttributeIsNull(space) ? mlirMemRefTypeGetMemorySpace(t) : space);
  free(shape);
  return m;
}

int64_t ir_known_block_threads(MlirOperation op) {
  MlirOperation f = op;
  while (!mlirOperationIsNull(f) && !ir_op_is(f, "gpu.func"))
    f = mlirOperationGetParentOperation(f);
  if (mlirOperationIsNull(f))
    return 0;
  MlirAttribute known =
      mlirOperationGetInherentAttributeByName(f, mlirStringRefCreateFromCString("known_block_size"));
  if (mlirAttributeIsNull(known) || !mlirAttributeIsADenseI32Array(known) ||
      mlirDenseArrayGetNumElements(known) != 3)
    return 0;
  int64_t threads = 1;
  for (intptr_t i = 0; i < 3; i++)
    threads *= mlirDenseI32ArrayGetElement(known, i);
  return threads > 0 ? threads : 0;
}

size_t ir_gpu_modules(MlirModule module, MlirOperation **ops) {
  size_t n = 0, cap = 0;
  *ops = NULL;
  MlirBlock body = mlirModuleGetBody(module);
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
    if (name.length != 10 || memcmp(name.data, "gpu.module", 10) != 0)
      continue;
    if (n == cap) {
      cap = cap ? cap * 2 : 8;
      MlirOperation *grown = realloc(*ops, cap * sizeof **ops);
      if (!grown)
        BUG("out of memory");
      *ops = grown;
    }
    (*ops)[n++] = op;
  }
  return n;
}

/* Inherent on most ops (gpu.module, func.func), discardable on gpu.func
 * in MLIR 22: mlirOperationGetAttributeByName looks at both. */
MlirStringRef ir_symbol_ref(MlirOperation op) {
  MlirAttribute a = mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("sym_name"));
  if (mlirAttributeIsNull(a) || !mlirAttributeIsAString(a))
    return mlirStringRefCreateFromCString("");
  return mlirStringAttrGetValue(a);
}

char *ir_symbol_name(MlirOperation op) {
  MlirStringRef s = ir_symbol_ref(op);
  char *r = malloc(s.length + 1);
  if (!r)
    BUG("out of memory");
  memcpy(r, s.data, s.length);
  r[s.length] = '\0';
  return r;
}
