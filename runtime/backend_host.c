/* backend_host.c: the `host` backend, running kernels on the CPU.
 *
 * Chosen when no GPU backend finds a device, or with GPUCC_BACKEND=host. It
 * needs no driver: device memory is host memory, and every operation
 * completes before it returns, which gives the ordering a stream promises
 * (each stream runs in order, an event is complete once recorded, and a wait
 * never blocks). Kernels come from the `host` object of the fat binary, an
 * x86-64 shared object loaded from memory (memfd) with dlopen; the grid runs
 * on host_exec.c's worker pool. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "host_exec.h"
#include "rt.h"

/* A loaded host object and the kernels looked up in it so far (MLIR's
 * lowering asks for the function at every launch, so we cache). */
struct host_function {
  struct host_function *next;
  char *name;
  struct rt_host_kernel kernel;
};

struct host_module {
  void *dl;
  int fd; /* kept open while loaded: glibc's dlopen matches by path, and a
             reused /proc/self/fd/N would return the previous object */
  uint64_t shared_bytes;
  pthread_mutex_t lock;
  struct host_function *functions;
};

/* Streams and events need distinct non-NULL handles and nothing else. */
struct host_handle {
  int kind;
};

static int host_probe(int ordinal, struct rt_device *dev, char *why, size_t whylen) {
  if (ordinal != 0) {
    snprintf(why, whylen, "the host backend has one device (0), not %d", ordinal);
    return -1;
  }
  memset(dev, 0, sizeof *dev);
  dev->vendor = FATBIN_VENDOR_HOST;
  dev->ordinal = 0;
  snprintf(dev->arch, sizeof dev->arch, "host");
  snprintf(dev->target_id, sizeof dev->target_id, "host");
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  snprintf(dev->name, sizeof dev->name, "CPU (%ld cores)", cores);
  return 0;
}

static const char *host_error_name(int code) { return code ? "HOST_ERROR" : "HOST_SUCCESS"; }
static const char *host_error_string(int code) { return code ? strerror(code) : "no error"; }

static int host_module_load(const void *image, size_t size, int text, void **module,
                            struct rt_err *e) {
  if (text)
    return rt_fail_msg(e, "the host backend cannot load text (PTX) objects");
  /* dlopen needs a file; a memfd is one without touching the disk. */
  int fd = memfd_create("gpucc-host-kernels", MFD_CLOEXEC);
  if (fd < 0)
    return rt_fail_msg(e, "memfd_create failed: %s", strerror(errno));
  const char *p = image;
  size_t left = size;
  while (left > 0) {
    ssize_t w = write(fd, p, left);
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0) {
      close(fd);
      return rt_fail_msg(e, "cannot write the host object to memory: %s", strerror(errno));
    }
    p += w;
    left -= (size_t)w;
  }
  char path[64];
  snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
  void *dl = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!dl) {
    close(fd);
    return rt_fail_msg(e, "cannot load the host object: %s", dlerror());
  }
  const uint32_t *abi = dlsym(dl, "gpucc_host_abi_version");
  const uint64_t *shared = dlsym(dl, "gpucc_host_shared_bytes");
  if (!abi || *abi != GPUCC_HOST_ABI_VERSION || !shared) {
    unsigned got = abi ? *abi : 0;
    dlclose(dl);
    close(fd);
    return rt_fail_msg(e, "host object has ABI version %u, this runtime needs %u (rebuild the program)",
                       got, GPUCC_HOST_ABI_VERSION);
  }
  struct host_module *m = calloc(1, sizeof *m);
  if (!m) {
    dlclose(dl);
    close(fd);
    return rt_fail_msg(e, "out of memory");
  }
  m->dl = dl;
  m->fd = fd;
  m->shared_bytes = *shared;
  pthread_mutex_init(&m->lock, NULL);
  *module = m;
  return 0;
}

static int host_module_load_jit(const char *text, int opt_level, void **module, struct rt_err *e) {
  (void)text, (void)opt_level, (void)module;
  return rt_fail_msg(e, "the host backend cannot JIT-compile assembly");
}

static int host_module_unload(void *module, struct rt_err *e) {
  (void)e;
  struct host_module *m = module;
  for (struct host_function *f = m->functions, *next; f; f = next) {
    next = f->next;
    free(f->name);
    free(f);
  }
  dlclose(m->dl);
  close(m->fd);
  pthread_mutex_destroy(&m->lock);
  free(m);
  return 0;
}

static int host_module_function(void *module, const char *name, void **function,
                                struct rt_err *e) {
  struct host_module *m = module;
  pthread_mutex_lock(&m->lock);
  for (struct host_function *f = m->functions; f; f = f->next)
    if (strcmp(f->name, name) == 0) {
      *function = f;
      pthread_mutex_unlock(&m->lock);
      return 0;
    }
  size_t n = strlen(name) + 32;
  char *sym = malloc(n);
  struct host_function *f = calloc(1, sizeof *f);
  char *copy = strdup(name);
  if (!sym || !f || !copy) {
    free(sym), free(f), free(copy);
    pthread_mutex_unlock(&m->lock);
    return rt_fail_msg(e, "out of memory");
  }
  snprintf(sym, n, "%s__gpucc_thread", name);
  f->kernel.thread = (rt_host_entry)dlsym(m->dl, sym);
  snprintf(sym, n, "%s__gpucc_block", name);
  f->kernel.block = (rt_host_entry)dlsym(m->dl, sym);
  free(sym);
  if (!f->kernel.thread) {
    free(f), free(copy);
    pthread_mutex_unlock(&m->lock);
    return rt_fail_msg(e, "no kernel named '%s' in the host object", name);
  }
  f->kernel.shared_bytes = m->shared_bytes;
  f->name = copy;
  f->next = m->functions;
  m->functions = f;
  *function = f;
  pthread_mutex_unlock(&m->lock);
  return 0;
}

static int host_launch(const struct rt_launch *l, struct rt_err *e) {
  struct host_function *f = l->function;
  struct rt_host_grid g = {.dynamic_shared = l->smem, .params = l->params};
  for (int d = 0; d < 3; d++) {
    g.grid[d] = l->grid[d];
    g.block[d] = l->block[d];
  }
  char err[256];
  if (rt_host_run(&f->kernel, &g, err, sizeof err) != 0)
    return rt_fail_msg(e, "cannot run kernel '%s' on the CPU: %s", f->name, err);
  return 0;
}

static int new_handle(void **out, struct rt_err *e) {
  struct host_handle *h = calloc(1, sizeof *h);
  if (!h)
    return rt_fail_msg(e, "out of memory");
  *out = h;
  return 0;
}

static int free_handle(void *h, struct rt_err *e) {
  (void)e;
  free(h);
  return 0;
}

static int nothing_to_wait(void *h, struct rt_err *e) {
  (void)h, (void)e;
  return 0;
}

static int host_stream_wait_event(void *stream, void *event, struct rt_err *e) {
  (void)stream, (void)event, (void)e;
  return 0;
}

static int host_event_record(void *event, void *stream, struct rt_err *e) {
  (void)event, (void)stream, (void)e;
  return 0;
}

static int host_mem_alloc(size_t bytes, int host_shared, void **ptr, struct rt_err *e) {
  (void)host_shared; /* all of it is host memory */
  /* 256-byte alignment, like cudaMalloc, so vector code and atomics behave
   * as they would on a GPU. */
  size_t rounded = (bytes + 255) & ~(size_t)255;
  void *p = aligned_alloc(256, rounded ? rounded : 256);
  if (!p)
    return rt_fail_msg(e, "out of memory allocating %zu bytes", bytes);
  *ptr = p;
  return 0;
}

static int host_mem_free(void *ptr, struct rt_err *e) {
  (void)e;
  free(ptr);
  return 0;
}

static int host_mem_copy(void *dst, const void *src, size_t bytes, void *stream, struct rt_err *e) {
  (void)stream, (void)e;
  memmove(dst, src, bytes);
  return 0;
}

static int host_mem_set32(void *dst, uint32_t value, size_t count, void *stream, struct rt_err *e) {
  (void)stream, (void)e;
  uint32_t *p = dst;
  for (size_t i = 0; i < count; i++)
    p[i] = value;
  return 0;
}

static int host_mem_set16(void *dst, uint16_t value, size_t count, void *stream, struct rt_err *e) {
  (void)stream, (void)e;
  uint16_t *p = dst;
  for (size_t i = 0; i < count; i++)
    p[i] = value;
  return 0;
}

static int host_register(void *ptr, size_t bytes, struct rt_err *e) {
  (void)ptr, (void)bytes, (void)e;
  return 0; /* host memory is device memory here */
}

static int host_device_pointer(void *host, void **device, struct rt_err *e) {
  (void)e;
  *device = host;
  return 0;
}

static int host_unregister(void *ptr, struct rt_err *e) {
  (void)ptr, (void)e;
  return 0;
}

static int host_copy_to_device(void *dst, const void *src, size_t size, struct rt_err *e) {
  (void)e;
  memcpy(dst, src, size);
  return 0;
}

const struct rt_backend rt_backend_host = {
    .name = "host",
    .label = "host CPU",
    .vendor = FATBIN_VENDOR_HOST,
    .probe = host_probe,
    .error_name = host_error_name,
    .error_string = host_error_string,
    .module_load = host_module_load,
    .module_load_jit = host_module_load_jit,
    .module_unload = host_module_unload,
    .module_function = host_module_function,
    .launch = host_launch,
    .launch_cluster = NULL,
    .stream_create = new_handle,
    .stream_destroy = free_handle,
    .stream_synchronize = nothing_to_wait,
    .stream_wait_event = host_stream_wait_event,
    .event_create = new_handle,
    .event_destroy = free_handle,
    .event_synchronize = nothing_to_wait,
    .event_record = host_event_record,
    .mem_alloc = host_mem_alloc,
    .mem_free = host_mem_free,
    .mem_copy = host_mem_copy,
    .mem_set32 = host_mem_set32,
    .mem_set16 = host_mem_set16,
    .host_register = host_register,
    .host_unregister = host_unregister,
    .host_device_pointer = host_device_pointer,
    .tensor_map_encode = NULL,
    .copy_to_device = host_copy_to_device,
};
