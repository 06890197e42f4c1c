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
 *      then erased, as `-transform-interpreter` plus erase-schedule do;
 *   2. tensor code is bufferized (one-shot, across function boundaries, with
 *      identity layouts so that C callers see plain memrefs) and its buffers
 *      freed by the ownership-based deallocation pipeline;
 *   3. linalg ops become loops, so both host and device pipelines see scf.
 *
 * Each step runs only when the module has what it works on: a schedule,
 * tensor values, linalg ops. */
#include "frontend.h"

#include "diag.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <stdlib.h>
#include <string.h>

static MlirStringRef op_name(MlirOperation op) { return mlirIdentifierStr(mlirOperationGetName(op)); }

struct found {
  int schedule, tensors, linalg;
};

static int is_tensor(MlirType t) { return mlirTypeIsATensor(t); }

static MlirWalkResult survey(MlirOperation op, void *ud) {
  struct found *f = ud;
  MlirStringRef name = op_name(op);
  if (frontend_ref_is(name, "transform.named_sequence")) {
    MlirAttribute sym = mlirOperationGetInherentAttributeByName(op, mlirStringRefCreateFromCString("sym_name"));
    if (!mlirAttributeIsNull(sym) && frontend_ref_is(mlirStringAttrGetValue(sym), "__transform_main"))
      f->schedule = 1;
    return MlirWalkResultSkip; /* the schedule's own values are not payload */
  }
  if (frontend_ref_starts(name, "linalg."))
    f->linalg = 1;
  for (intptr_t i = 0, n = mlirOperationGetNumResults(op); i < n && !f->tensors; i++)
    f->tensors = is_tensor(mlirValueGetType(mlirOperationGetResult(op, i)));
  for (intptr_t i = 0, n = mlirOperationGetNumOperands(op); i < n && !f->tensors; i++)
    f->tensors = is_tensor(mlirValueGetType(mlirOperationGetOperand(op, i)));
  if (frontend_ref_is(name, "func.func") && !f->tensors) {
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

static int is_transform_op(MlirOperation op) { return frontend_ref_starts(op_name(op), "transform."); }

/* A nested builtin.module that holds nothing but transform ops (the usual
 * home of a schedule) goes with it. */
static int is_schedule_module(MlirOperation op) {
  if (!frontend_ref_is(op_name(op), "builtin.module"))
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

#define BUFFERIZE                                                                                  \
  "one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map},"\
  "buffer-deallocation-pipeline"

int frontend_prepare(MlirModule module) {
  struct found f = {0};
  mlirOperationWalk(mlirModuleGetOperation(module), survey, &f, MlirWalkPreOrder);
  if (f.schedule) {
    if (frontend_run_pipeline(module, "builtin.module(transform-interpreter)") != 0)
      return -1;
    erase_schedule(module);
    /* The schedule may have made tensors, linalg ops or removed them. */
    f = (struct found){0};
    mlirOperationWalk(mlirModuleGetOperation(module), survey, &f, MlirWalkPreOrder);
  }
  if (f.tensors && frontend_run_pipeline(module, "builtin.module(" BUFFERIZE ")") != 0)
    return -1;
  if ((f.linalg || f.tensors) && frontend_run_pipeline(module, "builtin.module(convert-linalg-to-loops)") != 0)
    return -1;
  return 0;
}
