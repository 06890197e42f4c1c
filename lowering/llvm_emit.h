/* llvm_emit.h: native code generation for an LLVM module, shared by the
 * host-side lowering and the host (CPU) device target; device code
 * generation from optimized bitcode, for the GPU kinds. */
#ifndef GPUCC_LLVM_EMIT_H
#define GPUCC_LLVM_EMIT_H

#include <llvm-c/TargetMachine.h>
#include <stddef.h>

/* A PIC target machine for the host triple and a generic x86-64 CPU (the
 * output must run on any machine of the architecture, not just this one).
 * Returns NULL after reporting an error. */
LLVMTargetMachineRef lowering_host_machine(int opt);

/* Sets the module's triple and data layout to the host's. */
void lowering_set_host_layout(LLVMModuleRef mod, LLVMTargetMachineRef tm);

/* Optimizes the module at -O<opt> and writes an object file.
 * Returns 0 or -1 (reported). */
int lowering_emit_object(LLVMModuleRef mod, int opt, const char *obj_path);
/* The same with the caller's target machine (from lowering_host_machine at
 * the same opt), for a caller emitting many modules: one machine for all
 * saves its set-up per module. */
int lowering_emit_object_with(LLVMModuleRef mod, LLVMTargetMachineRef tm, int opt,
                              const char *obj_path);

/* The machine device code is generated for: an LLVM triple, its chip
 * (-mcpu) and feature string, and the -O level. */
struct device_machine {
  const char *triple, *chip, *features;
  int opt;
};

/* Generates code for machine m from an optimized module's bitcode (MLIR's
 * serialization with format=llvm: device libraries linked, optimized, not
 * yet code-generated): assembly text (PTX) or an object file, straight from
 * LLVM's code generator. Code generation is the one step that differs
 * between the chips of a family, so one module's bitcode serves them all.
 * *out (malloc'ed, NUL after the *out_size bytes) on success.
 * Returns 0 or -1 (reported). */
int lowering_codegen_bitcode(const char *bitcode, size_t size, const struct device_machine *m,
                             int assembly, char **out, size_t *out_size);

#endif
