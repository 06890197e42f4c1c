/* vulkan_memory.c: gpu.alloc memory as Vulkan buffers, and copies and fills.
 *
 * mgpuMemAlloc hands the program a buffer device address (what kernels
 * take: gpucc's ABI passes PhysicalStorageBuffer pointers), so that the
 * mgpu* ABI is the same as on CUDA and HIP. Each allocation is its own
 * VkBuffer with its own memory, 255 bytes larger than asked so that the
 * address handed out can be rounded up to 256 bytes (gpucc's kernels
 * assume gpu.alloc's alignment: kernel_alignment.c). A table sorted by
 * address finds the buffer behind any pointer into an allocation, for
 * copies, fills and frees.
 *
 * Memory is device-local and, where the device has such a type,
 * host-visible and coherent too (lavapipe, integrated GPUs, resizable BAR):
 * then host<->device copies go through the mapping once the stream's
 * earlier work is done; otherwise through a staging buffer. Device to
 * device is vkCmdCopyBuffer, a 32-bit fill vkCmdFillBuffer; a 16-bit fill
 * fills the whole 32-bit words with the pattern twice and copies the odd
 * halfwords at either end from a small staging buffer, since Vulkan fills
 * only whole words.
 *
 * A pointer in no allocation is host memory. Where a device address could
 * equal a host pointer (never on lavapipe, whose addresses are its
 * mappings), such a pointer would be taken for device memory: a known
 * limit, runtime/README.md says so. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "vulkan_rt.h"

#define VK_ALIGN 256

struct vk_alloc {
  uint64_t user;      /* the address handed out */
  uint64_t size;      /* bytes asked for */
  uint64_t offset;    /* of user within the buffer */
  VkBuffer buffer;
  VkDeviceMemory memory;
  unsigned char *map; /* the buffer's first byte on the host, or NULL */
};

static pthread_mutex_t vk_allocs_lock = PTHREAD_MUTEX_INITIALIZER;
static struct vk_alloc *vk_allocs; /* sorted by user */
static size_t vk_nallocs, vk_allocs_cap;

/* The index of the allocation holding p, or -1 (lock held). */
static long vk_find(uint64_t p) {
  size_t lo = 0, hi = vk_nallocs;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (vk_allocs[mid].user <= p)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (lo == 0)
    return -1;
  const struct vk_alloc *a = &vk_allocs[lo - 1];
  return p - a->user < a->size ? (long)(lo - 1) : -1;
}

/* The allocation holding [p, p + bytes): 1 and *a, 0 when p is in none,
 * -1 (e set) when the range runs past its end. */
static int vk_lookup(const void *p, size_t bytes, struct vk_alloc *a, struct rt_err *e) {
  uint64_t addr = (uint64_t)(uintptr_t)p;
  pthread_mutex_lock(&vk_allocs_lock);
  long i = vk_find(addr);
  if (i >= 0)
    *a = vk_allocs[i];
  pthread_mutex_unlock(&vk_allocs_lock);
  if (i < 0)
    return 0;
  if (bytes > a->size - (addr - a->user))
    return rt_fail_msg(e, "%zu bytes at %p run past the end of its gpu.alloc buffer (%" PRIu64
                          " bytes at 0x%" PRIx64 ")",
                       bytes, p, a->size, a->user);
  a->offset += addr - a->user; /* now: of p within the buffer */
  return 1;
}

static int vk_allocs_insert(const struct vk_alloc *a) {
  pthread_mutex_lock(&vk_allocs_lock);
  if (vk_nallocs == vk_allocs_cap) {
    size_t cap = vk_allocs_cap ? vk_allocs_cap * 2 : 64;
    struct vk_alloc *grown = realloc(vk_allocs, cap * sizeof *grown);
    if (!grown) {
      pthread_mutex_unlock(&vk_allocs_lock);
      return -1;
    }
    vk_allocs = grown;
    vk_allocs_cap = cap;
  }
  size_t i = vk_nallocs;
  while (i > 0 && vk_allocs[i - 1].user > a->user) {
    vk_allocs[i] = vk_allocs[i - 1];
    i--;
  }
  vk_allocs[i] = *a;
  vk_nallocs++;
  pthread_mutex_unlock(&vk_allocs_lock);
  return 0;
}

/* GPUCC_VULKAN_STAGING=1: copy through staging buffers even where gpu.alloc
 * memory is host-visible, as on a discrete GPU without resizable BAR; the
 * way to test that path on lavapipe, whose one memory type is host-visible. */
static int vk_force_staging(void) {
  static int cached = -1;
  if (cached < 0) {
    const char *v = getenv("GPUCC_VULKAN_STAGING");
    cached = v && *v && strcmp(v, "0") != 0;
  }
  return cached;
}

int vk_mem_alloc(size_t bytes, int host_shared, void **ptr, struct rt_err *e) {
  static const VkMemoryPropertyFlags prefs[] = {
      VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT | VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
          VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
      VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT,
      0,
  };
  static const VkMemoryPropertyFlags shared_prefs[] = {VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                                       VK_MEMORY_PROPERTY_HOST_COHERENT_BIT};
  if (bytes > UINT64_MAX - VK_ALIGN)
    return rt_fail_msg(e, "cannot allocate %zu bytes", bytes);
  struct vk_alloc a = {.size = bytes};
  void *map;
  if (vk_buffer_new(bytes + VK_ALIGN - 1,
                    VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                        VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                    1, host_shared ? shared_prefs : prefs, host_shared ? 1 : 3, &a.buffer,
                    &a.memory, &map, e) != 0)
    return -1;
  a.map = host_shared || !vk_force_staging() ? map : NULL;
  VkBufferDeviceAddressInfo info = {.sType = VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO,
                                    .buffer = a.buffer};
  uint64_t base = vk.vkGetBufferDeviceAddress(vkd.device, &info);
  a.user = (base + VK_ALIGN - 1) & ~(uint64_t)(VK_ALIGN - 1);
  a.offset = a.user - base;
  /* Host-shared memory is one address for both sides: only where the
   * device's address is the host's mapping. */
  if (host_shared && (uint64_t)(uintptr_t)map != base) {
    vk_staging_free(&(struct vk_staging){a.buffer, a.memory, map});
    return rt_fail_msg(e, "the Vulkan device '%s' cannot share memory with the host at one "
                          "address (gpu.alloc host_shared)",
                       vkd.name);
  }
  if (vk_allocs_insert(&a) != 0) {
    vk_staging_free(&(struct vk_staging){a.buffer, a.memory, a.map});
    return rt_fail_msg(e, "out of memory");
  }
  *ptr = (void *)(uintptr_t)a.user;
  return 0;
}

int vk_mem_free(void *ptr, struct rt_err *e) {
  /* Queued work may still use it, as on the host backend. */
  if (vk_wait_idle(e) != 0)
    return -1;
  uint64_t p = (uint64_t)(uintptr_t)ptr;
  pthread_mutex_lock(&vk_allocs_lock);
  long i = vk_find(p);
  struct vk_alloc a = {0};
  if (i >= 0 && vk_allocs[i].user == p) {
    a = vk_allocs[i];
    memmove(&vk_allocs[i], &vk_allocs[i + 1], (vk_nallocs - (size_t)i - 1) * sizeof a);
    vk_nallocs--;
  }
  pthread_mutex_unlock(&vk_allocs_lock);
  if (!a.buffer)
    return rt_fail_msg(e, "%p is not a Vulkan buffer of this runtime", ptr);
  vk_staging_free(&(struct vk_staging){a.buffer, a.memory, a.map});
  return 0;
}

/* Records a copy of bytes from (src, soff) to (dst, doff) and submits it. */
static int vk_copy_op(void *stream, VkBuffer src, uint64_t soff, VkBuffer dst, uint64_t doff,
                      size_t bytes, struct vk_staging *keep, struct rt_err *e) {
  struct vk_op op;
  if (vk_op_begin(stream, &op, e) != 0)
    return -1;
  VkBufferCopy region = {soff, doff, bytes};
  vk.vkCmdCopyBuffer(op.cb, src, dst, 1, &region);
  return vk_op_end(&op, keep, e);
}

static int vk_copy_to_device(const struct vk_alloc *d, const void *src, size_t bytes,
                             void *stream, struct rt_err *e) {
  if (d->map) {
    if (vk_stream_wait(stream, e) != 0)
      return -1;
    memcpy(d->map + d->offset, src, bytes);
    return 0;
  }
  struct vk_staging s;
  if (vk_staging_new(bytes, &s, e) != 0)
    return -1;
  memcpy(s.map, src, bytes);
  if (vk_copy_op(stream, s.buffer, 0, d->buffer, d->offset, bytes, &s, e) != 0) {
    vk_staging_free(&s);
    return -1;
  }
  return 0;
}

static int vk_copy_from_device(void *dst, const struct vk_alloc *a, size_t bytes, void *stream,
                               struct rt_err *e) {
  if (a->map) {
    if (vk_stream_wait(stream, e) != 0)
      return -1;
    memcpy(dst, a->map + a->offset, bytes);
    return 0;
  }
  struct vk_staging s;
  if (vk_staging_new(bytes, &s, e) != 0)
    return -1;
  int rc = vk_copy_op(stream, a->buffer, a->offset, s.buffer, 0, bytes, NULL, e);
  if (rc == 0 && (rc = vk_stream_wait(stream, e)) == 0)
    memcpy(dst, s.map, bytes);
  vk_staging_free(&s);
  return rc;
}

int vk_mem_copy(void *dst, const void *src, size_t bytes, void *stream, struct rt_err *e) {
  struct vk_alloc d, s;
  int dev_dst = vk_lookup(dst, bytes, &d, e), dev_src = vk_lookup(src, bytes, &s, e);
  if (dev_dst < 0 || dev_src < 0)
    return -1;
  if (dev_dst && dev_src)
    return vk_copy_op(stream, s.buffer, s.offset, d.buffer, d.offset, bytes, NULL, e);
  if (dev_dst)
    return vk_copy_to_device(&d, src, bytes, stream, e);
  if (dev_src)
    return vk_copy_from_device(dst, &s, bytes, stream, e);
  if (vk_stream_wait(stream, e) != 0) /* host to host, in the stream's order */
    return -1;
  memmove(dst, src, bytes);
  return 0;
}

/* The allocation behind a fill of bytes at dst, aligned to `align`. */
static int vk_fill_target(void *dst, size_t bytes, unsigned align, struct vk_alloc *a,
                          struct rt_err *e) {
  int found = vk_lookup(dst, bytes, a, e);
  if (found < 0)
    return -1;
  if (!found)
    return rt_fail_msg(e, "%p is not gpu.alloc memory of the Vulkan device", dst);
  if (a->offset % align != 0)
    return rt_fail_msg(e, "%p is not %u-byte aligned", dst, align);
  return 0;
}

int vk_mem_set32(void *dst, uint32_t value, size_t count, void *stream, struct rt_err *e) {
  struct vk_alloc a;
  if (count > SIZE_MAX / 4 || vk_fill_target(dst, count * 4, 4, &a, e) != 0)
    return count > SIZE_MAX / 4 ? rt_fail_msg(e, "%zu elements is too many", count) : -1;
  struct vk_op op;
  if (vk_op_begin(stream, &op, e) != 0)
    return -1;
  vk.vkCmdFillBuffer(op.cb, a.buffer, a.offset, (VkDeviceSize)count * 4, value);
  return vk_op_end(&op, NULL, e);
}

int vk_mem_set16(void *dst, uint16_t value, size_t count, void *stream, struct rt_err *e) {
  struct vk_alloc a;
  if (count > SIZE_MAX / 2 || vk_fill_target(dst, count * 2, 2, &a, e) != 0)
    return count > SIZE_MAX / 2 ? rt_fail_msg(e, "%zu elements is too many", count) : -1;
  uint64_t start = a.offset, end = a.offset + (uint64_t)count * 2;
  uint64_t head = start % 4 ? 2 : 0;                       /* a halfword before the words */
  uint64_t words = (end - start - head) / 4 * 4;           /* whole words */
  uint64_t tail = end - start - head - words;              /* 0 or 2: a halfword after */
  struct vk_staging s;
  int edges = head || tail;
  if (edges) {
    if (vk_staging_new(4, &s, e) != 0)
      return -1;
    memcpy(s.map, &value, 2);
    memcpy((char *)s.map + 2, &value, 2);
  }
  struct vk_op op;
  if (vk_op_begin(stream, &op, e) != 0) {
    if (edges)
      vk_staging_free(&s);
    return -1;
  }
  if (head)
    vk.vkCmdCopyBuffer(op.cb, s.buffer, a.buffer, 1, &(VkBufferCopy){0, start, 2});
  if (words)
    vk.vkCmdFillBuffer(op.cb, a.buffer, start + head, words, (uint32_t)value << 16 | value);
  if (tail)
    vk.vkCmdCopyBuffer(op.cb, s.buffer, a.buffer, 1, &(VkBufferCopy){0, end - 2, 2});
  if (vk_op_end(&op, edges ? &s : NULL, e) != 0) {
    if (edges)
      vk_staging_free(&s);
    return -1;
  }
  return 0;
}
