/* workgroup_alloc.c: memref.alloc of workgroup memory in a kernel.
 *
 * Code that promotes buffers to shared memory (linalg promotion, hand
 * written tiling) allocates them with memref.alloc in the workgroup address
 * space. LLVM's memref lowering makes every such alloc a malloc per thread,
 * cast to the shared address space: each thread gets a pointer of its own
 * that is no shared memory at all, and the kernel computes garbage on every
 * target. What the program means is a workgroup attribution of the kernel,
 * one buffer per block, so a statically shaped one becomes exactly that (and
 * its memref.dealloc goes). Other forms are refused with a located error:
 * a dynamic shape (shared memory is sized at compile time; use
 * gpu.dynamic_shared_memory) or an alloc outside a kernel's own body. */
#include "frontend.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <mlir-c/Dialect/GPU.h>
#include <stdlib.h>
#include <string.h>

static MlirStringRef ref(const char *s) { return mlirStringRefCreateFromCString(s); }

static int is_workgroup_alloc(MlirOperation op) {
  MlirType t = mlirValueGetType(mlirOperationGetResult(op, 0));
  if (!mlirTypeIsAMemRef(t))
    return 0;
  MlirAttribute space = mlirMemRefTypeGetMemorySpace(t);
  if (mlirAttributeIsNull(space))
    return 0;
  char text[96];
  ir_attr_text(space, text, sizeof text);
  return strstr(text, "workgroup") != NULL || (mlirAttributeIsAInteger(space) &&
                                               mlirIntegerAttrGetValueInt(space) == 3);
}

static MlirOperation enclosing_func(MlirOperation op) {
  MlirOperation f = mlirOperationGetParentOperation(op);
  while (!mlirOperationIsNull(f) && !ir_op_is(f, "gpu.func") && !ir_op_is(f, "func.func"))
    f = mlirOperationGetParentOperation(f);
  return f;
}

static int rewrite(MlirOperation op) {
  MlirType t = mlirValueGetType(mlirOperationGetResult(op, 0));
  if (!mlirShapedTypeHasStaticShape(t) || mlirOperationGetNumOperands(op) != 0)
    return ir_error_at(op, "workgroup memory from memref.alloc needs a static shape "
                                 "(it is sized when the kernel is compiled; use "
                                 "gpu.dynamic_shared_memory for a size chosen at launch)");
  MlirOperation fn = enclosing_func(op);
  if (!ir_is_kernel(fn))
    return ir_error_at(op, "workgroup memory from memref.alloc is supported in kernels "
                                 "only (it becomes a workgroup attribution of the kernel)");
  /* A discardable attribute of gpu.func in MLIR 22, not a property. */
  MlirAttribute count = mlirOperationGetDiscardableAttributeByName(fn, ref("workgroup_attributions"));
  int64_t nwg = mlirAttributeIsNull(count) ? 0 : mlirIntegerAttrGetValueInt(count);
  MlirAttribute ftype = mlirOperationGetInherentAttributeByName(fn, ref("function_type"));
  intptr_t nargs = mlirFunctionTypeGetNumInputs(mlirTypeAttrGetValue(ftype));
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(fn, 0));
  /* Workgroup attributions follow the arguments and precede private ones. */
  MlirValue buffer = mlirBlockInsertArgument(entry, nargs + nwg, t, mlirOperationGetLocation(op));
  MlirContext ctx = mlirOperationGetContext(op);
  mlirOperationSetDiscardableAttributeByName(
      fn, ref("workgroup_attributions"), mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), nwg + 1));
  MlirValue old = mlirOperationGetResult(op, 0);
  /* Its deallocs go: the buffer lives as long as the block. */
  static const char *const deallocs[] = {"memref.dealloc", NULL};
  MlirOperation *found;
  size_t n = ir_find_ops(fn, deallocs, NULL, &found);
  for (size_t i = 0; i < n; i++)
    if (mlirValueEqual(mlirOperationGetOperand(found[i], 0), old))
      mlirOperationDestroy(found[i]);
  free(found);
  mlirValueReplaceAllUsesOfWith(old, buffer);
  mlirOperationDestroy(op);
  return 0;
}

int frontend_workgroup_allocs(MlirModule module) {
  static const char *const names[] = {"memref.alloc", NULL};
  MlirOperation *ops;
  size_t n = ir_find_ops(mlirModuleGetOperation(module), names, is_workgroup_alloc, &ops);
  int rc = 0;
  for (size_t i = 0; i < n && rc == 0; i++)
    rc = rewrite(ops[i]);
  free(ops);
  return rc;
}
