/* device_amd_assert.h: cf.assert in AMD kernels as a printf and a trap,
 * see device_amd_assert.c. */
#ifndef GPUCC_DEVICE_AMD_ASSERT_H
#define GPUCC_DEVICE_AMD_ASSERT_H

#include <mlir-c/IR.h>

/* Rewrites every cf.assert inside gpu_module. Returns 0 or -1 (reported). */
int lowering_amd_asserts(MlirOperation gpu_module);

#endif
