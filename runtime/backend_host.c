/* backend_host.c: the `host` backend, running kernels on the CPU.
 *
 * Chosen when no GPU backend finds a device, or with GPUCC_BACKEND=host. It
 * needs no driver: device memory is host memory. Operations on a stream are
 * queued (host_stream.c) and run in order on a thread of their own, so that
 * kernels of two streams overlap as on a GPU; operations on the NULL stream
 * run before the call returns. A queued launch copies its arguments (their
 * sizes are in the host object), as cuLaunchKernel does: the caller reuses
 * the params array at once. Freeing memory and unloading a module first
 * wait for every stream, since queued work may still use them. Kernels come
 * from the `host` object of the fat binary, an x86-64 shared object loaded
 * from memory (memfd) with dlopen; grids run on host_exec.c's worker pool.
 * gpucc links the kernels of all a program's gpu.modules into one shared
 * object (SO_LIB, carried by one module's fat binary); each module's object
 * is then a reference (SO_REF) to it by hash, with the prefix of its
 * symbols. The library is loaded once, when the first module naming it is,
 * found among the loaded modules' fat binaries, and unloaded with the last;
 * a plain shared object (format SO: older programs) is one module alone. */
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
#include "host_stream.h"
#include "registry.h"
#include "rt.h"
#include "select_host.h"

/* A loaded host object and the kernels looked up in it so far (MLIR's
 * lowering asks for the function at every launch, so we cache). */
struct host_function {
  struct host_function *next;
  char *name;   /* as the object carries it, mangled where need be */
  char *shown;  /* the program's spelling where it differs (function_module) */
  char *module; /* the gpu.module's name, or NULL: for fault reports */
  struct rt_host_kernel kernel;
  const uint32_t *params; /* K__gpucc_params: count, then each size */
};

/* A loaded shared object; those from an SO_LIB sit in a list, shared. */
struct host_library {
  struct host_library *next;
  unsigned char sha256[FATBIN_SHA256_SIZE];
  int shared;    /* in host_libraries */
  unsigned refs; /* modules using it */
  void *dl;
  int fd; /* kept open while loaded: glibc's dlopen matches by path, and a
             reused /proc/self/fd/N would return the previous object */
};

static pthread_mutex_t host_libraries_lock = PTHREAD_MUTEX_INITIALIZER;
static struct host_library *host_libraries;

struct host_module {
  struct host_library *lib;
  char prefix[FATBIN_SO_REF_MAX_PREFIX + 1]; /* of its symbols in lib */
  uint64_t shared_bytes;
  pthread_mutex_t lock;
  struct host_function *functions;
};

static int host_probe(int ordinal, struct rt_device *dev, char *why, size_t whylen) {
  if (ordinal != 0) {
    snprintf(why, whylen, "the host backend has one device (0), not %d", ordinal);
    return -1;
  }
  memset(dev, 0, sizeof *dev);
  dev->ordinal = 0;
  snprintf(dev->arch, sizeof dev->arch, "host");
  snprintf(dev->target_id, sizeof dev->target_id, "host");
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  snprintf(dev->name, sizeof dev->name, "CPU (%ld cores)", cores);
  return 0;
}

static const char *host_error_name(int code) { return code ? "HOST_ERROR" : "HOST_SUCCESS"; }
static const char *host_error_string(int code) { return code ? strerror(code) : "no error"; }

/* dlopen()s an image of a shared object from memory. */
static int host_library_open(const void *image, size_t size, struct host_library *lib,
                             struct rt_err *e) {
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
  lib->dl = dl;
  lib->fd = fd;
  return 0;
}

static void host_library_release(struct host_library *lib) {
  pthread_mutex_lock(&host_libraries_lock);
  int last = --lib->refs == 0;
  if (last && lib->shared) {
    struct host_library **at = &host_libraries;
    while (*at != lib)
      at = &(*at)->next;
    *at = lib->next;
  }
  pthread_mutex_unlock(&host_libraries_lock);
  if (!last)
    return;
  dlclose(lib->dl);
  close(lib->fd);
  free(lib);
}

/* Looks for the SO_LIB with a given hash in a loaded module's fat binary
 * and copies it out (rt_modules_each_image's callback). */
struct library_search {
  const unsigned char *sha256;
  void *data;
  size_t size;
};

static int find_library(const struct rt_registered *r, void *ud) {
  struct library_search *s = ud;
  struct fatbin *fb;
  if (r->size == 0 || !fatbin_is_blob(r->image, r->size) ||
      fatbin_open(r->image, r->size, &fb, NULL, 0) != 0)
    return 0;
  int found = 0;
  for (size_t i = 0; i < fatbin_count(fb) && !found; i++) {
    const struct fatbin_object_info *info = fatbin_get_info(fb, i);
    if (fatbin_get(fb, i)->format != FATBIN_FORMAT_SO_LIB || !info || !info->has_sha256 ||
        memcmp(info->sha256, s->sha256, FATBIN_SHA256_SIZE) != 0)
      continue;
    const void *data;
    size_t n;
    void *to_free;
    if (fatbin_read_object(fb, i, &data, &n, &to_free, NULL, 0) != 0)
      continue;
    unsigned char sum[FATBIN_SHA256_SIZE];
    fatbin_sha256(data, n, sum);
    if (memcmp(sum, s->sha256, FATBIN_SHA256_SIZE) == 0 && (s->data = malloc(n ? n : 1))) {
      memcpy(s->data, data, n);
      s->size = n;
      found = 1;
    }
    free(to_free);
  }
  fatbin_close(fb);
  return found;
}

/* The library an SO_REF names: loaded already, or now. */
static struct host_library *host_library_get(const unsigned char sha256[FATBIN_SHA256_SIZE],
                                             struct rt_err *e) {
  pthread_mutex_lock(&host_libraries_lock);
  struct host_library *lib = host_libraries;
  while (lib && memcmp(lib->sha256, sha256, FATBIN_SHA256_SIZE) != 0)
    lib = lib->next;
  if (lib) {
    lib->refs++;
    pthread_mutex_unlock(&host_libraries_lock);
    return lib;
  }
  /* Loading under the lock: a second module naming it waits for this one. */
  struct library_search search = {sha256, NULL, 0};
  if (!rt_modules_each_image(find_library, &search)) {
    pthread_mutex_unlock(&host_libraries_lock);
    rt_fail_msg(e, "the program's host shared object is not among its loaded modules");
    return NULL;
  }
  lib = calloc(1, sizeof *lib);
  if (!lib || host_library_open(search.data, search.size, lib, e) != 0) {
    if (!lib)
      rt_fail_msg(e, "out of memory");
    free(lib);
    free(search.data);
    pthread_mutex_unlock(&host_libraries_lock);
    return NULL;
  }
  free(search.data);
  memcpy(lib->sha256, sha256, FATBIN_SHA256_SIZE);
  lib->shared = 1;
  lib->refs = 1;
  lib->next = host_libraries;
  host_libraries = lib;
  pthread_mutex_unlock(&host_libraries_lock);
  return lib;
}

/* A symbol of the module: its prefix, then name and suffix. */
static void *host_symbol(const struct host_module *m, const char *name, const char *suffix) {
  size_t n = strlen(m->prefix) + strlen(name) + strlen(suffix) + 1;
  char *sym = malloc(n);
  if (!sym)
    return NULL;
  snprintf(sym, n, "%s%s%s", m->prefix, name, suffix);
  void *p = dlsym(m->lib->dl, sym);
  free(sym);
  return p;
}

static int host_module_load(const void *image, size_t size, int text, void **module,
                            struct rt_err *e) {
  if (text)
    return rt_fail_msg(e, "the host backend cannot load text (PTX) objects");
  struct host_module *m = calloc(1, sizeof *m);
  if (!m)
    return rt_fail_msg(e, "out of memory");
  unsigned char sha256[FATBIN_SHA256_SIZE];
  if (fatbin_so_ref_read(image, size, sha256, m->prefix) == 0) {
    m->lib = host_library_get(sha256, e);
  } else if ((m->lib = calloc(1, sizeof *m->lib)) != NULL) {
    m->lib->refs = 1;
    if (host_library_open(image, size, m->lib, e) != 0) {
      free(m->lib);
      m->lib = NULL;
    }
  } else {
    rt_fail_msg(e, "out of memory");
  }
  if (!m->lib) {
    free(m);
    return -1;
  }
  const uint32_t *abi = host_symbol(m, GPUCC_HOST_ABI_VERSION_SYMBOL, "");
  const uint64_t *shared = host_symbol(m, GPUCC_HOST_SHARED_BYTES_SYMBOL, "");
  if (!abi || *abi != GPUCC_HOST_ABI_VERSION || !shared) {
    unsigned got = abi ? *abi : 0;
    host_library_release(m->lib);
    free(m);
    return rt_fail_msg(e, "host object has ABI version %u, this runtime needs %u (rebuild the program)",
                       got, GPUCC_HOST_ABI_VERSION);
  }
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
  rt_host_streams_drain(); /* queued kernels run this object's code */
  for (struct host_function *f = m->functions, *next; f; f = next) {
    next = f->next;
    free(f->name);
    free(f->shown);
    free(f->module);
    free(f);
  }
  host_library_release(m->lib);
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
  struct host_function *f = calloc(1, sizeof *f);
  char *copy = strdup(name);
  if (!f || !copy) {
    free(f), free(copy);
    pthread_mutex_unlock(&m->lock);
    return rt_fail_msg(e, "out of memory");
  }
  f->kernel.thread = (rt_host_entry)host_symbol(m, name, GPUCC_HOST_THREAD_SUFFIX);
  f->kernel.block = (rt_host_entry)host_symbol(m, name, GPUCC_HOST_BLOCK_SUFFIX);
  f->params = host_symbol(m, name, GPUCC_HOST_PARAMS_SUFFIX);
  const uint64_t *scratch = host_symbol(m, name, GPUCC_HOST_SCRATCH_SUFFIX);
  f->kernel.scratch_bytes = scratch && f->kernel.block ? *scratch : 0;
  const char *why = host_symbol(m, name, GPUCC_HOST_FIBERS_SUFFIX);
  if ((!f->kernel.thread && !f->kernel.block) || !f->params) {
    int found = f->kernel.thread || f->kernel.block;
    free(f), free(copy);
    pthread_mutex_unlock(&m->lock);
    if (found)
      return rt_fail_msg(e, "kernel '%s' of the host object has no parameter table", name);
    return rt_fail_msg(e, "no kernel named '%s' in the host object", name);
  }
  if (!f->kernel.block)
    rt_log("host kernel '%s' runs its threads on fibers: %s", name, why ? why : "(no reason given)");
  f->kernel.shared_bytes = m->shared_bytes;
  f->name = copy;
  f->kernel.name = copy;
  f->next = m->functions;
  m->functions = f;
  *function = f;
  pthread_mutex_unlock(&m->lock);
  return 0;
}

/* Out of memory leaves the module out of a fault report, or the kernel as
 * the object spells it, no more. */
static void host_function_module(void *function, const char *kernel, const char *module) {
  struct host_function *f = function;
  if (!f->shown && strcmp(kernel, f->name) && (f->shown = strdup(kernel)))
    f->kernel.name = f->shown;
  if (f->module || !*module || !(f->module = strdup(module)))
    return;
  f->kernel.module = f->module;
}

/* A launch queued on a stream, with its own copy of the arguments. */
struct launch_op {
  struct rt_host_op op;
  const struct host_function *f;
  struct rt_host_grid grid;
  void *params[]; /* then the argument bytes */
};

static int run_launch_op(struct rt_host_op *op, char *err, size_t errlen) {
  struct launch_op *l = (struct launch_op *)op;
  char why[256];
  if (rt_host_run(&l->f->kernel, &l->grid, why, sizeof why) == 0)
    return 0;
  snprintf(err, errlen, "kernel '%s' failed on the CPU: %s", l->f->kernel.name, why);
  return -1;
}

/* Copies the arguments after the params array, each 16-byte aligned. */
static struct launch_op *copy_launch(const struct host_function *f, void **params) {
  uint32_t n = f->params[0];
  size_t head = (sizeof(struct launch_op) + n * sizeof(void *) + 15) & ~(size_t)15;
  size_t bytes = head;
  for (uint32_t i = 0; i < n; i++)
    bytes += (f->params[1 + i] + 15) & ~(size_t)15;
  struct launch_op *l = calloc(1, bytes);
  if (!l)
    return NULL;
  char *at = (char *)l + head;
  for (uint32_t i = 0; i < n; i++) {
    memcpy(at, params[i], f->params[1 + i]);
    l->params[i] = at;
    at += (f->params[1 + i] + 15) & ~(size_t)15;
  }
  return l;
}

static int host_launch(const struct rt_launch *l, struct rt_err *e) {
  struct host_function *f = l->function;
  struct rt_host_grid g = {.dynamic_shared = l->smem, .params = l->params};
  for (int d = 0; d < 3; d++) {
    g.grid[d] = l->grid[d];
    g.block[d] = l->block[d];
  }
  char err[256];
  if (!l->stream) {
    if (rt_host_run(&f->kernel, &g, err, sizeof err) != 0)
      return rt_fail_msg(e, "cannot run kernel '%s' on the CPU: %s", f->kernel.name, err);
    return 0;
  }
  if (rt_host_check(&g, err, sizeof err) != 0)
    return rt_fail_msg(e, "cannot run kernel '%s' on the CPU: %s", f->kernel.name, err);
  struct launch_op *op = copy_launch(f, l->params);
  if (!op)
    return rt_fail_msg(e, "out of memory queuing kernel '%s'", f->kernel.name);
  op->op.run = run_launch_op;
  op->f = f;
  op->grid = g;
  op->grid.params = op->params;
  rt_host_stream_enqueue(l->stream, &op->op);
  return 0;
}

static int host_stream_create(void **out, struct rt_err *e) {
  struct rt_host_stream *s = rt_host_stream_create();
  if (!s)
    return rt_fail_msg(e, "out of memory");
  *out = s;
  return 0;
}

static int host_stream_destroy(void *stream, struct rt_err *e) {
  char err[512];
  if (rt_host_stream_destroy(stream, err, sizeof err) != 0)
    return rt_fail_msg(e, "%s", err);
  return 0;
}

static int host_stream_synchronize(void *stream, struct rt_err *e) {
  /* The NULL stream has nothing in flight: its operations ran at once. */
  char err[512];
  if (stream && rt_host_stream_synchronize(stream, err, sizeof err) != 0)
    return rt_fail_msg(e, "%s", err);
  return 0;
}

static int host_stream_wait_event(void *stream, void *event, struct rt_err *e) {
  if (rt_host_stream_wait_event(stream, event) != 0)
    return rt_fail_msg(e, "out of memory");
  return 0;
}

static int host_event_create(void **out, struct rt_err *e) {
  struct rt_host_event *ev = rt_host_event_create();
  if (!ev)
    return rt_fail_msg(e, "out of memory");
  *out = ev;
  return 0;
}

static int host_event_destroy(void *event, struct rt_err *e) {
  (void)e;
  rt_host_event_destroy(event);
  return 0;
}

static int host_event_synchronize(void *event, struct rt_err *e) {
  (void)e;
  rt_host_event_synchronize(event);
  return 0;
}

static int host_event_record(void *event, void *stream, struct rt_err *e) {
  (void)e;
  rt_host_event_record(event, stream);
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
  /* As cuMemFree, after the work in flight, which may use the memory. */
  rt_host_streams_drain();
  free(ptr);
  return 0;
}

/* Copies and fills queued on a stream. */
struct memory_op {
  struct rt_host_op op;
  void *dst;
  const void *src;
  size_t count; /* bytes for a copy, elements for a fill */
  uint32_t value;
};

static void fill32(void *dst, uint32_t value, size_t count) {
  uint32_t *p = dst;
  for (size_t i = 0; i < count; i++)
    p[i] = value;
}

static void fill16(void *dst, uint16_t value, size_t count) {
  uint16_t *p = dst;
  for (size_t i = 0; i < count; i++)
    p[i] = value;
}

static int run_copy(struct rt_host_op *op, char *err, size_t errlen) {
  (void)err, (void)errlen;
  struct memory_op *m = (struct memory_op *)op;
  memmove(m->dst, m->src, m->count);
  return 0;
}

static int run_set32(struct rt_host_op *op, char *err, size_t errlen) {
  (void)err, (void)errlen;
  struct memory_op *m = (struct memory_op *)op;
  fill32(m->dst, m->value, m->count);
  return 0;
}

static int run_set16(struct rt_host_op *op, char *err, size_t errlen) {
  (void)err, (void)errlen;
  struct memory_op *m = (struct memory_op *)op;
  fill16(m->dst, (uint16_t)m->value, m->count);
  return 0;
}

/* A copy or fill on a stream with nothing before it runs at once: the
 * order on the stream is the same, and it is what programs see on a GPU,
 * where a copy from pageable host memory is done when the call returns,
 * even if a kernel on another stream (a synchronous gpu.launch gets one of
 * its own) reads the memory next. */
static int queue_memory(void *stream, int (*run)(struct rt_host_op *, char *, size_t), void *dst,
                        const void *src, size_t count, uint32_t value, struct rt_err *e) {
  if (rt_host_stream_idle(stream)) {
    struct memory_op now = {.dst = dst, .src = src, .count = count, .value = value};
    char err[8];
    run(&now.op, err, sizeof err);
    return 0;
  }
  struct memory_op *m = calloc(1, sizeof *m);
  if (!m)
    return rt_fail_msg(e, "out of memory");
  m->op.run = run;
  m->dst = dst;
  m->src = src;
  m->count = count;
  m->value = value;
  rt_host_stream_enqueue(stream, &m->op);
  return 0;
}

static int host_mem_copy(void *dst, const void *src, size_t bytes, void *stream, struct rt_err *e) {
  if (stream)
    return queue_memory(stream, run_copy, dst, src, bytes, 0, e);
  memmove(dst, src, bytes);
  return 0;
}

static int host_mem_set32(void *dst, uint32_t value, size_t count, void *stream, struct rt_err *e) {
  if (stream)
    return queue_memory(stream, run_set32, dst, NULL, count, value, e);
  fill32(dst, value, count);
  return 0;
}

static int host_mem_set16(void *dst, uint16_t value, size_t count, void *stream, struct rt_err *e) {
  if (stream)
    return queue_memory(stream, run_set16, dst, NULL, count, value, e);
  fill16(dst, value, count);
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
    .select = &rt_selection_host,
    .probe = host_probe,
    .error_name = host_error_name,
    .error_string = host_error_string,
    .module_load = host_module_load,
    .module_load_jit = host_module_load_jit,
    .module_unload = host_module_unload,
    .module_function = host_module_function,
    .function_module = host_function_module,
    .launch = host_launch,
    .launch_cluster = NULL,
    .stream_create = host_stream_create,
    .stream_destroy = host_stream_destroy,
    .stream_synchronize = host_stream_synchronize,
    .stream_wait_event = host_stream_wait_event,
    .event_create = host_event_create,
    .event_destroy = host_event_destroy,
    .event_synchronize = host_event_synchronize,
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
