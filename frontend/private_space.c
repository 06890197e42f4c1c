/* private_space.c: private attributions in a numbered address space.
 *
 * Programs written for AMD or NVIDIA declare a kernel's per-thread memory
 * as `private(%p : memref<16xf32, 5>)`: 5 is the private (local) address
 * space of both AMDGPU and NVPTX. The lowering of private attributions
 * makes an alloca in the target's private space for #gpu.address_space
 * <private> and in the generic one otherwise, so an integer space fails on
 * NVIDIA and the host ("'llvm.insertvalue' op Type mismatch"; upstream's
 * NVVM lowering fails the same way). A private attribution is private
 * whatever its number says, so its memory space becomes
 * #gpu.address_space<private> when every use of it only reads or writes
 * through it (a use whose result type carries the space, a subview say,
 * would need its type changed too and is left as written). */
#include "frontend.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <stdlib.h>

static MlirStringRef ref(const char *s) { return mlirStringRefCreateFromCString(s); }

/* Uses that take the memref and make nothing of its type. */
static int plain_access(MlirOperation user) {
  static const char *const ops[] = {"memref.load",         "memref.store",
                                    "vector.load",         "vector.store",
                                    "vector.transfer_read", "vector.transfer_write",
                                    "vector.maskedload",   "vector.maskedstore",
                                    "memref.atomic_rmw",   "memref.dim",
                                    NULL};
  for (size_t i = 0; ops[i]; i++)
    if (ir_op_is(user, ops[i]))
      return 1;
  return 0;
}

static int only_plain_uses(MlirValue v) {
  for (MlirOpOperand u = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u))
    if (!plain_access(mlirOpOperandGetOwner(u)))
      return 0;
  return 1;
}

static void retype_private(MlirOperation func) {
  MlirRegion body = mlirOperationGetRegion(func, 0);
  MlirBlock entry = mlirRegionGetFirstBlock(body);
  MlirAttribute fty = mlirOperationGetAttributeByName(func, ref("function_type"));
  MlirAttribute nwg = mlirOperationGetAttributeByName(func, ref("workgroup_attributions"));
  if (mlirBlockIsNull(entry) || mlirAttributeIsNull(fty) || !mlirAttributeIsAType(fty))
    return;
  intptr_t first = mlirFunctionTypeGetNumInputs(mlirTypeAttrGetValue(fty)) +
                   (mlirAttributeIsNull(nwg) ? 0 : (intptr_t)mlirIntegerAttrGetValueInt(nwg));
  MlirAttribute priv = mlirAttributeParseGet(mlirOperationGetContext(func),
                                             ref("#gpu.address_space<private>"));
  for (intptr_t i = first; i < mlirBlockGetNumArguments(entry); i++) {
    MlirValue arg = mlirBlockGetArgument(entry, i);
    MlirType t = mlirValueGetType(arg);
    if (!mlirTypeIsAMemRef(t))
      continue;
    MlirAttribute space = mlirMemRefTypeGetMemorySpace(t);
    if (mlirAttributeIsNull(space) || !mlirAttributeIsAInteger(space) || !only_plain_uses(arg))
      continue;
    MlirType nt = ir_memref_like(t, (MlirType){NULL}, priv);
    if (!mlirTypeIsNull(nt))
      mlirValueSetType(arg, nt);
  }
}

void frontend_private_spaces(MlirModule module) {
  static const char *const names[] = {"gpu.func", NULL};
  MlirOperation *funcs;
  size_t n = ir_find_ops(mlirModuleGetOperation(module), names, NULL, &funcs);
  for (size_t i = 0; i < n; i++)
    retype_private(funcs[i]);
  free(funcs);
}
