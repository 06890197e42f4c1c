/* runner.h: what the runner-utility files (runtime/runner/) share.
 *
 * A memref reaches them ranked or unranked (runner_abi.h); both are turned
 * into a struct rt_memref view first, so that printing, verifying and copying
 * are written once for any rank. Element types are rows of one table
 * (rt_elem_types): size, how upstream prints one, and when verifyMemRef
 * counts two as equal. Everything here is hidden; only runner_abi.h's
 * functions are exported. */
#ifndef GPUCC_RUNNER_H
#define GPUCC_RUNNER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "rt.h"
#include "runner_abi.h"

/* ---- runner_memref.c: descriptors ---- */

/* A memref of any rank: element i0..in-1 is at
 * data + (offset + sum(i_k * strides[k])) * element size. */
struct rt_memref {
  int64_t rank;
  char *data; /* the aligned pointer */
  int64_t offset;
  const int64_t *sizes;   /* rank entries; NULL when rank is 0 */
  const int64_t *strides; /* rank entries; NULL when rank is 0 */
};

/* The view of a ranked descriptor whose rank the caller knows. */
struct rt_memref rt_memref_ranked(const struct rt_ranked_memref *desc, int64_t rank);
/* The view of an unranked memref (rank and descriptor pointer). */
struct rt_memref rt_memref_unranked(int64_t rank, const void *descriptor);

/* ---- runner_element.c: element types ---- */

enum rt_elem_kind {
  RT_ELEM_I8,
  RT_ELEM_I16,
  RT_ELEM_I32,
  RT_ELEM_I64,
  RT_ELEM_INDEX,
  RT_ELEM_F16,
  RT_ELEM_BF16,
  RT_ELEM_F32,
  RT_ELEM_F64,
  RT_ELEM_C32,
  RT_ELEM_C64,
  RT_ELEM_V4X4F32,
  RT_ELEM_COUNT
};

struct rt_elem_type {
  size_t size; /* bytes */
  /* Writes one element as upstream's std::ostream << does. */
  void (*print)(FILE *out, const void *elem);
  /* verifyMemRef's rule: true when actual counts as equal to expected. */
  bool (*matches)(const void *actual, const void *expected);
};

/* Indexed by enum rt_elem_kind. */
extern const struct rt_elem_type rt_elem_types[RT_ELEM_COUNT];

/* ---- runner_half.c: 16-bit floats ---- */

/* Exact conversions (every f16 and bf16 value is a float), NaN payload and
 * sign kept, as upstream's do. */
float rt_f16_to_float(uint16_t bits);
float rt_bf16_to_float(uint16_t bits);

/* ---- runner_memref.c: upstream's memref listing ---- */

/* "base@ = 0x... rank = R offset = O sizes = [..] strides = [..]" */
void rt_memref_print_metadata(FILE *out, const struct rt_memref *m);
/* prefix ("Memref " or "Unranked Memref "), the metadata, " data = \n", the
 * elements as nested brackets, "\n"; then stdout is flushed. */
void rt_memref_print(const char *prefix, const struct rt_memref *m,
                     enum rt_elem_kind kind);

#endif
