/* runner_copy.c: memrefCopy, what memref.copy lowers to when either side is
 * not a contiguous identity layout.
 *
 * Both memrefs have src's rank and sizes; each has its own offset and
 * strides, in elements of elemSize bytes. Elements are copied one index at
 * a time in row-major order, so any strides work, negative and zero
 * included, and a copy between overlapping views gives upstream's result.
 * A contiguous innermost run that does not overlap its target is one
 * memcpy. Nothing is read or written when a size is 0. */
#include <string.h>

#include "runner.h"

struct copy {
  int64_t elem_size;
  int64_t rank;
  const int64_t *sizes;
  const int64_t *src_strides, *dst_strides;
};

/* Copies dimension dim and those inside it; src and dst point at their
 * first elements. */
static void copy_dims(const struct copy *c, int64_t dim, const char *src, char *dst) {
  int64_t size = c->sizes[dim];
  int64_t src_step = c->src_strides[dim] * c->elem_size;
  int64_t dst_step = c->dst_strides[dim] * c->elem_size;
  if (dim < c->rank - 1) {
    for (int64_t i = 0; i < size; i++)
      copy_dims(c, dim + 1, src + i * src_step, dst + i * dst_step);
    return;
  }
  int64_t run = size * c->elem_size;
  uintptr_t from = (uintptr_t)src, to = (uintptr_t)dst;
  if (src_step == c->elem_size && dst_step == c->elem_size &&
      (to + (uintptr_t)run <= from || from + (uintptr_t)run <= to)) {
    memcpy(dst, src, (size_t)run);
    return;
  }
  for (int64_t i = 0; i < size; i++)
    memcpy(dst + i * dst_step, src + i * src_step, (size_t)c->elem_size);
}

RT_EXPORT void memrefCopy(int64_t elemSize, struct rt_unranked_memref *srcArg,
                          struct rt_unranked_memref *dstArg) {
  struct rt_memref src = rt_memref_unranked(srcArg->rank, srcArg->descriptor);
  struct rt_memref dst = rt_memref_unranked(srcArg->rank, dstArg->descriptor);
  for (int64_t i = 0; i < src.rank; i++)
    if (src.sizes[i] == 0)
      return;
  const char *from = src.data + src.offset * elemSize;
  char *to = dst.data + dst.offset * elemSize;
  if (src.rank == 0) {
    memcpy(to, from, (size_t)elemSize);
    return;
  }
  struct copy c = {elemSize, src.rank, src.sizes, src.strides, dst.strides};
  copy_dims(&c, 0, from, to);
}
