/* llvm_emit.h: native code generation for an LLVM module, shared by the
 * host-side lowering and the host (CPU) device target. */
#ifndef GPUCC_LLVM_EMIT_H
#define GPUCC_LLVM_EMIT_H

#include <llvm-c/TargetMachine.h>

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

#endif
