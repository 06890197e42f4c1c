/* host_backend.h: turning NVVM-lowered kernels into CPU code (host target),
 * the one header of lowering/host/ that the rest of lowering/ includes
 * (target_host.c). See host_kernels.c for the rewrite and abi/host_abi.h
 * for the contract with the runtime; the folder's other headers are its
 * own. */
#ifndef GPUCC_HOST_BACKEND_H
#define GPUCC_HOST_BACKEND_H

#include <llvm-c/Core.h>
#include <llvm-c/Target.h>

/* Rewrites the LLVM IR of one gpu.module (already in the host data layout
 * td) so that its kernels run on the CPU through the host ABI. Returns 0,
 * or -1 after reporting what the module uses that the CPU cannot do. */
int host_kernels_rewrite(LLVMModuleRef mod, LLVMTargetDataRef td, const char *module_name);

/* With on != 0, host_kernels_rewrite prints a remark for each kernel whose
 * threads keep running on fibers (barriers or shuffles it could not compile
 * into regions), saying why; the driver turns it on with -v. */
void host_kernels_set_verbose(int on);

#endif
