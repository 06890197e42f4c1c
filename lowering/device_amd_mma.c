/* device_amd_mma.c: AMD's chip families as device_mma.c's layouts.
 *
 * RDNA3 (gfx11) and RDNA4 (gfx12) have WMMA, written here: lane l of the
 * 32 holds, for RDNA3, 16 elements of A row / B column l % 16, and C
 * element e at (2e + l / 16, l % 16), 16-bit C types in the even halves;
 * for RDNA4, A and B 8 elements of row/column l % 16 starting at
 * 8 * (l / 16), C element e at (8 * (l / 16) + e, l % 16). One
 * amdgpu.wmma computes. CDNA's MFMA (device_mma_cdna.c) and the chips
 * without a matrix unit (device_mma_lanes.c) have files of their own; the
 * rows below tie each to device_mma.c. */
#include "device_amd_mma.h"

#include "device_mma_cdna.h"
#include "device_mma_lanes.h"
#include "xstr.h"

#include <stdio.h>
#include <string.h>

/* The WMMA fragment of matrix type m on RDNA3 (gfx11) or RDNA4. */
static int wmma_fragment(int gfx11, const struct mma_type *m, struct fragment *f, char *why,
                         size_t n) {
  int input = m->role != 'C';
  int ok_elem = input ? !strcmp(m->elem, "f16") || !strcmp(m->elem, "bf16") || !strcmp(m->elem, "i8")
                      : !strcmp(m->elem, "f32") || !strcmp(m->elem, "f16") ||
                            !strcmp(m->elem, "bf16") || !strcmp(m->elem, "i32");
  if (m->rows != 16 || m->cols != 16 || !ok_elem) {
    snprintf(why, n, "WMMA takes 16x16 matrices of f16, bf16 or i8 operands and f32, f16, bf16 or i32 "
                     "accumulators, not %ux%ux%s",
             m->rows, m->cols, m->elem);
    return -1;
  }
  const char *position;
  if (m->role == 'A') {
    f->count = gfx11 ? 16 : 8;
    position = gfx11 ? "%row = arith.addi %lm, %c0 : index\n    %col = arith.addi %e, %c0 : index\n"
                        : "%row = arith.addi %lm, %c0 : index\n    %k0 = arith.muli %lh, %c8 : index\n"
                          "    %col = arith.addi %k0, %e : index\n";
  } else if (m->role == 'B') {
    f->count = gfx11 ? 16 : 8;
    position = gfx11 ? "%row = arith.addi %e, %c0 : index\n    %col = arith.addi %lm, %c0 : index\n"
                        : "%k0 = arith.muli %lh, %c8 : index\n    %row = arith.addi %k0, %e : index\n"
                          "    %col = arith.addi %lm, %c0 : index\n";
  } else {
    f->count = 8;
    position = gfx11 ? "%e2 = arith.muli %e, %c2 : index\n    %row = arith.addi %e2, %lh : index\n"
                          "    %col = arith.addi %lm, %c0 : index\n"
                        : "%r0 = arith.muli %lh, %c8 : index\n    %row = arith.addi %r0, %e : index\n"
                          "    %col = arith.addi %lm, %c0 : index\n";
  }
  snprintf(f->position, sizeof f->position, "%s", position);
  /* RDNA3 keeps 16-bit accumulators in the low halves of 8 registers. */
  f->stride = gfx11 && m->role == 'C' && mma_elem_bits(m->elem) == 16 ? 2 : 1;
  f->size = f->count * f->stride;
  return 0;
}

static int gfx11_fragment(const struct mma_type *m, struct fragment *f, char *why, size_t n) {
  return wmma_fragment(1, m, f, why, n);
}

static int gfx12_fragment(const struct mma_type *m, struct fragment *f, char *why, size_t n) {
  return wmma_fragment(0, m, f, why, n);
}

/* One amdgpu.wmma. */
static char *wmma_compute(const struct mma_type m[3], const struct fragment f[3], char *why,
                          size_t n) {
  if (mma_unit_operands("WMMA", m, why, n) != 0)
    return NULL;
  char va[64], vb[64], vc[64];
  snprintf(va, sizeof va, "vector<%ux%s>", f[0].size, m[0].elem);
  snprintf(vb, sizeof vb, "vector<%ux%s>", f[1].size, m[1].elem);
  snprintf(vc, sizeof vc, "vector<%ux%s>", f[2].size, m[2].elem);
  return xasprintf("func.func private @NAME(%%a: %s, %%b: %s, %%c: %s) -> %s {\n"
                   "  %%d = amdgpu.wmma 16x16x16 %%a * %%b + %%c : %s, %s, %s\n"
                   "  return %%d : %s\n}\n",
                   va, vb, vc, vc, va, vb, vc, vc);
}

const struct mma_lowering amd_mma_gfx11 = {
    .unit = "WMMA", .fragment = gfx11_fragment, .compute = wmma_compute};
const struct mma_lowering amd_mma_gfx12 = {
    .unit = "WMMA", .fragment = gfx12_fragment, .compute = wmma_compute};

/* The MFMAs of family `layout`. */
static char *cdna_compute(enum mma_layout layout, const struct mma_type m[3], char *why, size_t n) {
  struct mfma_plan plan;
  if (mma_unit_operands("MFMA", m, why, n) != 0 || mma_cdna_plan(layout, m[0].elem, &plan) != 0)
    return NULL;
  return mma_cdna_compute(&plan, &m[0], &m[2]);
}

static char *cdna1_compute(const struct mma_type m[3], const struct fragment f[3], char *why, size_t n) {
  (void)f;
  return cdna_compute(MMA_LAYOUT_CDNA1, m, why, n);
}

static char *cdna2_compute(const struct mma_type m[3], const struct fragment f[3], char *why, size_t n) {
  (void)f;
  return cdna_compute(MMA_LAYOUT_CDNA2, m, why, n);
}

static char *cdna3_compute(const struct mma_type m[3], const struct fragment f[3], char *why, size_t n) {
  (void)f;
  return cdna_compute(MMA_LAYOUT_CDNA3, m, why, n);
}

/* An MFMA reads all 64 lanes of its wavefront. */
#define CDNA(compute_fn)                                                                           \
  {.unit = "MFMA",                                                                                 \
   .fragment = mma_cdna_fragment,                                                                  \
   .compute = compute_fn,                                                                          \
   .group_lanes = MMA_CDNA_LANES,                                                                  \
   .whole_groups = mma_cdna_whole_waves,                                                           \
   .group_name = "wavefronts"}
const struct mma_lowering amd_mma_cdna1 = CDNA(cdna1_compute);
const struct mma_lowering amd_mma_cdna2 = CDNA(cdna2_compute);
const struct mma_lowering amd_mma_cdna3 = CDNA(cdna3_compute);
#undef CDNA

static char *lanes_compute(const struct mma_type m[3], const struct fragment f[3], char *why, size_t n) {
  (void)f, (void)why, (void)n;
  return mma_lanes_compute(&m[0], &m[1], &m[2]);
}

/* Shuffles within 32-lane groups: the same need of whole groups as MFMA. */
const struct mma_lowering amd_mma_lanes = {
    .unit = "gpucc's lane lowering",
    .fragment = mma_lanes_fragment,
    .compute = lanes_compute,
    .group_lanes = MMA_LANES_GROUP,
    .whole_groups = mma_lanes_whole_groups,
    .group_name = "groups",
};
