/* device_contract_wmma.h: tensor-core contractions on NVIDIA
 * (device_contract_wmma.c). */
#ifndef GPUCC_DEVICE_CONTRACT_WMMA_H
#define GPUCC_DEVICE_CONTRACT_WMMA_H

#include <mlir-c/IR.h>

/* Rewrites, in one gpu.module not yet lowered, each vector.contract that
 * every lane of a warp provably computes alike (16x16x16; f16, bf16 or
 * 8-bit operands as the gpu.module's #nvvm.target chip has them; tiles
 * read and written by in-bounds transfers, or accumulated by a k-loop)
 * into wmma (gpu.subgroup_mma_* ops, LLVM's intrinsics for bf16), behind
 * a run-time check that the warp is whole and the tiles aligned; the
 * per-thread code stays for the other case. Leaves every other
 * contraction alone. Returns the number of contractions rewritten, or -1
 * (reported). */
int lowering_contract_to_wmma(MlirOperation gpu_module);

#endif
