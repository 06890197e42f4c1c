/* dealloc.c: freeing the buffers bufferization made, where that is safe.
 *
 * Upstream's ownership-based deallocation (buffer-deallocation-pipeline)
 * refuses a function that holds an op whose memory effects it does not model:
 * `gpu.launch_func` (unknown effects on its memref arguments) and
 * `gpu.dealloc` (a free it does not own) stop it with an error, and it would
 * free `gpu.alloc`'s device memory with memref.dealloc. So a program mixing
 * tensor code and GPU calls in one host function, as compilers emit them,
 * could not be compiled at all; nor a function that frees memory by hand
 * (memref.dealloc). Such functions are left out: while the pipeline runs,
 * each is parked as a private declaration (its body moved aside), and
 * callers see it as an external function that keeps no ownership of what it
 * is passed. A caller that gets memrefs back from one is parked too: the
 * pipeline would take them as the caller's own and free them, but a parked
 * function may return its argument or a global. The buffers bufferization
 * allocated in a parked function are not freed (they live until the program
 * exits); every other function gets its deallocations as before. */
#include "frontend.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <stdlib.h>

static MlirStringRef ref(const char *s) { return mlirStringRefCreateFromCString(s); }

/* Ops the deallocation refuses or would get wrong in a function: gpu ops
 * (launch_func: unknown effects; dealloc: a free it does not own; alloc:
 * device memory it would free with memref.dealloc), and the explicit frees
 * of hand-managed memory ("memory free side-effect ... not supported"). */
static MlirWalkResult find_refused(MlirOperation op, void *found) {
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  if (ir_ref_starts(name, "gpu.") || ir_ref_is(name, "memref.dealloc") ||
      ir_ref_is(name, "memref.realloc")) {
    *(int *)found = 1;
    return MlirWalkResultInterrupt;
  }
  return MlirWalkResultAdvance;
}

static int refused(MlirOperation fn) {
  int found = 0;
  mlirOperationWalk(fn, find_refused, &found, MlirWalkPreOrder);
  return found;
}

struct parked {
  MlirOperation fn;
  MlirRegion body;         /* the function's blocks while it is parked */
  MlirAttribute visibility; /* as it was (null: public by default) */
};

/* Whether a call in `fn` returns a memref from a function already chosen to
 * be parked. The deallocation takes a callee's memref results as owned by
 * the caller (its own functions return them so); a parked function may
 * return its argument or a global instead, which the caller would free. */
struct call_search {
  const struct parked *p;
  size_t np;
  int found;
};

static int is_parked(const struct call_search *cs, MlirStringRef name) {
  for (size_t i = 0; i < cs->np; i++) {
    MlirAttribute sym = mlirOperationGetInherentAttributeByName(cs->p[i].fn, ref("sym_name"));
    if (mlirStringRefEqual(mlirStringAttrGetValue(sym), name))
      return 1;
  }
  return 0;
}

static MlirWalkResult find_parked_call(MlirOperation op, void *ud) {
  struct call_search *cs = ud;
  if (!ir_op_is(op, "func.call"))
    return MlirWalkResultAdvance;
  int memref_result = 0;
  for (intptr_t i = 0, n = mlirOperationGetNumResults(op); i < n; i++)
    memref_result |= mlirTypeIsAMemRef(mlirValueGetType(mlirOperationGetResult(op, i)));
  MlirAttribute callee = mlirOperationGetInherentAttributeByName(op, ref("callee"));
  if (memref_result && !mlirAttributeIsNull(callee) &&
      is_parked(cs, mlirFlatSymbolRefAttrGetValue(callee))) {
    cs->found = 1;
    return MlirWalkResultInterrupt;
  }
  return MlirWalkResultAdvance;
}

static int calls_parked(MlirOperation fn, const struct parked *p, size_t np) {
  struct call_search cs = {p, np, 0};
  mlirOperationWalk(fn, find_parked_call, &cs, MlirWalkPreOrder);
  return cs.found;
}

static int is_definition(MlirOperation op) {
  return ir_op_is(op, "func.func") &&
         !mlirBlockIsNull(mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0)));
}

int frontend_free_buffers(MlirModule module, const char *pipeline) {
  MlirBlock top = mlirModuleGetBody(module);
  size_t n = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(top); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    n += ir_op_is(op, "func.func");
  struct parked *p = calloc(n ? n : 1, sizeof *p);
  if (!p)
    return ir_error_at(mlirModuleGetOperation(module), "out of memory");
  MlirContext ctx = mlirModuleGetContext(module);
  size_t np = 0;
  /* The functions it refuses, then (to a fixed point) their callers that
   * take memrefs back from them. */
  for (MlirOperation op = mlirBlockGetFirstOperation(top); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    if (is_definition(op) && refused(op))
      p[np++].fn = op;
  for (int grew = 1; grew;) {
    grew = 0;
    for (MlirOperation op = mlirBlockGetFirstOperation(top); !mlirOperationIsNull(op);
         op = mlirOperationGetNextInBlock(op)) {
      int already = 0;
      for (size_t i = 0; i < np && !already; i++)
        already = mlirOperationEqual(p[i].fn, op);
      if (!already && is_definition(op) && calls_parked(op, p, np)) {
        p[np++].fn = op;
        grew = 1;
      }
    }
  }
  for (size_t i = 0; i < np; i++) {
    MlirOperation op = p[i].fn;
    p[i].body = mlirRegionCreate();
    mlirRegionTakeBody(p[i].body, mlirOperationGetRegion(op, 0));
    p[i].visibility = mlirOperationGetInherentAttributeByName(op, ref("sym_visibility"));
    /* A declaration must not be public. */
    mlirOperationSetInherentAttributeByName(op, ref("sym_visibility"),
                                            mlirStringAttrGet(ctx, ref("private")));
  }
  int rc = ir_run_pipeline(module, pipeline);
  for (size_t i = 0; i < np; i++) {
    mlirRegionTakeBody(mlirOperationGetRegion(p[i].fn, 0), p[i].body);
    mlirRegionDestroy(p[i].body);
    /* A null attribute removes it again: public, as it was. */
    mlirOperationSetInherentAttributeByName(p[i].fn, ref("sym_visibility"), p[i].visibility);
  }
  free(p);
  return rc;
}
