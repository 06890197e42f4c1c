/* device_linkage.h: kernels stay entry points; other device functions
 * become internal and unused C-interface wrappers go (device_linkage.c). */
#ifndef GPUCC_DEVICE_LINKAGE_H
#define GPUCC_DEVICE_LINKAGE_H

#include <mlir-c/IR.h>

/* In every gpu.module of dev (lowered to the LLVM dialect). Kernels are
 * the functions marked gpu.kernel or `kernel_attr` (the kind's mark,
 * "nvvm.kernel"; NULL: none). */
void lowering_internalize_device_functions(MlirModule dev, const char *kernel_attr);

#endif
