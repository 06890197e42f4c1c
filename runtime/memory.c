/* memory.c: allocation, copies, fills and host registration.
 *
 * Empty requests (0 bytes, 0 elements, a NULL pointer to free) do nothing and
 * need no device, so that a program working on empty data runs anywhere.
 * The MemRef variants of host registration receive an unranked memref from
 * gpu.host_register; they register the bytes that its elements span, computed
 * from the real sizes and strides (so non-contiguous views work too), rather
 * than assuming a dense row-major layout.
 *
 * Every pointer mgpuMemAlloc hands out is recorded until mgpuMemFree takes
 * it back (live_allocs.h): freeing anything else, twice or memory that
 * gpu.alloc never made, is reported, naming the gpu.dealloc when compiled
 * code said where it is (op_site.h), instead of reaching the driver or
 * glibc, which abort or corrupt memory. A size of 2^63 bytes or more can
 * only come from a negative or overflowing size computation: reported as
 * such (compiled code checks its sizes before, with a location). */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>

#include "live_allocs.h"
#include "op_site.h"
#include "rt.h"

RT_EXPORT void *mgpuMemAlloc(uint64_t sizeBytes, void *stream, bool isHostShared) {
  static const char fn[] = "mgpuMemAlloc";
  (void)stream; /* allocation is synchronous, as in upstream's runtime */
  if (sizeBytes == 0)
    return NULL;
  const struct rt_backend *b = rt_backend_get(fn);
  if (!b)
    return NULL;
  void *ptr = NULL;
  struct rt_err e;
  if (sizeBytes > INT64_MAX || sizeBytes > SIZE_MAX ||
      b->mem_alloc((size_t)sizeBytes, isHostShared, &ptr, &e) != 0) {
    if (sizeBytes > INT64_MAX)
      rt_fail_msg(&e, "cannot allocate %" PRIu64 " bytes (a negative or overflowing size)",
                  sizeBytes);
    else if (sizeBytes > SIZE_MAX)
      rt_fail_msg(&e, "cannot allocate %" PRIu64 " bytes", sizeBytes);
    char what[128];
    snprintf(what, sizeof what, "allocating %" PRIu64 " bytes%s", sizeBytes,
             isHostShared ? " of host-shared (managed) memory" : "");
    rt_error_failure(fn, b, &e, what);
    return NULL;
  }
  if (rt_live_add(ptr) != 0) {
    b->mem_free(ptr, &e);
    rt_error("%s: out of memory recording an allocation of %" PRIu64 " bytes", fn, sizeBytes);
    return NULL;
  }
  return ptr;
}

RT_EXPORT void mgpuMemFree(void *ptr, void *stream) {
  static const char fn[] = "mgpuMemFree";
  (void)stream; /* synchronous */
  const char *where = rt_op_site_take();
  if (!ptr)
    return;
  if (!rt_live_remove(ptr)) {
    if (where)
      rt_error("%s: gpu.dealloc: %p was not allocated by gpu.alloc or was already freed", where,
               ptr);
    else
      rt_error("%s: %p was not allocated by gpu.alloc or was already freed", fn, ptr);
    return;
  }
  const struct rt_backend *b = rt_backend_get(fn);
  if (!b)
    return;
  struct rt_err e;
  if (b->mem_free(ptr, &e) != 0)
    rt_error_failure(fn, b, &e, NULL);
}

RT_EXPORT void mgpuMemcpy(void *dst, void *src, size_t sizeBytes, void *stream) {
  static const char fn[] = "mgpuMemcpy";
  if (sizeBytes == 0)
    return;
  const struct rt_backend *b = rt_backend_get(fn);
  if (!b)
    return;
  struct rt_err e;
  if (b->mem_copy(dst, src, sizeBytes, stream, &e) != 0) {
    char what[128];
    snprintf(what, sizeof what, "copying %zu bytes from %p to %p", sizeBytes, src, dst);
    rt_error_failure(fn, b, &e, what);
  }
}

RT_EXPORT void mgpuMemset32(void *dst, uint32_t value, size_t count, void *stream) {
  static const char fn[] = "mgpuMemset32";
  if (count == 0)
    return;
  const struct rt_backend *b = rt_backend_get(fn);
  if (!b)
    return;
  struct rt_err e;
  if (b->mem_set32(dst, value, count, stream, &e) != 0)
    rt_error_failure(fn, b, &e, NULL);
}

RT_EXPORT void mgpuMemset16(void *dst, uint16_t value, size_t count, void *stream) {
  static const char fn[] = "mgpuMemset16";
  if (count == 0)
    return;
  const struct rt_backend *b = rt_backend_get(fn);
  if (!b)
    return;
  struct rt_err e;
  if (b->mem_set16(dst, value, count, stream, &e) != 0)
    rt_error_failure(fn, b, &e, NULL);
}

RT_EXPORT void mgpuMemHostRegister(void *ptr, uint64_t sizeBytes) {
  static const char fn[] = "mgpuMemHostRegister";
  if (!ptr || sizeBytes == 0)
    return;
  const struct rt_backend *b = rt_backend_get(fn);
  if (!b)
    return;
  struct rt_err e;
  if (b->host_register(ptr, (size_t)sizeBytes, &e) != 0) {
    char what[128];
    snprintf(what, sizeof what, "registering %" PRIu64 " bytes at %p", sizeBytes, ptr);
    rt_error_failure(fn, b, &e, what);
  }
}

RT_EXPORT void mgpuMemHostUnregister(void *ptr) {
  static const char fn[] = "mgpuMemHostUnregister";
  if (!ptr)
    return;
  const struct rt_backend *b = rt_backend_get(fn);
  if (!b)
    return;
  struct rt_err e;
  if (b->host_unregister(ptr, &e) != 0)
    rt_error_failure(fn, b, &e, NULL);
}

/* A ranked memref descriptor: sizes[rank] then strides[rank] follow offset. */
struct rt_memref {
  void *allocated;
  char *aligned;
  int64_t offset;
  int64_t sizes_strides[];
};

/* Finds the first byte and the length of the range the memref's elements
 * occupy. Returns 0 (bytes = 0 for an empty memref), or -1 with a reason. */
static int rt_memref_span(int64_t rank, const struct rt_memref *d, int64_t elt,
                          char **start, size_t *bytes, const char **why) {
  *bytes = 0;
  if (!d || rank < 0 || elt <= 0) {
    *why = "invalid descriptor, rank or element size";
    return -1;
  }
  const int64_t *sizes = d->sizes_strides, *strides = d->sizes_strides + rank;
  /* lo/hi: offsets in elements, relative to d->offset, of the lowest and
   * highest element (strides may be negative). */
  int64_t lo = 0, hi = 0;
  for (int64_t i = 0; i < rank; i++) {
    if (sizes[i] < 0) {
      *why = "negative size";
      return -1;
    }
    if (sizes[i] == 0)
      return 0;
    int64_t extent;
    if (__builtin_mul_overflow(sizes[i] - 1, strides[i], &extent)) {
      *why = "sizes and strides overflow";
      return -1;
    }
    int64_t *side = extent < 0 ? &lo : &hi;
    if (__builtin_add_overflow(*side, extent, side)) {
      *why = "sizes and strides overflow";
      return -1;
    }
  }
  int64_t count, first, nbytes, first_byte;
  if (__builtin_sub_overflow(hi, lo, &count) || __builtin_add_overflow(count, 1, &count) ||
      __builtin_mul_overflow(count, elt, &nbytes) ||
      __builtin_add_overflow(d->offset, lo, &first) ||
      __builtin_mul_overflow(first, elt, &first_byte)) {
    *why = "sizes and strides overflow";
    return -1;
  }
  *start = d->aligned + first_byte;
  *bytes = (size_t)nbytes;
  return 0;
}

RT_EXPORT void mgpuMemHostRegisterMemRef(int64_t rank, void *descriptor,
                                         int64_t elementSizeBytes) {
  static const char fn[] = "mgpuMemHostRegisterMemRef";
  char *start = NULL;
  size_t bytes;
  const char *why = NULL;
  if (rt_memref_span(rank, descriptor, elementSizeBytes, &start, &bytes, &why) != 0) {
    rt_error("%s: cannot register a rank-%" PRId64 " memref: %s", fn, rank, why);
    return;
  }
  if (bytes == 0)
    return;
  const struct rt_backend *b = rt_backend_get(fn);
  if (!b)
    return;
  struct rt_err e;
  if (b->host_register(start, bytes, &e) != 0) {
    char what[128];
    snprintf(what, sizeof what, "registering %zu bytes at %p", bytes, (void *)start);
    rt_error_failure(fn, b, &e, what);
  }
}

RT_EXPORT void mgpuMemHostUnregisterMemRef(int64_t rank, void *descriptor,
                                           int64_t elementSizeBytes) {
  static const char fn[] = "mgpuMemHostUnregisterMemRef";
  char *start = NULL;
  size_t bytes;
  const char *why = NULL;
  if (rt_memref_span(rank, descriptor, elementSizeBytes, &start, &bytes, &why) != 0) {
    rt_error("%s: cannot unregister a rank-%" PRId64 " memref: %s", fn, rank, why);
    return;
  }
  if (bytes == 0)
    return;
  const struct rt_backend *b = rt_backend_get(fn);
  if (!b)
    return;
  struct rt_err e;
  if (b->host_unregister(start, &e) != 0)
    rt_error_failure(fn, b, &e, NULL);
}
