/* device_mma_cdna.h: gpu.subgroup_mma fragments on CDNA (MFMA, 64-lane
 * wavefronts): the lane layout, the MFMA instructions that multiply in it,
 * and the MLIR text of both. See device_mma_cdna.c. Nothing here touches
 * MLIR objects, so that a unit test can check the layout in plain C. */
#ifndef GPUCC_DEVICE_MMA_CDNA_H
#define GPUCC_DEVICE_MMA_CDNA_H

#include "device_mma.h"
#include "device_mma_types.h"

#include <stddef.h>

/* AMD's families of matrix units, as gpu.subgroup_mma sees them: WMMA on
 * RDNA3 and RDNA4 (wave32, device_amd_mma.c), MFMA on CDNA in one lane
 * layout (here) and three sets of instructions to multiply in it. */
enum mma_layout {
  MMA_LAYOUT_GFX11, /* RDNA3 WMMA, wave32 */
  MMA_LAYOUT_GFX12, /* RDNA4 WMMA, wave32 */
  MMA_LAYOUT_CDNA1, /* gfx908: bf16 only 16x16x8 */
  MMA_LAYOUT_CDNA2, /* gfx90a: 16x16x16 bf16 (_1k) and i8 */
  MMA_LAYOUT_CDNA3, /* gfx942, gfx950: i8 only 16x16x32 */
};

/* Lanes of a CDNA wavefront: the threads every compute needs. */
#define MMA_CDNA_LANES 64

/* Which matrix element (*row, *col) element e (< 4) of lane `lane`
 * (< 64) holds in a fragment of role 'A', 'B' or 'C'. */
void mma_cdna_element(char role, unsigned lane, unsigned e, unsigned *row, unsigned *col);

/* The fragment of matrix type m, or -1 with an explanation in why. */
int mma_cdna_fragment(const struct mma_type *m, struct fragment *f, char *why, size_t n);

/* One MFMA of a 16x16x16 product: 16x16x(4 * width), fed with elements
 * [from, from + take) of each lane's A and B fragments, zeros after them
 * up to width. */
struct mfma_step {
  unsigned from, take, width;
};

/* The MFMAs, summed in order into the accumulator, that multiply 16x16x16
 * fragments of `elem` on a layout's chips. */
struct mfma_plan {
  unsigned steps;
  struct mfma_step step[4];
};

/* The plan for operand type elem under layout (MMA_LAYOUT_CDNA*), or -1
 * when those chips have no MFMA for it. */
int mma_cdna_plan(enum mma_layout layout, const char *elem, struct mfma_plan *p);

/* The MLIR text of `func.func private @NAME(a, b, c) -> c` computing
 * C + A * B with plan p (a and b of type a->elem, c of c->elem; 16-bit
 * float accumulators go through f32), or NULL when a and c do not fit
 * one MFMA (float by i32 ...). New string. */
char *mma_cdna_compute(const struct mfma_plan *p, const struct mma_type *a, const struct mma_type *c);

/* The MLIR text of `func.func private @NAME() -> i1`: whether the block's
 * thread count is a whole number of wavefronts. New string. */
char *mma_cdna_whole_waves(void);

#endif
