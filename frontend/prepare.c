/* prepare.c: what must happen to a program before host and device part.
 *
 * Code written the way MLIR-based compilers emit it is not yet GPU-dialect
 * code: a transform schedule may still have to tile it or map loops onto
 * gpu.launch, linalg and tensor ops may sit in host functions and in launch
 * bodies alike. Those steps change what becomes a kernel, so they run once
 * on the whole module, before outlining:
 *
 *   1. a transform schedule (a transform.named_sequence @__transform_main,
 *      at the top or in a nested module) is applied by the interpreter and
 *      then erased, as `-transform-interpreter` plus erase-schedule do; the
 *      older spelling, a top-level `transform.sequence` without operand (run
 *      by the interpreter upstream removed), becomes that named sequence;
 *   2. tensor code is bufferized (one-shot, across function boundaries, with
 *      identity layouts so that C callers see plain memrefs) and its buffers
 *      freed by the ownership-based deallocation pipeline, except in host
 *      functions that call the GPU, which it cannot handle (dealloc.c);
 *   3. linalg ops become loops, so both host and device pipelines see scf
 *      (before 2: vector.mask and vector.multi_reduction are lowered);
 *   4. when host code has ops of a target kind's dialect (nvgpu's TMA
 *      descriptors), that kind's pipeline lowers them (its row's host_ops,
 *      given by frontend_set_kind_rows): a descriptor crosses into the
 *      kernel as the pointer it lowers to, not as a type that no
 *      conversion of kernel signatures knows. Otherwise the kind's device
 *      pipeline lowers them, and the targets' op checks see their names.
 *
 * Each step runs only when the module has what it works on: a schedule,
 * tensor values, linalg ops, a kind's ops in host code. */
#include "frontend.h"

#include "diag.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <stdlib.h>
#include <string.h>

static MlirStringRef op_name(MlirOperation op) { return mlirIdentifierStr(mlirOperationGetName(op)); }

struct found {
  int schedule, tensors, linalg, vector_composite;
  int host_ops[FRONTEND_MAX_KIND_ROWS]; /* a kind's host ops are in host code */
  MlirOperation legacy; /* a top-level transform.sequence */
};

static int is_tensor(MlirType t) { return mlirTypeIsATensor(t); }

static MlirWalkResult survey(MlirOperation op, void *ud) {
  struct found *f = ud;
  MlirStringRef name = op_name(op);
  if (ir_ref_is(name, "transform.named_sequence")) {
    MlirAttribute sym = mlirOperationGetInherentAttributeByName(op, mlirStringRefCreateFromCString("sym_name"));
    if (!mlirAttributeIsNull(sym) && ir_ref_is(mlirStringAttrGetValue(sym), "__transform_main"))
      f->schedule = 1;
    return MlirWalkResultSkip; /* the schedule's own values are not payload */
  }
  if (ir_ref_is(name, "transform.sequence")) {
    if (mlirOperationGetNumOperands(op) == 0 && mlirOperationIsNull(f->legacy))
      f->legacy = op;
    return MlirWalkResultSkip;
  }
  size_t nrows;
  const struct frontend_kind_row *rows = frontend_kind_rows(&nrows);
  for (size_t i = 0; i < nrows; i++)
    if (!f->host_ops[i] && rows[i].host_ops_prefix && ir_ref_starts(name, rows[i].host_ops_prefix) &&
        !ir_in_device_code(op))
      f->host_ops[i] = 1;
  if (ir_ref_starts(name, "linalg."))
    f->linalg = 1;
  if (ir_ref_is(name, "vector.mask") || ir_ref_is(name, "vector.multi_reduction"))
    f->vector_composite = 1;
  for (intptr_t i = 0, n = mlirOperationGetNumResults(op); i < n && !f->tensors; i++)
    f->tensors = is_tensor(mlirValueGetType(mlirOperationGetResult(op, i)));
  for (intptr_t i = 0, n = mlirOperationGetNumOperands(op); i < n && !f->tensors; i++)
    f->tensors = is_tensor(mlirValueGetType(mlirOperationGetOperand(op, i)));
  if (ir_ref_is(name, "func.func") && !f->tensors) {
    MlirAttribute ft = mlirOperationGetInherentAttributeByName(op, mlirStringRefCreateFromCString("function_type"));
    if (!mlirAttributeIsNull(ft)) {
      MlirType t = mlirTypeAttrGetValue(ft);
      for (intptr_t i = 0; i < mlirFunctionTypeGetNumInputs(t) && !f->tensors; i++)
        f->tensors = is_tensor(mlirFunctionTypeGetInput(t, i));
      for (intptr_t i = 0; i < mlirFunctionTypeGetNumResults(t) && !f->tensors; i++)
        f->tensors = is_tensor(mlirFunctionTypeGetResult(t, i));
    }
  }
  return MlirWalkResultAdvance;
}

static int is_transform_op(MlirOperation op) { return ir_ref_starts(op_name(op), "transform."); }

/* A nested builtin.module that holds nothing but transform ops (the usual
 * home of a schedule) goes with it. */
static int is_schedule_module(MlirOperation op) {
  if (!ir_ref_is(op_name(op), "builtin.module"))
    return 0;
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0));
  for (MlirOperation o = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(o);
       o = mlirOperationGetNextInBlock(o))
    if (!is_transform_op(o))
      return 0;
  return 1;
}

static void erase_schedule(MlirModule module) {
  MlirBlock body = mlirModuleGetBody(module);
  MlirOperation next;
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op); op = next) {
    next = mlirOperationGetNextInBlock(op);
    if (is_transform_op(op) || is_schedule_module(op))
      mlirOperationDestroy(op);
  }
  mlirOperationRemoveDiscardableAttributeByName(mlirModuleGetOperation(module),
                                                mlirStringRefCreateFromCString("transform.with_named_sequence"));
}

/* Without its schedule, a module that holds one builtin.module holds the
 * payload in it (module @m {...} beside the schedule, as upstream's tests
 * write it). Its ops and attributes move up: outlining and the pipelines
 * work on the top module, and would not find the payload's symbols. */
static void hoist_payload(MlirModule module) {
  MlirOperation top = mlirModuleGetOperation(module);
  MlirOperation inner = mlirBlockGetFirstOperation(mlirModuleGetBody(module));
  if (mlirOperationIsNull(inner) || !mlirOperationIsNull(mlirOperationGetNextInBlock(inner)) ||
      !ir_ref_is(op_name(inner), "builtin.module"))
    return;
  MlirBlock from = mlirRegionGetFirstBlock(mlirOperationGetRegion(inner, 0));
  MlirOperation op;
  while (!mlirOperationIsNull(op = mlirBlockGetFirstOperation(from))) {
    mlirOperationRemoveFromParent(op);
    mlirBlockInsertOwnedOperationBefore(mlirModuleGetBody(module), inner, op);
  }
  for (intptr_t i = 0, n = mlirOperationGetNumDiscardableAttributes(inner); i < n; i++) {
    MlirNamedAttribute a = mlirOperationGetDiscardableAttribute(inner, i);
    mlirOperationSetDiscardableAttributeByName(top, mlirIdentifierStr(a.name), a.attribute);
  }
  mlirOperationDestroy(inner);
}

static MlirIdentifier ident(MlirContext ctx, const char *s) {
  return mlirIdentifierGet(ctx, mlirStringRefCreateFromCString(s));
}

/* transform.sequence failures(...) { ^bb0(%root: T): ... } becomes
 * transform.named_sequence @__transform_main(%root: T {transform.readonly})
 * with the same body (its terminator is the same transform.yield). */
static void name_legacy_sequence(MlirOperation seq) {
  MlirContext ctx = mlirOperationGetContext(seq);
  MlirRegion body = mlirOperationGetRegion(seq, 0);
  MlirBlock entry = mlirRegionGetFirstBlock(body);
  if (mlirBlockIsNull(entry) || mlirBlockGetNumArguments(entry) != 1)
    return; /* not a schedule the interpreter could run either */
  MlirType root = mlirValueGetType(mlirBlockGetArgument(entry, 0));
  MlirType fn = mlirFunctionTypeGet(ctx, 1, &root, 0, NULL);
  MlirNamedAttribute readonly =
      mlirNamedAttributeGet(ident(ctx, "transform.readonly"), mlirUnitAttrGet(ctx));
  MlirAttribute arg_attrs = mlirDictionaryAttrGet(ctx, 1, &readonly);
  MlirAttribute main = mlirStringAttrGet(ctx, mlirStringRefCreateFromCString("__transform_main"));
  MlirNamedAttribute attrs[3] = {
      mlirNamedAttributeGet(ident(ctx, "sym_name"), main),
      mlirNamedAttributeGet(ident(ctx, "function_type"), mlirTypeAttrGet(fn)),
      mlirNamedAttributeGet(ident(ctx, "arg_attrs"), mlirArrayAttrGet(ctx, 1, &arg_attrs)),
  };
  MlirOperationState st = mlirOperationStateGet(
      mlirStringRefCreateFromCString("transform.named_sequence"), mlirOperationGetLocation(seq));
  MlirRegion region = mlirRegionCreate();
  mlirRegionTakeBody(region, body);
  mlirOperationStateAddOwnedRegions(&st, 1, &region);
  mlirOperationStateAddAttributes(&st, 3, attrs);
  MlirOperation named = mlirOperationCreate(&st);
  MlirOperation parent = mlirOperationGetParentOperation(seq);
  mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(seq), seq, named);
  mlirOperationDestroy(seq);
  mlirOperationSetDiscardableAttributeByName(
      parent, mlirStringRefCreateFromCString("transform.with_named_sequence"), mlirUnitAttrGet(ctx));
}

#define VECTOR_COMPOSITE "lower-vector-mask,lower-vector-multi-reduction"

#define BUFFERIZE                                                                                  \
  "one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map "\
  "allow-return-allocs-from-loops}"

int frontend_prepare(MlirModule module) {
  struct found f = {0};
  mlirOperationWalk(mlirModuleGetOperation(module), survey, &f, MlirWalkPreOrder);
  if (!f.schedule && !mlirOperationIsNull(f.legacy)) {
    name_legacy_sequence(f.legacy);
    f.schedule = 1;
  }
  if (f.schedule) {
    if (ir_run_pipeline(module, "builtin.module(transform-interpreter)") != 0)
      return -1;
    erase_schedule(module);
    hoist_payload(module);
    /* The schedule may have made tensors, linalg ops or removed them. */
    f = (struct found){0};
    mlirOperationWalk(mlirModuleGetOperation(module), survey, &f, MlirWalkPreOrder);
  }
  /* vector.mask around a transfer becomes the masked transfer (the
   * deallocation would break the mask's one-op region on tensors), and
   * multi-dimensional reductions become vector.reduction, which every
   * pipeline lowers; in host functions and launch bodies (not yet
   * outlined) and in the gpu.modules' func.funcs. */
  if (f.vector_composite &&
      ir_run_pipeline(module, "builtin.module(func.func(" VECTOR_COMPOSITE "),"
                                    "gpu.module(func.func(" VECTOR_COMPOSITE ")))") != 0)
    return -1;
  /* Elementwise arith and math on tensors (arith.addf %a, %b : tensor<..>)
   * have no bufferization of their own: as linalg.generic they get one. */
  if (f.tensors &&
      ir_run_pipeline(module, "builtin.module(convert-elementwise-to-linalg)") != 0)
    return -1;
  if (f.tensors && (ir_run_pipeline(module, "builtin.module(" BUFFERIZE ")") != 0 ||
                    frontend_free_buffers(module, "builtin.module(buffer-deallocation-pipeline,"
                                                          "convert-bufferization-to-memref)") != 0))
    return -1;
  if ((f.linalg || f.tensors) && ir_run_pipeline(module, "builtin.module(convert-linalg-to-loops)") != 0)
    return -1;
  size_t nrows;
  const struct frontend_kind_row *rows = frontend_kind_rows(&nrows);
  for (size_t i = 0; i < nrows; i++)
    if (f.host_ops[i] && ir_run_pipeline(module, rows[i].host_ops_pipeline) != 0)
      return -1;
  return 0;
}
