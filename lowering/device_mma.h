/* device_mma.h: gpu.subgroup_mma_* written as per-lane fragments, for the
 * targets whose LLVM 22 conversion has no lowering of them. How a chip's
 * lanes hold a fragment, and what computes on it, is its kind's (struct
 * mma_layout, given by the kind's prepare_module); device_mma.c writes the
 * ops from it. See device_mma.c. */
#ifndef GPUCC_DEVICE_MMA_H
#define GPUCC_DEVICE_MMA_H

#include "device_mma_types.h"

#include <mlir-c/IR.h>
#include <stddef.h>

/* How a subgroup's matrix fragments are spread over its lanes, and what
 * the chips compute with: one per family of chips, in its kind's files. */
struct mma_lowering {
  /* Names what computes, in errors: "WMMA", "MFMA". */
  const char *unit;
  /* The fragment of matrix type m, or -1 with an explanation in why. */
  int (*fragment)(const struct mma_type *m, struct fragment *f, char *why, size_t n);
  /* The text of `func.func private @NAME(a, b, c) -> c` computing
   * C + A * B on fragments f of matrix types m (A, B, C), or NULL with
   * why: an explanation, or "" for "<unit> has no A x B -> C". New string. */
  char *(*compute)(const struct mma_type m[3], const struct fragment f[3], char *why, size_t n);
  /* Only the subgroup's first lane loads and stores (the host, whose
   * lanes run one after another and each hold the whole matrix). */
  int lead_lane_moves;
  /* A compute reads the registers of every lane of a group of
   * `group_lanes` (0: none): each compute and store then first checks
   * that the block is whole groups, with the function text whole_groups
   * gives; group_name names such a group in the message ("wavefronts"). */
  int group_lanes;
  char *(*whole_groups)(void);
  const char *group_name;
  /* Where the kind's own conversion lowers the matrix ops but for the
   * elementwise ones: rewrites one of those (kind "addf"), and
   * device_mma.c touches nothing else. NULL: device_mma.c writes every op.
   * Returns 0 or -1 (reported). */
  int (*elementwise)(MlirOperation gpu_module, MlirOperation op, const char *kind,
                     const char *target);
};

/* Every lane holds the whole matrix, row-major, and C += A * B loops over
 * it: no lane exchange, so it fits any subgroup (the host's layout). */
extern const struct mma_lowering mma_lowering_whole;

/* Rewrites the gpu.subgroup_mma ops inside gpu_module for `layout`;
 * `target` names the target in errors ("target 'gfx942'"). Fragments become
 * vectors, the ops calls of private functions made here. An op the layout
 * cannot hold is a located error. Returns 0 or -1 (reported). */
int lowering_expand_mma(MlirOperation gpu_module, const struct mma_lowering *layout, const char *target);

/* ---- for the kinds' layouts ---- */

/* Reads !gpu.mma_matrix<16x16xf16, "AOp">. 0 or -1. */
int mma_read_type(MlirType t, struct mma_type *m);

/* Adds the function whose text is `body` (with "@NAME" where the name
 * goes) to gpu_module unless there already, and writes its name. 0 or -1. */
int mma_add_function(MlirOperation gpu_module, const char *body, char *name, size_t size);

/* The arith op of an elementwise kind that has one ("addf": arith.addf),
 * or NULL (extf, negates). */
const char *mma_elementwise_arith(const char *kind);

/* For a matrix unit: whether it can multiply A and B into C at all (the
 * same operand types; i8 with i32 only), "" in why when not; and 8-bit
 * operands signed, an explanation in why when not. 0 or -1. */
int mma_unit_operands(const char *unit, const struct mma_type m[3], char *why, size_t n);

/* Constants %c0 %c1 %c2 %c4 %c8 %c16 (index), for function texts. */
extern const char mma_prologue[];

#endif
