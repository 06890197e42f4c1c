/* target_nvvm.h: the lowering through NVVM that the NVIDIA kind and the
 * host kind share (the host rewrites what is NVIDIA-specific afterwards,
 * host_kernels.c): its pipelines and its lane reads (target_nvvm.c). */
#ifndef GPUCC_TARGET_NVVM_H
#define GPUCC_TARGET_NVVM_H

#include "target_kinds.h"

/* The lowering through NVVM, shared by NVIDIA and the host target (which
 * rewrites what is NVIDIA-specific afterwards): the vendor conversion takes
 * the math ops libdevice has; the rest (trunc, ctlz, absi, ...) become LLVM
 * intrinsics, which every backend selects. NVVM_PIPELINE_WITH adds passes
 * before convert-gpu-to-nvvm and options to it. */
#define NVVM_PIPELINE_WITH(before, gpu_to_nvvm_options)                                            \
  "builtin.module(gpu.module(" DEVICE_PREP "),convert-vector-to-llvm,gpu.module(" before           \
  "convert-gpu-to-nvvm" gpu_to_nvvm_options ",convert-math-to-llvm,convert-nvvm-to-llvm,"          \
  "canonicalize,cse,reconcile-unrealized-casts))"
#define NVVM_PIPELINE NVVM_PIPELINE_WITH("", "")

/* Lane reads in NVVM: llvm.nvvm.activemask, shfl.sync idx among the
 * active lanes, 32-lane masks; redux.sync where the kind says it has it. */
extern const struct lane_ops nvvm_lane_ops;

#endif
