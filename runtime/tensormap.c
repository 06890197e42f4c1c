/* tensormap.c: mgpuTensorMapEncodeTiledMemref, TMA descriptors for sm_90+.
 *
 * nvgpu.tma.create.descriptor lowers to this call: the runtime encodes a
 * 128-byte CUtensorMap for a memref and returns a device pointer to it, which
 * the kernel receives as an argument. MLIR orders dimensions outermost first,
 * the driver innermost first, so sizes, strides and box sizes are reversed;
 * strides become bytes. Unlike upstream, the memref's offset is honoured (a
 * subview starts where it starts).
 *
 * Programs often call this inside a loop with the same memref: each distinct
 * descriptor is copied to the device once and reused, instead of leaking one
 * device allocation per call. The cache lives until the process ends. */
#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "rt.h"

#define RT_TENSOR_MAP_BYTES 128

struct rt_cached_map {
  unsigned char bytes[RT_TENSOR_MAP_BYTES];
  void *device;
  struct rt_cached_map *next;
};

static pthread_mutex_t rt_maps_lock = PTHREAD_MUTEX_INITIALIZER;
static struct rt_cached_map *rt_maps;

/* Bytes per element of each CUtensorMapDataType, 0 for those (sub-byte
 * packed types) this function does not handle. */
static int rt_element_size(int64_t data_type) {
  static const int sizes[] = {
      1, 2, 4, 4, 8, 8, /* UINT8 UINT16 UINT32 INT32 UINT64 INT64 */
      2, 4, 8, 2,       /* FLOAT16 FLOAT32 FLOAT64 BFLOAT16 */
      4, 4, 4,          /* FLOAT32_FTZ TFLOAT32 TFLOAT32_FTZ */
  };
  if (data_type < 0 || data_type >= (int64_t)(sizeof sizes / sizeof sizes[0]))
    return 0;
  return sizes[data_type];
}

/* The device copy of an encoded map: from the cache, or new. Reports
 * failures (no lock is held then) and returns NULL. */
static void *rt_map_on_device(const struct rt_backend *b, const unsigned char *map,
                              const char *fn) {
  pthread_mutex_lock(&rt_maps_lock);
  for (struct rt_cached_map *c = rt_maps; c; c = c->next) {
    if (memcmp(c->bytes, map, RT_TENSOR_MAP_BYTES) == 0) {
      void *device = c->device;
      pthread_mutex_unlock(&rt_maps_lock);
      return device;
    }
  }
  struct rt_cached_map *c = calloc(1, sizeof *c);
  struct rt_err e;
  int rc = -1;
  if (!c)
    rt_fail_msg(&e, "out of memory");
  else if (b->mem_alloc(RT_TENSOR_MAP_BYTES, 0, &c->device, &e) == 0) {
    if (b->copy_to_device(c->device, map, RT_TENSOR_MAP_BYTES, &e) == 0)
      rc = 0;
    else {
      struct rt_err ignored; /* the copy's error is the one worth reporting */
      b->mem_free(c->device, &ignored);
    }
  }
  if (rc == 0) {
    memcpy(c->bytes, map, RT_TENSOR_MAP_BYTES);
    c->next = rt_maps;
    rt_maps = c;
  }
  pthread_mutex_unlock(&rt_maps_lock);
  if (rc != 0) {
    free(c);
    rt_error_failure(fn, b, &e, "storing a TMA descriptor on the device");
    return NULL;
  }
  return c->device;
}

static int rt_has_tensor_maps(const struct rt_backend *b) {
  return b->tensor_map_encode && b->copy_to_device;
}

RT_EXPORT void *mgpuTensorMapEncodeTiledMemref(int64_t tensorRank, void *descriptor,
                                               int64_t tensorDataType, int64_t interleave,
                                               int64_t swizzle, int64_t l2Promotion,
                                               int64_t oobFill, int64_t *inputBoxDims) {
  static const char fn[] = "mgpuTensorMapEncodeTiledMemref";
  const struct rt_backend *b = rt_backend_get(fn);
  if (!b)
    return NULL;
  if (!b->tensor_map_encode || !b->copy_to_device) {
    rt_error("%s: TMA descriptors are %s; %s device '%s' has none", fn,
             rt_feature_note(rt_has_tensor_maps), b->label, rt_device()->name);
    return NULL;
  }
  int elt = rt_element_size(tensorDataType);
  if (tensorRank < 1 || tensorRank > 5 || elt == 0 || !descriptor || !inputBoxDims) {
    rt_error("%s: unsupported request: rank %" PRId64 " (1 to 5 supported), data type %" PRId64,
             fn, tensorRank, tensorDataType);
    return NULL;
  }
  /* A ranked memref descriptor: allocated, aligned, offset, sizes, strides. */
  struct {
    void *allocated;
    char *aligned;
    int64_t offset;
    int64_t rest[];
  } *d = descriptor;
  const int64_t *sizes = d->rest, *strides = d->rest + tensorRank;
  int rank = (int)tensorRank;

  struct rt_tensor_map t = {
      .data_type = (int)tensorDataType,
      .rank = (unsigned)rank,
      .address = d->aligned + d->offset * elt,
      .interleave = (int)interleave,
      .swizzle = (int)swizzle,
      .l2_promotion = (int)l2Promotion,
      .oob_fill = (int)oobFill,
  };
  for (int i = 0; i < 5; i++) {
    t.dims[i] = 1;
    t.box[i] = 1;
    t.element_strides[i] = 1;
  }
  for (int i = 0; i < rank; i++) {
    t.dims[i] = (uint64_t)sizes[rank - 1 - i];
    t.box[i] = (uint32_t)inputBoxDims[rank - 1 - i];
  }
  /* The innermost dimension is contiguous; the driver takes the strides of
   * the others, in bytes. */
  for (int i = 0; i + 1 < rank; i++)
    t.strides[i] = (uint64_t)strides[rank - 2 - i] * (uint64_t)elt;

  _Alignas(128) unsigned char map[RT_TENSOR_MAP_BYTES];
  memset(map, 0, sizeof map);
  struct rt_err e;
  if (b->tensor_map_encode(&t, map, &e) != 0) {
    rt_error_failure(fn, b, &e, NULL);
    return NULL;
  }
  return rt_map_on_device(b, map, fn);
}
