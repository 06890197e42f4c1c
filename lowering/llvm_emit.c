/* llvm_emit.c: LLVM module -> optimized native object, through the LLVM C
 * API, in-process (no llc); and device code generation from optimized
 * bitcode. See llvm_emit.h. */
#include "llvm_emit.h"

#include "diag.h"

#include <llvm-c/Core.h>
#include <llvm-c/Target.h>
#include <llvm-c/Transforms/PassBuilder.h>
#include <llvm-c/BitReader.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* llvm.matrix.* (from llvm.intr.matrix.* in the program) have no code
 * generation of their own: LLVM's LowerMatrixIntrinsics pass must expand
 * them first, or instruction selection dies ("Do not know how to widen this
 * operator"). The default pipeline runs it only behind a flag (clang's
 * -fenable-matrix, mlir-runner's -enable-matrix), so it is asked for here,
 * with its default column-major layout, when the module uses them. */
static int uses_matrix_intrinsics(LLVMModuleRef mod) {
  for (LLVMValueRef f = LLVMGetFirstFunction(mod); f; f = LLVMGetNextFunction(f)) {
    size_t n;
    const char *name = LLVMGetValueName2(f, &n);
    if (n > 12 && memcmp(name, "llvm.matrix.", 12) == 0)
      return 1;
  }
  return 0;
}

int lowering_emit_object(LLVMModuleRef mod, int opt, const char *obj_path) {
  LLVMTargetMachineRef tm = lowering_host_machine(opt);
  if (!tm)
    return -1;
  int rc = lowering_emit_object_with(mod, tm, opt, obj_path);
  LLVMDisposeTargetMachine(tm);
  return rc;
}

int lowering_emit_object_with(LLVMModuleRef mod, LLVMTargetMachineRef tm, int opt,
                              const char *obj_path) {
  lowering_set_host_layout(mod, tm);
  int rc = 0;
  /* Even at -O0: that pipeline is what lowers coroutines (async.execute
   * bodies) and always-inline functions, which codegen cannot handle. */
  {
    char passes[64];
    snprintf(passes, sizeof passes, "%sdefault<O%d>",
             uses_matrix_intrinsics(mod) ? "function(lower-matrix-intrinsics)," : "", opt);
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
  return rc;
}

/* Every target LLVM was built with, once: device code generation names
 * its target by triple (amdgcn, nvptx64), not the host's. */
static void init_device_targets(void) {
  static int done;
  if (done)
    return;
  LLVMInitializeAllTargetInfos();
  LLVMInitializeAllTargets();
  LLVMInitializeAllTargetMCs();
  LLVMInitializeAllAsmPrinters();
  done = 1;
}

int lowering_codegen_bitcode(const char *bitcode, size_t size, const struct device_machine *m,
                             int assembly, char **out, size_t *out_size) {
  init_device_targets();
  *out = NULL, *out_size = 0;
  LLVMTargetRef target;
  char *err = NULL;
  if (LLVMGetTargetFromTriple(m->triple, &target, &err)) {
    int rc = diag_error("no LLVM target for '%s': %s", m->triple, err);
    LLVMDisposeMessage(err);
    return rc;
  }
  static const LLVMCodeGenOptLevel levels[] = {LLVMCodeGenLevelNone, LLVMCodeGenLevelLess,
                                               LLVMCodeGenLevelDefault, LLVMCodeGenLevelAggressive};
  int opt = m->opt < 0 ? 0 : m->opt > 3 ? 3 : m->opt;
  LLVMContextRef ctx = LLVMContextCreate();
  LLVMMemoryBufferRef in = LLVMCreateMemoryBufferWithMemoryRange(bitcode, size, "device", 0);
  LLVMModuleRef mod = NULL;
  int rc = 0;
  if (LLVMParseBitcodeInContext2(ctx, in, &mod)) {
    rc = diag_error("internal: cannot read the optimized device code for '%s'", m->chip);
    mod = NULL;
  }
  LLVMDisposeMemoryBuffer(in);
  LLVMTargetMachineRef tm = NULL;
  if (rc == 0) {
    tm = LLVMCreateTargetMachine(target, m->triple, m->chip, m->features, levels[opt],
                                 LLVMRelocDefault, LLVMCodeModelDefault);
    if (!tm)
      rc = diag_error("no LLVM target machine for '%s'", m->chip);
  }
  LLVMMemoryBufferRef buf = NULL;
  if (rc == 0 && LLVMTargetMachineEmitToMemoryBuffer(tm, mod, assembly ? LLVMAssemblyFile : LLVMObjectFile,
                                                     &err, &buf)) {
    rc = diag_error("code generation for '%s' failed: %s", m->chip, err);
    LLVMDisposeMessage(err);
  }
  if (rc == 0) {
    *out_size = LLVMGetBufferSize(buf);
    *out = malloc(*out_size + 1);
    if (!*out)
      BUG("out of memory");
    memcpy(*out, LLVMGetBufferStart(buf), *out_size);
    (*out)[*out_size] = '\0';
    LLVMDisposeMemoryBuffer(buf);
  }
  if (tm)
    LLVMDisposeTargetMachine(tm);
  if (mod)
    LLVMDisposeModule(mod);
  LLVMContextDispose(ctx);
  return rc;
}
