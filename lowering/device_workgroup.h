/* device_workgroup.h: workgroup arrays aligned for vector accesses
 * (device_workgroup.c). */
#ifndef GPUCC_DEVICE_WORKGROUP_H
#define GPUCC_DEVICE_WORKGROUP_H

#include <mlir-c/IR.h>

/* Every workgroup-memory global under root (lowered to the LLVM dialect)
 * gets at least 16-byte alignment, more for wider vector elements. */
void lowering_align_workgroup_arrays(MlirOperation root);

#endif
