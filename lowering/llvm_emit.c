/* llvm_emit.c: LLVM module -> optimized native object, through the LLVM C
 * API, in-process (no llc). See llvm_emit.h. */
#include "llvm_emit.h"

#include "diag.h"

#include <llvm-c/Core.h>
#include <llvm-c/Target.h>
#include <llvm-c/Transforms/PassBuilder.h>
#include <stdio.h>

LLVMTargetMachineRef lowering_host_machine(int opt) {
  LLVMInitializeNativeTarget();
  LLVMInitializeNativeAsmPrinter();
  char *triple = LLVMGetDefaultTargetTriple();
  LLVMTargetRef target;
  char *err = NULL;
  if (LLVMGetTargetFromTriple(triple, &target, &err)) {
    diag_error("no LLVM target for host triple '%s': %s", triple, err);
    LLVMDisposeMessage(err);
    LLVMDisposeMessage(triple);
    return NULL;
  }
  static const LLVMCodeGenOptLevel levels[] = {LLVMCodeGenLevelNone, LLVMCodeGenLevelLess,
                                               LLVMCodeGenLevelDefault, LLVMCodeGenLevelAggressive};
  LLVMTargetMachineRef tm = LLVMCreateTargetMachine(target, triple, "generic", "",
                                                    levels[opt < 0 ? 0 : opt > 3 ? 3 : opt],
                                                    LLVMRelocPIC, LLVMCodeModelDefault);
  LLVMDisposeMessage(triple);
  return tm;
}

void lowering_set_host_layout(LLVMModuleRef mod, LLVMTargetMachineRef tm) {
  char *triple = LLVMGetTargetMachineTriple(tm);
  LLVMSetTarget(mod, triple);
  LLVMDisposeMessage(triple);
  LLVMTargetDataRef dl = LLVMCreateTargetDataLayout(tm);
  LLVMSetModuleDataLayout(mod, dl);
  LLVMDisposeTargetData(dl);
}

int lowering_emit_object(LLVMModuleRef mod, int opt, const char *obj_path) {
  LLVMTargetMachineRef tm = lowering_host_machine(opt);
  if (!tm)
    return -1;
  lowering_set_host_layout(mod, tm);
  int rc = 0;
  /* Even at -O0: that pipeline is what lowers coroutines (async.execute
   * bodies) and always-inline functions, which codegen cannot handle. */
  {
    char passes[32];
    snprintf(passes, sizeof passes, "default<O%d>", opt);
    LLVMPassBuilderOptionsRef po = LLVMCreatePassBuilderOptions();
    LLVMErrorRef e = LLVMRunPasses(mod, passes, tm, po);
    LLVMDisposePassBuilderOptions(po);
    if (e) {
      char *m = LLVMGetErrorMessage(e);
      rc = diag_error("LLVM optimization failed: %s", m);
      LLVMDisposeErrorMessage(m);
    }
  }
  char *err = NULL;
  if (rc == 0 && LLVMTargetMachineEmitToFile(tm, mod, obj_path, LLVMObjectFile, &err)) {
    rc = diag_error("cannot emit object '%s': %s", obj_path, err);
    LLVMDisposeMessage(err);
  }
  LLVMDisposeTargetMachine(tm);
  return rc;
}
