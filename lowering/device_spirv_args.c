/* device_spirv_args.c: gpucc's kernels in the form MLIR's SPIR-V
 * conversion takes for buffer device addresses.
 *
 * A kernel reaches the device job with pointer parameters (!llvm.ptr)
 * from which its body rebuilds memrefs (insertvalue, a conversion cast to
 * a 0-d memref, reinterpret_cast with a poison size), workgroup and
 * private attributions, and #gpu.address_space memrefs. None of it
 * converts (docs/notes/spirv-vulkan.md, 2d). Here each pointer parameter
 * becomes a 1-D memref in PhysicalStorageBuffer (Restrict where it was
 * noalias, else Aliased), the reinterpret_casts view it directly,
 * attributions become allocations in Workgroup or Function storage, and
 * every memref of the kernel gets its storage class. Then memref passes
 * leave only 1-D accesses of the buffers (device_spirv_views.c), and the
 * buffers that atomics touch go through the conversion as StorageBuffer
 * (MLIR converts atomics on nothing else; device_spirv_push.c makes them
 * buffer device addresses again). Device functions are inlined first
 * (device_spirv_inline.c). */
#include "device_spirv.h"

#include "diag.h"
#include "ir.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <mlir-c/Pass.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static MlirStringRef str(const char *s) { return mlirStringRefCreateFromCString(s); }

static MlirAttribute parse_attr(MlirContext ctx, const char *text) {
  MlirAttribute a = mlirAttributeParseGet(ctx, str(text));
  if (mlirAttributeIsNull(a))
    BUG("bad attribute text");
  return a;
}


static MlirOperation first_op(MlirBlock b) { return mlirBlockGetFirstOperation(b); }

/* !llvm.ptr, as gpucc passes buffers (the LLVM dialect's C API is not
 * linked). */
static int is_pointer(MlirType t) {
  char text[32];
  ir_type_text(t, text, sizeof text);
  return strcmp(text, "!llvm.ptr") == 0;
}

/* The memory spaces this target's memrefs live in. */
struct spaces {
  MlirAttribute buffer, workgroup, function, gpu_workgroup, gpu_private;
};

static MlirType with_space(MlirType t, MlirAttribute space) {
  intptr_t rank = mlirShapedTypeGetRank(t);
  int64_t shape[16];
  if (rank > 16)
    return t;
  for (intptr_t i = 0; i < rank; i++)
    shape[i] = mlirShapedTypeGetDimSize(t, i);
  return mlirMemRefTypeGet(mlirShapedTypeGetElementType(t), rank, shape, mlirMemRefTypeGetLayout(t),
                           space);
}

/* The storage class of a memref value of op: gpu address spaces map;
 * no space is a buffer, or, below an alloca, the thread's own memory. */
static MlirAttribute space_for(MlirOperation op, MlirType t, const struct spaces *s) {
  MlirAttribute ms = mlirMemRefTypeGetMemorySpace(t);
  if (!mlirAttributeIsNull(ms)) {
    if (mlirAttributeEqual(ms, s->gpu_workgroup))
      return s->workgroup;
    if (mlirAttributeEqual(ms, s->gpu_private))
      return s->function;
    return ms;
  }
  if (ir_op_is(op, "memref.alloca"))
    return s->function;
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); i++) {
    MlirType ot = mlirValueGetType(mlirOperationGetOperand(op, i));
    if (mlirTypeIsAMemRef(ot) && !mlirAttributeIsNull(mlirMemRefTypeGetMemorySpace(ot)))
      return mlirMemRefTypeGetMemorySpace(ot);
  }
  return s->buffer;
}

static MlirWalkResult retype(MlirOperation op, void *ud) {
  const struct spaces *s = ud;
  for (intptr_t i = 0; i < mlirOperationGetNumResults(op); i++) {
    MlirValue v = mlirOperationGetResult(op, i);
    MlirType t = mlirValueGetType(v);
    if (mlirTypeIsAMemRef(t))
      mlirValueSetType(v, with_space(t, space_for(op, t, s)));
  }
  return MlirWalkResultAdvance;
}

/* Attributions become allocations at the kernel's start. */
static void attributions_to_allocs(MlirOperation fn, MlirBlock entry, intptr_t nin,
                                   const struct spaces *s) {
  intptr_t nargs = mlirBlockGetNumArguments(entry);
  MlirOperation start = first_op(entry);
  for (intptr_t i = nin; i < nargs; i++) {
    MlirValue a = mlirBlockGetArgument(entry, i);
    MlirType t = mlirValueGetType(a);
    MlirAttribute space = space_for(start, t, s);
    int wg = mlirAttributeEqual(space, s->workgroup);
    /* Built, not parsed: an alloca verifies only inside a function. */
    MlirContext ctx = mlirOperationGetContext(fn);
    MlirOperationState st = mlirOperationStateGet(str(wg ? "memref.alloc" : "memref.alloca"),
                                                  mlirOperationGetLocation(fn));
    MlirType type = with_space(t, space);
    MlirNamedAttribute seg = mlirNamedAttributeGet(mlirIdentifierGet(ctx, str("operandSegmentSizes")),
                                                   parse_attr(ctx, "array<i32: 0, 0>"));
    mlirOperationStateAddAttributes(&st, 1, &seg);
    mlirOperationStateAddResults(&st, 1, &type);
    MlirOperation alloc = mlirOperationCreate(&st);
    mlirBlockInsertOwnedOperationBefore(entry, start, alloc);
    mlirValueReplaceAllUsesOfWith(a, mlirOperationGetResult(alloc, 0));
  }
  for (intptr_t i = nargs - 1; i >= nin; i--)
    mlirBlockEraseArgument(entry, (unsigned)i);
  MlirContext ctx = mlirOperationGetContext(fn);
  mlirOperationSetAttributeByName(fn, str("workgroup_attributions"),
                                          mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), 0));
  mlirOperationRemoveAttributeByName(fn, str("workgroup_attrib_attrs"));
  mlirOperationRemoveAttributeByName(fn, str("private_attrib_attrs"));
}

/* Erases op and then, while unused, the ops that made its operands. */
static void erase_chain(MlirOperation op) {
  while (!mlirOperationIsNull(op)) {
    MlirOperation next = {NULL};
    for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); i++) {
      MlirValue v = mlirOperationGetOperand(op, i);
      if (mlirValueIsAOpResult(v) && ir_op_is(mlirOpResultGetOwner(v), "llvm.insertvalue"))
        next = mlirOpResultGetOwner(v);
    }
    mlirOperationDestroy(op);
    if (!mlirOperationIsNull(next) && !mlirOpOperandIsNull(mlirValueGetFirstUse(mlirOperationGetResult(next, 0))))
      break;
    op = next;
  }
}

/* The pointer a memref rebuild (insertvalue chain) puts as its aligned
 * pointer (field 1), or a null value. */
static MlirValue rebuilt_pointer(MlirOperation cast) {
  MlirValue v = mlirOperationGetOperand(cast, 0);
  while (mlirValueIsAOpResult(v) && ir_op_is(mlirOpResultGetOwner(v), "llvm.insertvalue")) {
    MlirOperation ins = mlirOpResultGetOwner(v);
    MlirAttribute pos = mlirOperationGetAttributeByName(ins, str("position"));
    if (!mlirAttributeIsNull(pos) && mlirDenseArrayGetNumElements(pos) == 1 &&
        mlirDenseI64ArrayGetElement(pos, 0) == 1)
      return mlirOperationGetOperand(ins, 1);
    v = mlirOperationGetOperand(ins, 0);
  }
  return (MlirValue){NULL};
}

/* Each pointer parameter becomes memref<?xT, PhysicalStorageBuffer>, T the
 * element type its rebuild gives it (i32 when unused), and the memrefs
 * rebuilt from it view it directly. */
static void pointers_to_buffers(MlirOperation fn, MlirBlock entry, intptr_t nin,
                                const struct spaces *s) {
  MlirContext ctx = mlirOperationGetContext(fn);
  MlirOperation *casts;
  size_t n = ir_find_ops(fn, (const char *const[]){"builtin.unrealized_conversion_cast", NULL}, NULL,
                         &casts);
  int64_t dyn = mlirShapedTypeGetDynamicSize();
  for (size_t k = 0; k < n; k++) {
    MlirValue p = rebuilt_pointer(casts[k]);
    MlirType to = mlirValueGetType(mlirOperationGetResult(casts[k], 0));
    if (mlirValueIsNull(p) || !mlirValueIsABlockArgument(p) || !mlirTypeIsAMemRef(to))
      continue;
    MlirType buf = mlirMemRefTypeGet(mlirShapedTypeGetElementType(to), 1, &dyn,
                                     mlirAttributeGetNull(), s->buffer);
    mlirValueSetType(p, buf);
    mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(casts[k], 0), p);
    erase_chain(casts[k]);
  }
  free(casts);
  for (intptr_t i = 0; i < nin; i++) {
    MlirValue a = mlirBlockGetArgument(entry, i);
    if (is_pointer(mlirValueGetType(a)))
      mlirValueSetType(a, mlirMemRefTypeGet(mlirIntegerTypeGet(ctx, 32), 1, &dyn,
                                            mlirAttributeGetNull(), s->buffer));
  }
}

/* What the rebuild leaves that does not convert: alignment promises and
 * poison sizes (the conversion reads neither). */
static void drop_leftovers(MlirOperation fn) {
  MlirOperation *ops;
  size_t n = ir_find_ops(fn, (const char *const[]){"memref.assume_alignment", "ub.poison", NULL},
                         NULL, &ops);
  for (size_t i = 0; i < n; i++) {
    MlirValue r = mlirOperationGetResult(ops[i], 0);
    if (ir_op_is(ops[i], "memref.assume_alignment")) {
      mlirValueReplaceAllUsesOfWith(r, mlirOperationGetOperand(ops[i], 0));
    } else {
      if (!mlirTypeIsAIndex(mlirValueGetType(r)))
        continue;
      MlirOperation c = ir_parse_before(ops[i], "%c = arith.constant 0 : index");
      mlirValueReplaceAllUsesOfWith(r, mlirOperationGetResult(c, 0));
    }
    mlirOperationDestroy(ops[i]);
  }
  free(ops);
}

/* Natural size of one parameter in the push-constant block. */
static int64_t param_bytes(MlirType t) {
  if (mlirTypeIsAMemRef(t) || is_pointer(t) || mlirTypeIsAIndex(t))
    return 8;
  int64_t b = ir_element_bytes(t);
  return b > 0 ? b : 8;
}

/* The parameters' types, the buffers decorated, the ABI attribute. */
static int finish_signature(MlirOperation fn, MlirBlock entry, intptr_t nin) {
  MlirContext ctx = mlirOperationGetContext(fn);
  MlirAttribute old = mlirOperationGetAttributeByName(fn, str("arg_attrs"));
  MlirType *types = calloc((size_t)nin + 1, sizeof *types);
  MlirAttribute *attrs = calloc((size_t)nin + 1, sizeof *attrs);
  if (!types || !attrs)
    BUG("out of memory");
  int64_t offset = 0;
  for (intptr_t i = 0; i < nin; i++) {
    types[i] = mlirValueGetType(mlirBlockGetArgument(entry, i));
    int64_t size = param_bytes(types[i]);
    offset = (offset + size - 1) / size * size + size;
    if (!mlirTypeIsAMemRef(types[i])) {
      attrs[i] = mlirDictionaryAttrGet(ctx, 0, NULL);
      continue;
    }
    int noalias = 0;
    if (!mlirAttributeIsNull(old) && i < mlirArrayAttrGetNumElements(old))
      noalias = !mlirAttributeIsNull(mlirDictionaryAttrGetElementByName(
          mlirArrayAttrGetElement(old, i), str("llvm.noalias")));
    attrs[i] = parse_attr(ctx, noalias ? "{spirv.decoration = #spirv.decoration<Restrict>}"
                                       : "{spirv.decoration = #spirv.decoration<Aliased>}");
  }
  mlirOperationSetAttributeByName(fn, str("function_type"),
                                          mlirTypeAttrGet(mlirFunctionTypeGet(ctx, nin, types, 0, NULL)));
  mlirOperationSetAttributeByName(fn, str("arg_attrs"), mlirArrayAttrGet(ctx, nin, attrs));
  free(types);
  free(attrs);
  char *name = ir_symbol_name(fn);
  int rc = 0;
  if (offset > SPIRV_PUSH_CONSTANT_BYTES)
    rc = ir_error_at(fn, "kernel '%s' has %lld bytes of parameters; the SPIR-V target passes them as "
                         "push constants, at most %d bytes",
                     name, (long long)offset, SPIRV_PUSH_CONSTANT_BYTES);
  free(name);
  return rc;
}

/* A fixed block (known_block_size) is the entry point's LocalSize; else
 * the size comes from specialization constants at each launch. */
static void entry_point_abi(MlirOperation fn) {
  MlirContext ctx = mlirOperationGetContext(fn);
  MlirAttribute known = mlirOperationGetAttributeByName(fn, str("known_block_size"));
  char text[160] = "#spirv.entry_point_abi<>";
  if (!mlirAttributeIsNull(known) && mlirDenseArrayGetNumElements(known) == 3)
    snprintf(text, sizeof text, "#spirv.entry_point_abi<workgroup_size = [%d, %d, %d]>",
             mlirDenseI32ArrayGetElement(known, 0), mlirDenseI32ArrayGetElement(known, 1),
             mlirDenseI32ArrayGetElement(known, 2));
  mlirOperationSetDiscardableAttributeByName(fn, str("spirv.entry_point_abi"), parse_attr(ctx, text));
}

static int adapt_kernel(MlirOperation fn, const struct spaces *s) {
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(fn, 0));
  MlirType fty = mlirTypeAttrGetValue(mlirOperationGetAttributeByName(fn, str("function_type")));
  intptr_t nin = mlirFunctionTypeGetNumInputs(fty);
  attributions_to_allocs(fn, entry, nin, s);
  pointers_to_buffers(fn, entry, nin, s);
  drop_leftovers(fn);
  mlirOperationWalk(fn, retype, (void *)s, MlirWalkPreOrder);
  entry_point_abi(fn);
  return finish_signature(fn, entry, nin);
}

/* The memref passes that leave loads and stores on 1-D views of the
 * buffers (what the conversion takes): N-d accesses linearized, views
 * folded into their accesses, what linalg, affine and complex left as
 * loops and arith, the math ops GLSL.std.450 lacks as others. Structured
 * control flow stays: Vulkan wants it. */
#define PREPARE                                                                                    \
  "convert-linalg-to-loops,lower-affine,convert-complex-to-standard,arith-expand,"                 \
  "math-expand-ops{ops=exp2,tan,sinh,cosh,asinh,acosh,atanh,ctlz,fpowi},flatten-memref,"            \
  "fold-memref-alias-ops,expand-strided-metadata,lower-affine,canonicalize"

static int run_on_module(MlirOperation gpu_module, const char *pipeline) {
  MlirContext ctx = mlirOperationGetContext(gpu_module);
  MlirPassManager pm = mlirPassManagerCreateOnOperation(ctx, str("gpu.module"));
  MlirLogicalResult r = mlirParsePassPipeline(mlirPassManagerGetAsOpPassManager(pm),
                                              str(pipeline), NULL, NULL);
  if (mlirLogicalResultIsSuccess(r))
    r = mlirPassManagerRunOnOp(pm, gpu_module);
  mlirPassManagerDestroy(pm);
  return mlirLogicalResultIsSuccess(r) ? 0 : ir_error_at(gpu_module, "cannot prepare this gpu.module for SPIR-V");
}

static int run_prepare(MlirOperation gpu_module) { return run_on_module(gpu_module, "gpu.module(" PREPARE ")"); }
static int run_canonicalize(MlirOperation gpu_module) {
  return run_on_module(gpu_module, "gpu.module(canonicalize)");
}

/* MLIR converts atomics only on StorageBuffer (or Workgroup) memrefs: a
 * buffer parameter that atomics touch goes through the conversion as
 * StorageBuffer, and device_spirv_push.c makes it the buffer device
 * address it is. Its other uses must be plain loads and stores then. */
static int atomic_buffers(MlirOperation gpu_module) {
  MlirContext ctx = mlirOperationGetContext(gpu_module);
  MlirOperation *generic;
  size_t ng = ir_find_ops(gpu_module, (const char *const[]){"memref.generic_atomic_rmw", NULL}, NULL, &generic);
  int refused = ng ? ir_error_at(generic[0], "cannot lower 'memref.atomic_rmw' for the SPIR-V target: "
                                             "its conversion has no atomic multiplication or generic "
                                             "atomics (integer addi, andi, ori, maxs, mins ... lower)")
                   : 0;
  free(generic);
  if (refused)
    return -1;
  MlirAttribute psb = parse_attr(ctx, "#spirv.storage_class<PhysicalStorageBuffer>");
  MlirAttribute sb = parse_attr(ctx, "#spirv.storage_class<StorageBuffer>");
  MlirAttribute nodeco = mlirDictionaryAttrGet(ctx, 0, NULL);
  MlirOperation *ops;
  size_t n = ir_find_ops(gpu_module, (const char *const[]){"memref.atomic_rmw", NULL}, NULL, &ops);
  int rc = 0;
  for (size_t i = 0; i < n && rc == 0; i++) {
    MlirValue m = mlirOperationGetOperand(ops[i], 1);
    MlirType t = mlirValueGetType(m);
    if (!mlirAttributeEqual(mlirMemRefTypeGetMemorySpace(t), psb))
      continue;
    if (!mlirValueIsABlockArgument(m)) {
      rc = ir_error_at(ops[i], "the SPIR-V target takes atomics on a kernel's buffer parameter or "
                               "a plain view of it, not on this memref");
      break;
    }
    for (MlirOpOperand u = mlirValueGetFirstUse(m); !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u)) {
      MlirOperation user = mlirOpOperandGetOwner(u);
      if (!ir_op_is(user, "memref.load") && !ir_op_is(user, "memref.store") &&
          !ir_op_is(user, "memref.atomic_rmw")) {
        rc = ir_error_at(user, "the SPIR-V target takes only loads, stores and atomics of a buffer "
                               "that atomics touch");
        break;
      }
    }
    if (rc != 0)
      break;
    mlirValueSetType(m, with_space(t, sb));
    /* Its Restrict/Aliased decoration is for PhysicalStorageBuffer only. */
    MlirOperation fn = mlirBlockGetParentOperation(mlirBlockArgumentGetOwner(m));
    MlirAttribute attrs = mlirOperationGetAttributeByName(fn, str("arg_attrs"));
    intptr_t nargs = mlirArrayAttrGetNumElements(attrs), k = mlirBlockArgumentGetArgNumber(m);
    MlirAttribute *list = calloc((size_t)nargs + 1, sizeof *list);
    if (!list)
      BUG("out of memory");
    for (intptr_t a = 0; a < nargs; a++)
      list[a] = a == k ? nodeco : mlirArrayAttrGetElement(attrs, a);
    mlirOperationSetAttributeByName(fn, str("arg_attrs"), mlirArrayAttrGet(ctx, nargs, list));
    free(list);
    MlirType fty = mlirTypeAttrGetValue(mlirOperationGetAttributeByName(fn, str("function_type")));
    MlirType *in = calloc((size_t)nargs + 1, sizeof *in);
    if (!in)
      BUG("out of memory");
    for (intptr_t a = 0; a < mlirFunctionTypeGetNumInputs(fty); a++)
      in[a] = a == k ? mlirValueGetType(m) : mlirFunctionTypeGetInput(fty, a);
    mlirOperationSetAttributeByName(
        fn, str("function_type"),
        mlirTypeAttrGet(mlirFunctionTypeGet(ctx, mlirFunctionTypeGetNumInputs(fty), in, 0, NULL)));
    free(in);
  }
  free(ops);
  return rc;
}

int spirv_adapt_kernels(MlirOperation gpu_module) {
  if (spirv_inline_functions(gpu_module) != 0)
    return -1;
  MlirContext ctx = mlirOperationGetContext(gpu_module);
  struct spaces s = {
      parse_attr(ctx, "#spirv.storage_class<PhysicalStorageBuffer>"),
      parse_attr(ctx, "#spirv.storage_class<Workgroup>"),
      parse_attr(ctx, "#spirv.storage_class<Function>"),
      parse_attr(ctx, "#gpu.address_space<workgroup>"),
      parse_attr(ctx, "#gpu.address_space<private>"),
  };
  int rc = 0;
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(gpu_module, 0));
  for (MlirOperation op = first_op(body); !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    if (ir_is_kernel(op) && adapt_kernel(op, &s) != 0)
      rc = -1;
  if (rc != 0 || run_prepare(gpu_module) != 0)
    return -1;
  spirv_fold_views(gpu_module);
  return run_canonicalize(gpu_module) != 0 || atomic_buffers(gpu_module) != 0 ? -1 : 0;
}
