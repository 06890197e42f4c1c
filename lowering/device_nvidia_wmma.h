/* device_nvidia_wmma.h: global-memory forms of wmma loads and stores
 * (device_nvidia_wmma.c). */
#ifndef GPUCC_DEVICE_NVIDIA_WMMA_H
#define GPUCC_DEVICE_NVIDIA_WMMA_H

#include <mlir-c/IR.h>

/* In a gpu.module lowered to the LLVM and NVVM dialects. */
void lowering_nvidia_wmma_global(MlirOperation gpu_module);

#endif
