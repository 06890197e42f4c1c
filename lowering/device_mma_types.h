/* device_mma_types.h: what device_mma.c and its per-family layout files
 * (device_mma_cdna.c) share: a matrix operand's type as gpu.subgroup_mma
 * gives it, and how one lane holds its part of that matrix. */
#ifndef GPUCC_DEVICE_MMA_TYPES_H
#define GPUCC_DEVICE_MMA_TYPES_H

#include <stdlib.h>
#include <string.h>

/* A matrix operand's type, read from !gpu.mma_matrix<16x16xf16, "AOp">. */
struct mma_type {
  unsigned rows, cols;
  char elem[32]; /* as fragments hold it: si8 and ui8 are "i8" */
  char role;     /* 'A', 'B' or 'C' */
  char sign;     /* 's' or 'u' for si8 and ui8, else 0 */
};

/* How one lane holds a fragment: a vector<size x elem> whose element
 * e * stride (e < count) holds matrix element (%row, %col). */
struct fragment {
  unsigned count;  /* matrix elements per lane */
  unsigned size;   /* vector length */
  unsigned stride; /* vector index of element e: e * stride */
  /* MLIR text defining %row and %col from %e, %lm = lane % 16 and
   * %lh = lane / 16 (and the constants %c0 %c1 %c2 %c4 %c8 %c16). */
  char position[512];
};

static inline int mma_is_float(const char *elem) { return elem[0] == 'f' || !strncmp(elem, "bf", 2); }

/* The width of a scalar type's name: 16 for "f16" and "bf16". */
static inline unsigned mma_elem_bits(const char *elem) {
  const char *p = elem;
  while (*p && (*p < '0' || *p > '9'))
    p++;
  return (unsigned)atoi(p);
}

#endif
