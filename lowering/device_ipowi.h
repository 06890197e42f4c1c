/* device_ipowi.h: math.ipowi on scalars becomes a call of a function that
 * the gpu.module carries (see device_ipowi.c). */
#ifndef GPUCC_DEVICE_IPOWI_H
#define GPUCC_DEVICE_IPOWI_H

#include <mlir-c/IR.h>

/* Rewrites every scalar math.ipowi inside gpu_module. Returns 0 or -1
 * (reported). */
int lowering_expand_ipowi(MlirOperation gpu_module);

#endif
