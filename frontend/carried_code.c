/* carried_code.c: a program's own lowered kernels, carried in their
 * gpu.module.
 *
 * Some MLIR compilers run the GPU-to-SPIR-V conversion themselves and emit
 * its result beside the gpu.module: MLIR's convert-gpu-to-spirv names the
 * spirv.module of gpu.module @m `@__spv__m`, and gpu-module-to-binary
 * expects it nested in @m. Normalization puts each such module there, in
 * its gpu.module, so that the module's text (the device cache's key) and
 * every device job see it with the kernels it lowers; the kind that takes
 * it uses it (its row's `carried`), every other kind drops it
 * (lowering/device.c). A spirv.module that lowers no gpu.module of the
 * program is device code nothing launches: it goes, with a warning.
 *
 * The carried kernels take the arguments the gpu.func was written with,
 * and kernel_abi.c changes the gpu.func's: it records, on each kernel of
 * a module that carries code, which argument each new parameter is made
 * of (`gpucc.kernel_args`), for the kind to match them. */
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

int frontend_carries_code(MlirOperation gpu_module) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(gpu_module, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    if (frontend_is_carried_code(op))
      return 1;
  return 0;
}

int frontend_has_carried_code(MlirModule module, MlirOperation gpu_module) {
  if (frontend_carries_code(gpu_module))
    return 1;
  char *name = ir_symbol_name(gpu_module);
  int found = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(mlirModuleGetBody(module));
       name && !found && !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    char *s = ir_op_is(op, "spirv.module") ? ir_symbol_name(op) : NULL;
    found = s && !strncmp(s, CARRIED_PREFIX, strlen(CARRIED_PREFIX)) &&
            !strcmp(s + strlen(CARRIED_PREFIX), name);
    free(s);
  }
  free(name);
  return found;
}

/* The gpu.module of `mods` that top-level spirv.module sm lowers, by
 * MLIR's name for it; null if none. */
static MlirOperation lowered_module(MlirOperation sm, MlirOperation *mods, size_t n) {
  MlirOperation none = {NULL};
  char *name = ir_symbol_name(sm);
  if (!name)
    return none;
  MlirOperation found = none;
  if (!strncmp(name, CARRIED_PREFIX, strlen(CARRIED_PREFIX)))
    for (size_t i = 0; i < n && mlirOperationIsNull(found); i++) {
      char *m = ir_symbol_name(mods[i]);
      if (m && !strcmp(m, name + strlen(CARRIED_PREFIX)))
        found = mods[i];
      free(m);
    }
  free(name);
  return found;
}

void frontend_find_carried_code(MlirModule module, struct carried_code *c) {
  MlirOperation *mods;
  size_t nmods = ir_gpu_modules(module, &mods);
  c->len = 0;
  c->pairs = NULL;
  MlirOperation next;
  for (MlirOperation op = mlirBlockGetFirstOperation(mlirModuleGetBody(module)); !mlirOperationIsNull(op);
       op = next) {
    next = mlirOperationGetNextInBlock(op);
    if (!ir_op_is(op, "spirv.module"))
      continue;
    MlirOperation gm = lowered_module(op, mods, nmods);
    if (mlirOperationIsNull(gm)) {
      char *name = ir_symbol_name(op), quoted[300] = "";
      if (name && *name)
        snprintf(quoted, sizeof quoted, " '@%s'", name);
      ir_warning_at(op, "spirv.module%s lowers no gpu.module of this program (MLIR names the "
                        "SPIR-V of gpu.module @m '@" CARRIED_PREFIX "m'); nothing can launch it, "
                        "so it is left out",
                    quoted);
      free(name);
      mlirOperationDestroy(op);
      continue;
    }
    c->pairs = realloc(c->pairs, (c->len + 1) * sizeof *c->pairs);
    if (!c->pairs)
      BUG("out of memory");
    c->pairs[c->len].code = op;
    c->pairs[c->len].gpu_module = gm;
    c->len++;
  }
  free(mods);
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
