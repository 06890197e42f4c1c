/* target_kinds.h: the kinds of target and their pipelines, inside lowering/.
 *
 * targets.h gives the driver what it needs of a kind (files, tools, fat
 * binary); struct target_lowering is the rest, which needs MLIR: how
 * device.c lowers and serializes the gpu.modules for a target of the kind.
 * Each kind lives in its own file: target_nvidia.c, target_amd.c,
 * target_host.c (target_nvvm.c: the NVVM lowering the NVIDIA and host
 * kinds share). Whatever differs between vendors is a field here or in
 * struct target_kind: the shared rewrites (device*.c) ask the row and name
 * no vendor. */
#ifndef GPUCC_TARGET_KINDS_H
#define GPUCC_TARGET_KINDS_H

#include "lowering.h"
#include "targets.h"

#include <mlir-c/IR.h>
#include <stdio.h>

/* How a kind's device code reads other lanes, as MLIR text of the dialect
 * its pipeline lowers gpu ops to: what device_subgroup.c's reductions over
 * the lanes that reach them are made of. Each hook writes lines of a
 * function body to o. */
struct lane_ops {
  /* The widest subgroup whose lanes it reads (32, 64): masks are i32, or
   * i64 for 64 lanes. */
  unsigned max_width;
  /* Defines %active, a mask of type `mask` of the lanes here. */
  void (*active)(FILE *o, const char *mask);
  /* Defines %v<k>, the i32 value `piece` of lane `lane` (an i32 value),
   * one of %active. */
  void (*read_lane)(FILE *o, int k, const char *piece, const char *lane);
  /* Defines %r, the whole subgroup's i32 reduction of %x among %active,
   * `op` one of add, and, or, xor, min, max, umin, umax. NULL: none (and
   * the kind's has_redux is NULL too). */
  void (*reduce)(FILE *o, const char *op);
  /* Its gpu.shuffle moves 32- and 64-bit values only: narrower scalars and
   * vectors, and gpu.all_reduce of narrow types, are widened first. */
  int shuffles_wide_only;
};

struct target_lowering {
  /* Names the target in messages: "target 'sm_90'", "the host target". */
  void (*describe)(const struct target *t, char *buf, size_t size);
  /* The target attribute text of the kind's dialect for the gpu.modules. */
  void (*attr)(char *buf, size_t size, const struct target *t, int opt);
  /* The pipeline down to LLVM-dialect (and vendor-dialect) ops only.
   * Returns nonzero when buf is too small. */
  int (*pipeline)(char *buf, size_t size, const struct target *t);
  /* Line tables and serialization ("builtin.module()" for none). */
  int (*serialize)(char *buf, size_t size, const struct target *t, const struct toolchain *tc,
                   int debug);
  /* The op-name prefixes of the kind's dialect ops that its pipeline
   * leaves for translation to LLVM IR (intrinsics), beside llvm.* ops:
   * anything else left is reported. NULL-terminated; NULL: none. */
  const char *const *lowered;
  /* The attribute its conversion marks kernels (llvm.func) with, beside
   * gpu.kernel; NULL: none. */
  const char *kernel_attr;
  /* Lanes in a subgroup (warp, wavefront) of this target. */
  unsigned (*subgroup_width)(const struct target *t);
  /* Lane reads (device_subgroup.c's divergent reductions). NULL: none. */
  const struct lane_ops *lanes;
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
  /* Code generation, when the kind's serialization stops at optimized
   * LLVM bitcode (format=llvm): writes the device file of target t at
   * out_path from one gpu.module's bitcode. Code generation is the only
   * step that reads the chip, so the chips of a family (`family`) share
   * the rest (device.c). parts->n > 1: the device file is also written
   * in that many parts, at parts->paths (struct target_kind's
   * finish_parts). NULL: the serialized objects are the files. Returns 0
   * or -1 (reported). */
  int (*codegen)(const char *bitcode, size_t size, const struct target *t,
                 const struct toolchain *tc, int opt, const struct device_parts *parts,
                 const char *out_path);
  /* A chip's family (device_family.c): chips of one kind and family
   * lower a program to the same LLVM dialect unless it uses an op named
   * by `chip_ops` (prefixes), so one device job lowers (and, unless
   * `links_chip_code`, optimizes) their gpu.modules once and runs
   * `codegen` per chip. Needs codegen. NULL, or a NULL result: none. */
  const char *(*family)(const struct target *t);
  const char *const *chip_ops;
  /* Whether optimizing the lowered module (lowered for target t) links
   * library code that reads the chip (a device library's ISA version,
   * libdevice's __CUDA_ARCH): then each chip of a family is optimized on
   * its own, from the shared lowering. NULL: never. */
  int (*links_chip_code)(MlirModule lowered);
  /* Writes the device files itself from the lowered module, which holds
   * the gpu.modules of range r in order (in place of the serialized
   * objects). NULL: the serialized objects are the files. */
  int (*write_objects)(MlirModule dev, int opt, const struct module_range *r,
                       const char *const *out_paths);
};

/* Whether the lowered module has an llvm.func (a definition or a
 * declaration) whose name starts with one of prefixes (NULL-terminated):
 * for the kinds' links_chip_code (device_family.c). */
int lowering_has_function(MlirModule lowered, const char *const *prefixes);

/* The target attribute that host code's gpu.binary ops give their one
 * object (host.c): only a label, as the fat binary's bytes come in by
 * symbol, but the ops want one; the host kind's (target_host.c). */
extern const char *const lowering_binary_label;

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

/* -g: line tables from the MLIR locations (the pass only runs on a
 * builtin.module, where it also reaches the nested gpu.modules). */
#define DEBUG_INFO "ensure-debug-info-scope-on-llvm-func{emission-kind=LineTablesOnly},"

#endif
