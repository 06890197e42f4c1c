/* target_kinds.h: the kinds of target and their pipelines, inside lowering/.
 *
 * targets.h gives the driver what it needs of a kind (files, tools, fat
 * binary); struct target_lowering is the rest, which needs MLIR: how
 * device.c lowers and serializes the gpu.modules for a target of the kind.
 * Each kind lives in its own file: target_nvidia.c, target_amd.c,
 * target_host.c. */
#ifndef GPUCC_TARGET_KINDS_H
#define GPUCC_TARGET_KINDS_H

#include "lowering.h"
#include "targets.h"

#include <mlir-c/IR.h>

/* How device code reads another lane's value: the dialect the kind's
 * pipeline lowers gpu ops to (NVVM also for the host, which rewrites NVVM
 * for the CPU). */
enum lane_dialect { LANES_NONE, LANES_NVVM, LANES_ROCDL };

struct target_lowering {
  /* Names the target in messages: "target 'sm_90'", "the host target". */
  void (*describe)(const struct target *t, char *buf, size_t size);
  /* The #nvvm.target / #rocdl.target attribute text for the gpu.modules. */
  void (*attr)(char *buf, size_t size, const struct target *t, int opt);
  /* The pipeline down to LLVM-dialect (and vendor-dialect) ops only.
   * Returns nonzero when buf is too small. */
  int (*pipeline)(char *buf, size_t size, const struct target *t);
  /* Line tables and serialization ("builtin.module()" for none). */
  int (*serialize)(char *buf, size_t size, const struct target *t, const struct toolchain *tc,
                   int debug);
  /* Lanes in a subgroup (warp, wavefront) of this target. */
  unsigned (*subgroup_width)(const struct target *t);
  /* The dialect of lane reads (device_subgroup.c's divergent reductions). */
  enum lane_dialect lanes;
  /* Whether the pipeline turns whole-subgroup i32 reductions into
   * redux.sync. NULL: never. */
  int (*has_redux)(const struct target *t);
  /* Rewrites one gpu.module for target t first, before gpucc's own
   * expansions (gpu.subgroup_id, math.ipowi ... are still ops). NULL: none.
   * Returns 0 or -1 (reported). */
  int (*early_module)(MlirOperation gpu_module, const struct target *t);
  /* Rewrites one gpu.module for target t before its pipeline runs.
   * NULL: none. Returns 0 or -1 (reported). */
  int (*prepare_module)(MlirOperation gpu_module, const struct target *t);
  /* Checks one serialized object. NULL: none. Returns 0 or -1 (reported). */
  int (*check_object)(const char *data, size_t size, const struct target *t,
                      const struct toolchain *tc);
  /* Gives a lowered kernel (an llvm.func) the launch limits the kind's code
   * generator takes: at most GPUCC_MAX_BLOCK_THREADS threads per block, or
   * exactly the block its known_block_size promises. NULL: none. */
  void (*launch_bounds)(MlirOperation kernel);
  /* Rewrites one lowered gpu.module for the kind's code generator. NULL:
   * none. */
  void (*finish_module)(MlirOperation gpu_module);
  /* LLVM command-line options the kind's code generator needs, set in the
   * device job's process (which lowers for this one target) before
   * serialization. NULL-terminated; NULL: none. */
  const char *const *llvm_options;
  /* Writes the device files itself from the lowered module, which holds
   * the gpu.modules of range r in order (in place of the serialized
   * objects). NULL: the serialized objects are the files. */
  int (*write_objects)(MlirModule dev, int opt, const struct module_range *r,
                       const char *const *out_paths);
};

extern const struct target_kind target_kind_nvidia;
extern const struct target_kind target_kind_amd;
extern const struct target_kind target_kind_host;

/* Common to every kind, inside each gpu.module: what the frontend left of
 * linalg becomes loops, vector transfers scf, affine scf, complex arith and
 * math, arith ops without an LLVM twin (ceildivsi, maxnumf, ...) are
 * expanded, then structured control flow and memref metadata (subviews,
 * expand/collapse_shape: affine again, hence the second lower-affine)
 * become LLVM-ready form. */
#define DEVICE_PREP                                                                                \
  "convert-linalg-to-loops,convert-vector-to-scf,lower-affine,convert-complex-to-standard,"        \
  "arith-expand,convert-scf-to-cf,"                                                                \
  "expand-strided-metadata,lower-affine"

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

/* NVIDIA's own: the nvgpu dialect too (mma.sync, ldmatrix, cp.async, TMA,
 * mbarriers, wgmma: NVIDIA-only instructions, so not for the host target,
 * whose leftover check then names them). On sm_80 and newer the full-warp
 * i32 reductions device_subgroup.c leaves become redux.sync (has-redux);
 * the host target cannot run redux, so NVVM_PIPELINE never has it. */
#define NVIDIA_NVGPU "convert-nvgpu-to-nvvm,"
#define NVIDIA_PIPELINE NVVM_PIPELINE_WITH(NVIDIA_NVGPU, "")
#define NVIDIA_PIPELINE_REDUX NVVM_PIPELINE_WITH(NVIDIA_NVGPU, "{has-redux}")

/* -g: line tables from the MLIR locations (the pass only runs on a
 * builtin.module, where it also reaches the nested gpu.modules). */
#define DEBUG_INFO "ensure-debug-info-scope-on-llvm-func{emission-kind=LineTablesOnly},"

#endif
