/* device_nvidia_wmma.c: tensor-core loads and stores of kernel buffers use
 * the global forms.
 *
 * LLVM's lowering of gpu.subgroup_mma_load/store_matrix gives nvvm.wmma ops
 * a generic pointer, so the PTX converted each global address back to a
 * generic one (cvta) and used `wmma.load.a.sync...` on it, where nvcc uses
 * `wmma.load.a.sync...global`: generic accesses cost an address-space check
 * per access. LLVM's address-space inference does not look into these
 * intrinsics. A pointer computed (getelementptr, descriptor fields) from a
 * kernel's pointer parameter addresses global memory, as CUDA defines
 * kernel parameters, so the op gets that pointer cast to address space 1.
 * Pointers of any other origin (a private alloca, a generic view of shared
 * memory) stay generic. */
#include "device_nvidia_wmma.h"

#include "ir.h"

#include <mlir-c/BuiltinAttributes.h>
#include <stdint.h>
#include <string.h>
#define MAX_TRACE 64

static MlirStringRef ref(const char *s) { return mlirStringRefCreateFromCString(s); }

static int is_kernel_entry_arg(MlirValue v) {
  MlirBlock block = mlirBlockArgumentGetOwner(v);
  MlirOperation fn = mlirBlockGetParentOperation(block);
  if (!ir_op_is(fn, "llvm.func") ||
      mlirAttributeIsNull(mlirOperationGetDiscardableAttributeByName(fn, ref("gpu.kernel"))))
    return 0;
  return mlirBlockEqual(mlirRegionGetFirstBlock(mlirOperationGetRegion(fn, 0)), block);
}

/* The single position of an extractvalue/insertvalue, or -1. */
static int64_t position(MlirOperation op) {
  MlirAttribute p = mlirOperationGetInherentAttributeByName(op, ref("position"));
  if (mlirAttributeIsNull(p) || mlirDenseArrayGetNumElements(p) != 1)
    return -1;
  return mlirDenseI64ArrayGetElement(p, 0);
}

/* The value inserted at `pos` into the aggregate `agg`, or a null value. */
static MlirValue inserted(MlirValue agg, int64_t pos) {
  MlirValue none = {NULL};
  for (int i = 0; i < MAX_TRACE && mlirValueIsAOpResult(agg); i++) {
    MlirOperation def = mlirOpResultGetOwner(agg);
    if (!ir_op_is(def, "llvm.insertvalue"))
      return none;
    if (position(def) == pos)
      return mlirOperationGetOperand(def, 1);
    agg = mlirOperationGetOperand(def, 0);
  }
  return none;
}

/* Whether ptr is a kernel parameter or an address computed from one. */
static int from_kernel_param(MlirValue ptr) {
  for (int i = 0; i < MAX_TRACE && !mlirValueIsNull(ptr); i++) {
    if (mlirValueIsABlockArgument(ptr))
      return is_kernel_entry_arg(ptr);
    MlirOperation def = mlirOpResultGetOwner(ptr);
    if (ir_op_is(def, "llvm.getelementptr"))
      ptr = mlirOperationGetOperand(def, 0);
    else if (ir_op_is(def, "llvm.extractvalue") && position(def) >= 0)
      ptr = inserted(mlirOperationGetOperand(def, 0), position(def));
    else
      return 0;
  }
  return 0;
}

static MlirWalkResult globalize(MlirOperation op, void *ud) {
  (void)ud;
  if (!ir_op_is(op, "nvvm.wmma.load") && !ir_op_is(op, "nvvm.wmma.store"))
    return MlirWalkResultAdvance;
  MlirValue ptr = mlirOperationGetOperand(op, 0); /* first in both ops */
  char text[16];
  ir_type_text(mlirValueGetType(ptr), text, sizeof text);
  if (strcmp(text, "!llvm.ptr") != 0 || !from_kernel_param(ptr))
    return MlirWalkResultAdvance;
  MlirType global = mlirTypeParseGet(mlirOperationGetContext(op), ref("!llvm.ptr<1>"));
  MlirValue cast = ir_op_before(op, "llvm.addrspacecast", 1, &ptr, global, 0, NULL);
  if (!mlirValueIsNull(cast))
    mlirOperationSetOperand(op, 0, cast);
  return MlirWalkResultAdvance;
}

void lowering_nvidia_wmma_global(MlirOperation gpu_module) {
  mlirOperationWalk(gpu_module, globalize, NULL, MlirWalkPreOrder);
}
