/* carried_code.c: a program's own lowered kernels, carried in their
 * gpu.module.
 *
 * Some MLIR compilers run the GPU-to-SPIR-V conversion themselves and emit
 * its result beside the gpu.module: MLIR's convert-gpu-to-spirv names the
 * spirv.module of gpu.module @m `@__spv__m`, and gpu-module-to-binary
 * expects it nested in @m. Normalization puts each such module there, in
 * its gpu.module, so that the module's text (the device cache's key) and
 * every device job see it with the kernels it lowers; the kind that takes
 * it uses it (its row's `takes_carried_code`), every other kind drops it
 * (lowering/device.c). A spirv.module that lowers no gpu.module of the
 * program is device code nothing launches: it goes, with a warning.
 *
 * The carried kernels take the arguments the gpu.func was written with,
 * and kernel_abi.c changes the gpu.func's: it records, on each kernel of
 * a module that carries code, which argument each new parameter is made
 * of (KERNEL_ARGS_ATTR), for the kind to match them. */
#include "frontend.h"

#include "diag.h"
#include "ir.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CARRIED_PREFIX "__spv__"

int frontend_is_carried_code(MlirOperation op) {
  if (!ir_op_is(op, "spirv.module"))
    return 0;
  MlirOperation parent = mlirOperationGetParentOperation(op);
  return !mlirOperationIsNull(parent) && ir_op_is(parent, "gpu.module");
}

MlirOperation frontend_carried_code(MlirOperation gpu_module) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(gpu_module, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    if (frontend_is_carried_code(op))
      return op;
  return (MlirOperation){NULL};
}

/* The gpu.module that top-level spirv.module sm lowers, by MLIR's name
 * for it; null if none. */
static MlirOperation lowered_module(MlirModule module, MlirOperation sm) {
  char *name = ir_symbol_name(sm);
  MlirOperation gm = {NULL};
  if (name && !strncmp(name, CARRIED_PREFIX, strlen(CARRIED_PREFIX)))
    gm = ir_find_child(mlirModuleGetOperation(module), "gpu.module", name + strlen(CARRIED_PREFIX));
  free(name);
  return gm;
}

/* A spirv.module that lowers no gpu.module goes, with a warning. */
static void drop_stray(MlirOperation sm) {
  char *name = ir_symbol_name(sm), quoted[300] = "";
  if (name && *name)
    snprintf(quoted, sizeof quoted, " '@%s'", name);
  ir_warning_at(sm, "spirv.module%s lowers no gpu.module of this program (MLIR names the "
                    "SPIR-V of gpu.module @m '@" CARRIED_PREFIX "m'); nothing can launch it, "
                    "so it is left out",
                quoted);
  free(name);
  mlirOperationDestroy(sm);
}

void frontend_find_carried_code(MlirModule module, struct carried_code *c, int drop_strays) {
  c->len = 0;
  c->pairs = NULL;
  MlirOperation next;
  for (MlirOperation op = mlirBlockGetFirstOperation(mlirModuleGetBody(module)); !mlirOperationIsNull(op);
       op = next) {
    next = mlirOperationGetNextInBlock(op);
    if (!ir_op_is(op, "spirv.module"))
      continue;
    MlirOperation gm = lowered_module(module, op);
    if (mlirOperationIsNull(gm)) {
      if (drop_strays)
        drop_stray(op);
      continue;
    }
    c->pairs = realloc(c->pairs, (c->len + 1) * sizeof *c->pairs);
    if (!c->pairs)
      BUG("out of memory");
    c->pairs[c->len].code = op;
    c->pairs[c->len].gpu_module = gm;
    c->len++;
  }
}

void frontend_carry_code(struct carried_code *c) {
  for (size_t i = 0; i < c->len; i++) {
    mlirOperationRemoveFromParent(c->pairs[i].code);
    MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(c->pairs[i].gpu_module, 0));
    mlirBlockAppendOwnedOperation(body, c->pairs[i].code);
  }
  free(c->pairs);
  c->pairs = NULL;
  c->len = 0;
}
