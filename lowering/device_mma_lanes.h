/* device_mma_lanes.h: gpu.subgroup_mma fragments on AMD chips with no
 * matrix unit (gfx900, gfx906, RDNA2): each group of 32 lanes holds the
 * matrix, a slice a lane, and compute multiplies with cross-lane shuffles
 * and plain multiply-adds. See device_mma_lanes.c. Nothing here touches
 * MLIR objects, so that a unit test can check the layout in plain C. */
#ifndef GPUCC_DEVICE_MMA_LANES_H
#define GPUCC_DEVICE_MMA_LANES_H

#include "device_mma_types.h"

#include <stddef.h>

/* Lanes that hold one fragment: a 32-lane group, the whole wavefront on
 * wave32 chips and each half of it on wave64 ones. */
#define MMA_LANES_GROUP 32
/* Elements of a 16x16 fragment per lane. */
#define MMA_LANES_COUNT 8

/* Which matrix element (*row, *col) element e (< 8) of lane `lane` holds;
 * the same for every role, and only lane % 32 counts. */
void mma_lanes_element(unsigned lane, unsigned e, unsigned *row, unsigned *col);

/* The fragment of matrix type m, or -1 with an explanation in why. */
int mma_lanes_fragment(const struct mma_type *m, struct fragment *f, char *why, size_t n);

/* Where a lane of compute finds an operand element: lane
 * group + h * lane_h + lm * lane_m + offset (h = lane % 32 / 16,
 * lm = lane % 16, group = lane - lane % 32) sends its element `elem`. */
struct lanes_source {
  unsigned lane_h, lane_m, offset, elem;
};

/* For step k (< 16) of the product and accumulator element e of a lane:
 * the lane and element holding A[row of e][k] (role 'A') or
 * B[k][column of e] (role 'B'). lane_h and lane_m are the same for every
 * k and e of a role, elem is the same for every lane. */
void mma_lanes_source(char role, unsigned k, unsigned e, struct lanes_source *s);

/* The MLIR text of `func.func private @NAME(a, b, c) -> c` computing
 * C + A * B over the lanes' fragments (vector<8 x elem> each), or NULL when
 * the element types do not combine (float by integer). Products are summed
 * in f32 (f64 for f64 matrices, i32 for integers: si8 and ui8 widened by
 * their sign) and rounded to C's type once. New string. */
char *mma_lanes_compute(const struct mma_type *a, const struct mma_type *b, const struct mma_type *c);

/* The MLIR text of `func.func private @NAME() -> i1`: whether the block's
 * thread count is a whole number of 32-lane groups. New string. */
char *mma_lanes_whole_groups(void);

#endif
