/* device_amd_private.h: memref.alloca in AMD kernels made in private memory
 * (address space 5), see device_amd_private.c. */
#ifndef GPUCC_DEVICE_AMD_PRIVATE_H
#define GPUCC_DEVICE_AMD_PRIVATE_H

#include <mlir-c/IR.h>

/* Rewrites every memref.alloca without a memory space inside gpu_module.
 * Returns 0 or -1 (reported). */
int lowering_amd_private_allocas(MlirOperation gpu_module);

#endif
