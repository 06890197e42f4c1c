/* device_mma.h: gpu.subgroup_mma_* written as per-lane fragments, for the
 * targets whose LLVM 22 conversion has no lowering of them (AMD's WMMA and
 * MFMA chips, its chips without a matrix unit, the host). See device_mma.c. */
#ifndef GPUCC_DEVICE_MMA_H
#define GPUCC_DEVICE_MMA_H

#include <mlir-c/IR.h>

/* How a subgroup's matrix fragment is spread over its lanes. */
enum mma_layout {
  MMA_LAYOUT_LANES, /* no matrix unit (gfx900, gfx906, RDNA2): 32-lane
                       groups, shuffles and multiply-adds
                       (device_mma_lanes.c) */
  MMA_LAYOUT_WHOLE, /* every lane holds the whole matrix (the host) */
  MMA_LAYOUT_GFX11, /* RDNA3 WMMA, wave32 */
  MMA_LAYOUT_GFX12, /* RDNA4 WMMA, wave32 */
  /* CDNA MFMA, wave64: one lane layout (device_mma_cdna.c), three sets of
   * instructions to multiply in it */
  MMA_LAYOUT_CDNA1, /* gfx908: bf16 only 16x16x8 */
  MMA_LAYOUT_CDNA2, /* gfx90a: 16x16x16 bf16 (_1k) and i8 */
  MMA_LAYOUT_CDNA3, /* gfx942, gfx950: i8 only 16x16x32 */
  MMA_LAYOUT_NVVM,  /* NVIDIA wmma: LLVM lowers the ops, gpucc only the
                       elementwise ones (on the fragment's LLVM struct) */
};

/* Rewrites the gpu.subgroup_mma ops inside gpu_module for `layout`;
 * `target` names the target in errors ("target 'gfx942'"). Fragments become
 * vectors, the ops calls of private functions made here. An op the layout
 * cannot hold is a located error. Returns 0 or -1 (reported). */
int lowering_expand_mma(MlirOperation gpu_module, enum mma_layout layout, const char *target);

#endif
