/* runner_memref.c: reading memref descriptors, and upstream's memref listing.
 *
 * The listing is what FileCheck lines in MLIR's tests are written against,
 * so every space and bracket follows upstream's printer:
 *
 *   Unranked Memref base@ = 0x55d0c0 rank = 2 offset = 0 sizes = [2, 3] strides = [3, 1] data =
 *   [[1,   2,   3],
 *    [4,   5,   6]]
 *
 * ("data = " ends with a space.) Elements of a dimension are separated by
 * ", " (", \n" outside the innermost dimension) and then depth + 1 spaces,
 * where depth is the number of dimensions outside that one. A rank-0 memref
 * is its one element in brackets. A dimension of size 0 is printed as if it
 * had size 1: upstream reads (and prints) the element at the start of every
 * dimension before it looks at the size, and we print what it prints. The
 * pointer is the aligned one, in hex with 0x, or "0" for NULL. */
#include <inttypes.h>

#include "runner.h"

struct rt_memref rt_memref_ranked(const struct rt_ranked_memref *desc, int64_t rank) {
  struct rt_memref m = {
      .rank = rank,
      .data = desc->aligned,
      .offset = desc->offset,
      .sizes = rank > 0 ? desc->sizes_and_strides : NULL,
      .strides = rank > 0 ? desc->sizes_and_strides + rank : NULL,
  };
  return m;
}

struct rt_memref rt_memref_unranked(int64_t rank, const void *descriptor) {
  return rt_memref_ranked(descriptor, rank);
}

static void print_list(FILE *out, const int64_t *values, int64_t n) {
  for (int64_t i = 0; i < n; i++)
    fprintf(out, i ? ", %" PRId64 : "%" PRId64, values[i]);
}

void rt_memref_print_metadata(FILE *out, const struct rt_memref *m) {
  /* %#lx writes NULL as "0", as std::showbase does. */
  fprintf(out, "base@ = %#" PRIxPTR " rank = %" PRId64 " offset = %" PRId64 " sizes = [",
          (uintptr_t)m->data, m->rank, m->offset);
  print_list(out, m->sizes, m->rank);
  fputs("] strides = [", out);
  print_list(out, m->strides, m->rank);
  fputs("]", out);
}

static void print_spaces(FILE *out, int64_t n) {
  for (int64_t i = 0; i < n; i++)
    fputc(' ', out);
}

/* The elements of the dims innermost dimensions starting at offset; sizes
 * and strides point at the first of those dimensions. */
static void print_elements(FILE *out, const struct rt_memref *m,
                           const struct rt_elem_type *type, int64_t dims,
                           int64_t offset, const int64_t *sizes,
                           const int64_t *strides) {
  if (dims == 0) {
    type->print(out, m->data + offset * (int64_t)type->size);
    return;
  }
  int64_t indent = m->rank - dims + 1;
  const char *separator = dims > 1 ? ", \n" : ", ";
  fputc('[', out);
  /* The first element is printed whatever the size (see the head comment). */
  print_elements(out, m, type, dims - 1, offset, sizes + 1, strides + 1);
  for (int64_t i = 1; i < sizes[0]; i++) {
    fputs(separator, out);
    print_spaces(out, indent);
    print_elements(out, m, type, dims - 1, offset + i * strides[0], sizes + 1,
                   strides + 1);
  }
  fputc(']', out);
}

void rt_memref_print(const char *prefix, const struct rt_memref *m,
                     enum rt_elem_kind kind) {
  FILE *out = stdout;
  fputs(prefix, out);
  rt_memref_print_metadata(out, m);
  fputs(" data = \n", out);
  if (m->rank == 0)
    fputc('[', out);
  print_elements(out, m, &rt_elem_types[kind], m->rank, m->offset, m->sizes,
                 m->strides);
  if (m->rank == 0)
    fputc(']', out);
  fputc('\n', out);
  fflush(out);
}
