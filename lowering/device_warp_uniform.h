/* device_warp_uniform.h: what every lane of a warp computes alike, and
 * which ops every lane of a warp reaches together (device_warp_uniform.c).
 *
 * Both answers are conservative: 0 means "not proven", never "differs". */
#ifndef GPUCC_DEVICE_WARP_UNIFORM_H
#define GPUCC_DEVICE_WARP_UNIFORM_H

#include <mlir-c/IR.h>

/* Whether v, in a gpu.func of a gpu.module not yet lowered, has the same
 * value in every lane of a warp (lanes are consecutive linear thread ids,
 * as on NVIDIA). */
int warp_uniform_value(MlirValue v);

/* Whether op sits in the entry block of a kernel (gpu.func with `kernel`),
 * possibly nested in scf.for loops with warp-uniform bounds and scf.if ops
 * with warp-uniform conditions only: then every lane of a warp that enters
 * the kernel reaches op, the same number of times. Returns the kernel, or
 * a null op when that is not proven. */
MlirOperation warp_uniform_kernel_of(MlirOperation op);

#endif
