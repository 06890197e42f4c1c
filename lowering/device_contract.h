/* device_contract.h: floating-point contraction on lowered code
 * (device_contract.c). */
#ifndef GPUCC_DEVICE_CONTRACT_H
#define GPUCC_DEVICE_CONTRACT_H

#include "lowering.h"

#include <mlir-c/IR.h>

/* Marks the LLVM-dialect multiplies and adds under root that may fuse, as
 * mode says. */
void lowering_contract_fp(MlirOperation root, enum fp_contract mode);

#endif
