/* device_amd_private.c: stack memory of AMD kernels lives in address space 5.
 *
 * memref.alloca without a memory space lowers to an llvm.alloca in address
 * space 0, which the AMDGPU backend cannot select ("Cannot select:
 * FrameIndex"); at -O2 the optimizer happens to remove simple ones first,
 * at -O0 every one fails. So, for AMD targets, each such alloca inside a
 * gpu.module is made in #gpu.address_space<private> and cast back to the
 * default space (a flat pointer, which AMD GPUs dereference like any
 * other), so that its users see the type they had. */
#include "device_amd_private.h"

#include "diag.h"
#include "ir.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <stdlib.h>
#include <string.h>

/* Allocas with no memory space: those end up in address space 0. */
static int in_default_space(MlirOperation op) {
  MlirType t = mlirValueGetType(mlirOperationGetResult(op, 0));
  return mlirTypeIsAMemRef(t) && mlirAttributeIsNull(mlirMemRefTypeGetMemorySpace(t));
}

/* The same op with a result of type `to`. */
static MlirOperation clone_with_type(MlirOperation op, MlirType to) {
  MlirOperationState st = mlirOperationStateGet(mlirIdentifierStr(mlirOperationGetName(op)),
                                                mlirOperationGetLocation(op));
  intptr_t n = mlirOperationGetNumOperands(op);
  MlirValue *operands = malloc(sizeof *operands * (size_t)(n + 1));
  intptr_t na = mlirOperationGetNumAttributes(op);
  MlirNamedAttribute *attrs = malloc(sizeof *attrs * (size_t)(na + 1));
  if (!operands || !attrs)
    BUG("out of memory");
  for (intptr_t i = 0; i < n; i++)
    operands[i] = mlirOperationGetOperand(op, i);
  for (intptr_t i = 0; i < na; i++)
    attrs[i] = mlirOperationGetAttribute(op, i);
  mlirOperationStateAddOperands(&st, n, operands);
  mlirOperationStateAddAttributes(&st, na, attrs);
  mlirOperationStateAddResults(&st, 1, &to);
  MlirOperation made = mlirOperationCreate(&st);
  free(operands);
  free(attrs);
  return made;
}

int lowering_amd_private_allocas(MlirOperation gpu_module) {
  static const char *const names[] = {"memref.alloca", NULL};
  MlirOperation *found;
  size_t n = ir_find_ops(gpu_module, names, in_default_space, &found);
  MlirContext ctx = mlirOperationGetContext(gpu_module);
  MlirAttribute private_space = mlirAttributeParseGet(ctx, mlirStringRefCreateFromCString("#gpu.address_space<private>"));
  int rc = 0;
  for (size_t i = 0; i < n && rc == 0; i++) {
    MlirOperation op = found[i];
    MlirValue old = mlirOperationGetResult(op, 0);
    MlirType t = mlirValueGetType(old);
    MlirType priv = ir_memref_like(t, (MlirType){NULL}, private_space);
    MlirOperation made = clone_with_type(op, priv);
    if (mlirOperationIsNull(made)) {
      rc = diag_error("internal: cannot move a memref.alloca to private memory");
      break;
    }
    MlirBlock block = mlirOperationGetBlock(op);
    mlirBlockInsertOwnedOperationBefore(block, op, made);
    MlirValue made_v = mlirOperationGetResult(made, 0);
    MlirOperationState cast = mlirOperationStateGet(mlirStringRefCreateFromCString("memref.memory_space_cast"),
                                                    mlirOperationGetLocation(op));
    mlirOperationStateAddOperands(&cast, 1, &made_v);
    mlirOperationStateAddResults(&cast, 1, &t);
    MlirOperation c = mlirOperationCreate(&cast);
    mlirBlockInsertOwnedOperationBefore(block, op, c);
    mlirValueReplaceAllUsesOfWith(old, mlirOperationGetResult(c, 0));
    mlirOperationDestroy(op);
  }
  free(found);
  return rc;
}
