/* device_nvidia_mma.h: NVIDIA's wmma as device_mma.c's layout: LLVM lowers
 * the matrix ops, gpucc the elementwise ones (device_nvidia_mma.c). */
#ifndef GPUCC_DEVICE_NVIDIA_MMA_H
#define GPUCC_DEVICE_NVIDIA_MMA_H

#include "device_mma.h"

extern const struct mma_lowering nvidia_mma_wmma;

#endif
