/* dealloc.c: freeing the buffers bufferization made, where that is safe.
 *
 * Upstream's ownership-based deallocation (buffer-deallocation-pipeline)
 * refuses a function that holds an op whose memory effects it does not model:
 * `gpu.launch_func` (unknown effects on its memref arguments) and
 * `gpu.dealloc` (a free it does not own) stop it with an error, and it would
 * free `gpu.alloc`'s device memory with memref.dealloc. So a program mixing
 * tensor code and GPU calls in one host function, as compilers emit them,
 * could not be compiled at all. Such functions are left out: while the
 * pipeline runs, each is parked as a private declaration (its body moved
 * aside), and callers see it as an external function that keeps no
 * ownership of what it is passed. The buffers bufferization allocated in a
 * parked function are not freed (they live until the program exits); every
 * other function gets its deallocations as before. */
#include "frontend.h"

#include <mlir-c/BuiltinAttributes.h>
#include <stdlib.h>

static MlirStringRef ref(const char *s) { return mlirStringRefCreateFromCString(s); }

static MlirWalkResult find_gpu_op(MlirOperation op, void *found) {
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  if (frontend_ref_starts(name, "gpu.")) {
    *(int *)found = 1;
    return MlirWalkResultInterrupt;
  }
  return MlirWalkResultAdvance;
}

static int has_gpu_op(MlirOperation fn) {
  int found = 0;
  mlirOperationWalk(fn, find_gpu_op, &found, MlirWalkPreOrder);
  return found;
}

struct parked {
  MlirOperation fn;
  MlirRegion body;         /* the function's blocks while it is parked */
  MlirAttribute visibility; /* as it was (null: public by default) */
};

int frontend_free_buffers(MlirModule module, const char *pipeline) {
  MlirBlock top = mlirModuleGetBody(module);
  size_t n = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(top); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    n += frontend_op_is(op, "func.func");
  struct parked *p = calloc(n ? n : 1, sizeof *p);
  if (!p)
    return frontend_error_at(mlirModuleGetOperation(module), "out of memory");
  MlirContext ctx = mlirModuleGetContext(module);
  size_t np = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(top); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    MlirRegion body = mlirOperationGetRegion(op, 0);
    if (!frontend_op_is(op, "func.func") || mlirBlockIsNull(mlirRegionGetFirstBlock(body)) ||
        !has_gpu_op(op))
      continue;
    p[np].fn = op;
    p[np].body = mlirRegionCreate();
    mlirRegionTakeBody(p[np].body, body);
    p[np].visibility = mlirOperationGetInherentAttributeByName(op, ref("sym_visibility"));
    /* A declaration must not be public. */
    mlirOperationSetInherentAttributeByName(op, ref("sym_visibility"),
                                            mlirStringAttrGet(ctx, ref("private")));
    np++;
  }
  int rc = frontend_run_pipeline(module, pipeline);
  for (size_t i = 0; i < np; i++) {
    mlirRegionTakeBody(mlirOperationGetRegion(p[i].fn, 0), p[i].body);
    mlirRegionDestroy(p[i].body);
    /* A null attribute removes it again: public, as it was. */
    mlirOperationSetInherentAttributeByName(p[i].fn, ref("sym_visibility"), p[i].visibility);
  }
  free(p);
  return rc;
}
