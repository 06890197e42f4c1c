/* rewrite_tool.c: device_contract_wmma.c's rewrite of one program, as the
 * NVIDIA device job does it, for the tests:
 *   contract_wmma_rewrite IN.mlir OUT.mlir [sm_XX]
 * (the chip as the NVIDIA device job gives it in the gpu.module's
 * #nvvm.target; without one the rewrite assumes the first wmma chip)
 * prints "<gpu.module> <contractions rewritten>" per gpu.module and writes
 * the rewritten program to OUT. OUT compiles for the host target, whose
 * gpu.subgroup_mma ops run on the CPU: so the warp's version of a
 * contraction, which needs an NVIDIA GPU otherwise, runs here too. Exit 0,
 * or 1 when IN does not parse or the rewrite fails. */
#include "device_contract_wmma.h"
#include "frontend.h"
#include "program.h"

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  if (argc != 3 && argc != 4) {
    fprintf(stderr, "usage: %s IN.mlir OUT.mlir [sm_XX]\n", argv[0]);
    return 2;
  }
  MlirModule module;
  if (frontend_init() != 0 || frontend_parse(argv[1], &module) != 0)
    return 1;
  MlirOperation *mods;
  size_t n = ir_gpu_modules(module, &mods);
  int rc = 0;
  MlirStringRef targets = mlirStringRefCreateFromCString("targets");
  for (size_t i = 0; i < n && rc == 0; i++) {
    if (argc == 4) {
      char text[128];
      snprintf(text, sizeof text, "[#nvvm.target<chip = \"%s\">]", argv[3]);
      MlirAttribute t = mlirAttributeParseGet(mlirOperationGetContext(mods[i]), mlirStringRefCreateFromCString(text));
      if (mlirAttributeIsNull(t)) {
        fprintf(stderr, "%s: bad chip '%s'\n", argv[0], argv[3]);
        rc = 1;
        break;
      }
      mlirOperationSetInherentAttributeByName(mods[i], targets, t);
    }
    int done = lowering_contract_to_wmma(mods[i]);
    /* the host compiles OUT: no NVIDIA target left on it */
    mlirOperationRemoveAttributeByName(mods[i], targets);
    char *name = ir_symbol_name(mods[i]);
    printf("%s %d\n", name, done);
    free(name);
    rc = done < 0;
  }
  free(mods);
  if (rc == 0 && (!mlirOperationVerify(mlirModuleGetOperation(module)) ||
                  ir_write_op(mlirModuleGetOperation(module), argv[2]) != 0))
    rc = 1;
  mlirModuleDestroy(module);
  frontend_shutdown();
  return rc;
}
