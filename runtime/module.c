/* module.c: mgpuModuleLoad and friends: lazy, once-per-module loading.
 *
 * The translated host code calls mgpuModuleLoad(image, size) for every
 * gpu.binary from a global constructor, before main, and mgpuModuleUnload
 * from a global destructor. Neither may need a GPU: a program that never
 * launches must run on a machine without one. So mgpuModuleLoad only records
 * the image in a struct rt_module; the first mgpuModuleGetFunction starts the
 * backend, picks the object for the device (select.c), loads it, and keeps
 * the driver's module. Threads racing on that first use wait on the module's
 * mutex; later calls see the `loaded` flag and take no lock.
 *
 * Every module also sits in a registry, so that the "no GPU" message can say
 * which targets the program carries. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "image.h"
#include "rt.h"

struct rt_module {
  const unsigned char *image; /* the program's constant; not owned */
  size_t size;                /* 0 for mgpuModuleLoadJIT (NUL-terminated) */
  int jit, opt_level;
  pthread_mutex_t lock;       /* serializes the first load */
  atomic_int loaded;          /* handle is valid (release/acquire) */
  void *handle;               /* the driver's module */
  char *name;                 /* gpu.module name, once known, for messages; owned */
  struct rt_module *prev, *next;
};

/* Modules in the order they were loaded. */
static pthread_mutex_t rt_registry_lock = PTHREAD_MUTEX_INITIALIZER;
static struct rt_module *rt_registry, *rt_registry_tail;

/* Sets m->name to a copy of name, whole: messages name the module as the
 * program does, however long. Out of memory leaves the old name. */
static void rt_module_set_name(struct rt_module *m, const char *name) {
  char *copy = malloc(strlen(name) + 1);
  if (!copy)
    return;
  strcpy(copy, name);
  free(m->name);
  m->name = copy;
}

/* The name for messages: "" until one is known. */
static const char *rt_module_label(const struct rt_module *m) { return m->name ? m->name : ""; }

static const char *rt_vendor_label(enum fatbin_vendor v) {
  return v == FATBIN_VENDOR_NVIDIA ? "NVIDIA" : v == FATBIN_VENDOR_AMD ? "AMD" : "host";
}

static void *rt_module_new(const void *image, size_t size, int jit, int opt_level,
                           const char *fn) {
  struct rt_module *m = calloc(1, sizeof *m);
  if (!m) {
    rt_error("%s: out of memory", fn);
    return NULL;
  }
  m->image = image;
  m->size = size;
  m->jit = jit;
  m->opt_level = opt_level;
  pthread_mutex_init(&m->lock, NULL);
  pthread_mutex_lock(&rt_registry_lock);
  m->prev = rt_registry_tail;
  if (rt_registry_tail)
    rt_registry_tail->next = m;
  else
    rt_registry = m;
  rt_registry_tail = m;
  pthread_mutex_unlock(&rt_registry_lock);
  return m;
}

RT_EXPORT void *mgpuModuleLoad(void *data, size_t gpuBlobSize) {
  if (!data) {
    rt_error("mgpuModuleLoad: no image (NULL)");
    return NULL;
  }
  return rt_module_new(data, gpuBlobSize, 0, 0, "mgpuModuleLoad");
}

RT_EXPORT void *mgpuModuleLoadJIT(void *data, int32_t optLevel) {
  if (!data) {
    rt_error("mgpuModuleLoadJIT: no image (NULL)");
    return NULL;
  }
  return rt_module_new(data, 0, 1, optLevel, "mgpuModuleLoadJIT");
}

/* Returns text with a NUL after size bytes: text itself if it has one, else
 * a copy in *copy (which the caller frees). NULL when out of memory. */
static const void *rt_nul_terminated(const void *text, size_t size, char **copy) {
  *copy = NULL;
  const char *t = text;
  if (size > 0 && t[size - 1] == '\0')
    return text;
  *copy = malloc(size + 1);
  if (!*copy)
    return NULL;
  memcpy(*copy, text, size);
  (*copy)[size] = '\0';
  return *copy;
}

static int rt_load_object(struct rt_module *m, const struct rt_backend *b,
                          const void *image, size_t size, int text, const char *fn,
                          const char *what, char *msg, size_t len) {
  char *copy = NULL;
  if (text && !(image = rt_nul_terminated(image, size, &copy))) {
    snprintf(msg, len, "%s: out of memory", fn);
    return -1;
  }
  struct rt_err e;
  int rc = b->module_load(image, size + (copy != NULL), text, &m->handle, &e);
  free(copy);
  if (rc != 0) {
    char context[256];
    snprintf(context, sizeof context, "for %s", what);
    rt_format_failure(msg, len, fn, b, &e, context);
  }
  return rc;
}

/* Loads the entry of a gpucc fat binary that fits the device. */
static int rt_load_fatbin(struct rt_module *m, const struct rt_backend *b,
                          const char *fn, char *msg, size_t len) {
  struct fatbin *fb;
  char err[512];
  if (fatbin_open(m->image, m->size, &fb, err, sizeof err) != 0) {
    snprintf(msg, len, "%s: cannot read the program's GPU code: %s", fn, err);
    return -1;
  }
  size_t n = fatbin_count(fb);
  struct fatbin_entry *entries = calloc(n ? n : 1, sizeof *entries);
  if (!entries) {
    fatbin_close(fb);
    snprintf(msg, len, "%s: out of memory", fn);
    return -1;
  }
  for (size_t i = 0; i < n; i++)
    entries[i] = *fatbin_get(fb, i);
  if (n > 0 && entries[0].module)
    rt_module_set_name(m, entries[0].module);

  const struct rt_device *dev = rt_device();
  char why[512], carried[1024] = "";
  rt_describe_targets(entries, n, carried, sizeof carried);
  long k = rt_select(entries, n, dev, why, sizeof why);
  int rc = -1;
  if (k < 0) {
    char arch[64];
    rt_suggest_arch(dev, arch, sizeof arch);
    /* On the CPU by default, say also why no GPU was used: that is what a
     * user who expected one needs to know first. */
    const char *passed = dev->vendor == FATBIN_VENDOR_HOST ? rt_backends_passed_over() : "";
    snprintf(msg, len,
             "%s: no code for device %d '%s' (%s) in module '%s', which carries "
             "code for: %s; rebuild with --offload-arch=%s%s%s%s",
             fn, dev->ordinal, dev->name, dev->target_id, rt_module_label(m),
             carried[0] ? carried : "nothing", arch, passed[0] ? " (no GPU found: " : "",
             passed, passed[0] ? ")" : "");
  } else {
    const struct fatbin_entry *e = &entries[k];
    rt_log("module '%s' (carries %s) on %s: chose %s", rt_module_label(m), carried,
           dev->target_id, why);
    char what[256];
    snprintf(what, sizeof what, "the %s %s of module '%s'", e->target,
             fatbin_format_name(e->format), rt_module_label(m));
    /* Only now are the chosen object's bytes read (inflated, if the archive
     * is compressed): the index above came from the manifest alone. */
    const void *data;
    size_t size;
    void *to_free;
    if (fatbin_read_object(fb, (size_t)k, &data, &size, &to_free, err, sizeof err) != 0) {
      snprintf(msg, len, "%s: cannot read %s: %s", fn, what, err);
    } else {
      rc = rt_load_object(m, b, data, size, e->format == FATBIN_FORMAT_PTX, fn, what, msg,
                          len);
      free(to_free);
    }
  }
  free(entries);
  fatbin_close(fb);
  return rc;
}

/* Loads a plain object (upstream mlir-translate output) as it is. */
static int rt_load_plain(struct rt_module *m, const struct rt_backend *b,
                         const char *fn, char *msg, size_t len) {
  enum rt_image_kind kind = rt_image_classify(m->image, m->size);
  const struct rt_device *dev = rt_device();
  char kind_name[64];
  snprintf(kind_name, sizeof kind_name, "(%s)", rt_image_kind_name(kind));
  rt_module_set_name(m, kind_name);
  if (kind == RT_IMAGE_BITCODE) {
    snprintf(msg, len,
             "%s: the module is LLVM bitcode (gpu-module-to-binary format=offload), "
             "which no GPU driver loads; build it with gpucc, or with format=bin",
             fn);
    return -1;
  }
  if (kind != RT_IMAGE_UNKNOWN && rt_image_vendor(kind) != dev->vendor) {
    char arch[64];
    rt_suggest_arch(dev, arch, sizeof arch);
    snprintf(msg, len,
             "%s: the module holds code for %s GPUs (%s), but device %d '%s' (%s) is "
             "an %s GPU; rebuild with --offload-arch=%s",
             fn, rt_vendor_label(rt_image_vendor(kind)), rt_image_kind_name(kind),
             dev->ordinal, dev->name, dev->target_id, rt_vendor_label(dev->vendor), arch);
    return -1;
  }
  rt_log("module %s: %zu bytes, loaded as they are", rt_module_label(m), m->size);
  char what[128];
  snprintf(what, sizeof what, "a %zu-byte %s", m->size, rt_image_kind_name(kind));
  return rt_load_object(m, b, m->image, m->size, kind == RT_IMAGE_PTX, fn, what, msg,
                        len);
}

static int rt_load(struct rt_module *m, const struct rt_backend *b, const char *fn,
                   char *msg, size_t len) {
  if (m->jit) {
    rt_module_set_name(m, "(assembly)");
    if (!b->module_load_jit) {
      snprintf(msg, len,
               "%s: %s cannot JIT-compile assembly (format=isa) objects; rebuild "
               "with binary objects",
               fn, b->label);
      return -1;
    }
    struct rt_err e;
    if (b->module_load_jit((const char *)m->image, m->opt_level, &m->handle, &e) != 0) {
      rt_format_failure(msg, len, fn, b, &e, "for the module's assembly");
      return -1;
    }
    rt_log("module (assembly): JIT-compiled at -O%d", m->opt_level);
    return 0;
  }
  if (rt_image_classify(m->image, m->size) == RT_IMAGE_GPUCC)
    return rt_load_fatbin(m, b, fn, msg, len);
  return rt_load_plain(m, b, fn, msg, len);
}

/* The driver's module for m, loading it on first use. Reports failures
 * (after dropping the lock) and returns NULL. */
static void *rt_module_handle(struct rt_module *m, const struct rt_backend *b,
                              const char *fn) {
  if (atomic_load_explicit(&m->loaded, memory_order_acquire))
    return m->handle;
  char msg[8192];
  int rc = 0;
  pthread_mutex_lock(&m->lock);
  if (!atomic_load_explicit(&m->loaded, memory_order_relaxed)) {
    rc = rt_load(m, b, fn, msg, sizeof msg);
    if (rc == 0)
      atomic_store_explicit(&m->loaded, 1, memory_order_release);
  }
  pthread_mutex_unlock(&m->lock);
  if (rc != 0) {
    /* Not cached: with a handler that returns, each use reports again. */
    rt_error("%s", msg);
    return NULL;
  }
  return m->handle;
}

RT_EXPORT void *mgpuModuleGetFunction(void *module, const char *name) {
  static const char fn[] = "mgpuModuleGetFunction";
  struct rt_module *m = module;
  if (!m) {
    rt_error("%s: no module for kernel '%s' (mgpuModuleLoad failed earlier)", fn,
             name ? name : "?");
    return NULL;
  }
  const struct rt_backend *b = rt_backend_get(fn);
  if (!b)
    return NULL;
  void *handle = rt_module_handle(m, b, fn);
  if (!handle)
    return NULL;
  void *function = NULL;
  struct rt_err e;
  if (b->module_function(handle, name, &function, &e) != 0) {
    static const char fmt[] = "for kernel '%s' of module '%s'";
    const char *mname = rt_module_label(m);
    size_t n = sizeof fmt + strlen(name) + strlen(mname);
    char *context = malloc(n);
    if (context)
      snprintf(context, n, fmt, name, mname);
    rt_error_failure(fn, b, &e, context ? context : "for a kernel");
    free(context);
    return NULL;
  }
  return function;
}

RT_EXPORT void mgpuModuleUnload(void *module) {
  struct rt_module *m = module;
  if (!m)
    return;
  pthread_mutex_lock(&rt_registry_lock);
  if (m->prev)
    m->prev->next = m->next;
  else
    rt_registry = m->next;
  if (m->next)
    m->next->prev = m->prev;
  else
    rt_registry_tail = m->prev;
  pthread_mutex_unlock(&rt_registry_lock);

  /* Runs from a global destructor: never start a driver here, and do not
   * stop the exit for an error (exit() cannot be called again). */
  const struct rt_backend *b = rt_backend_peek();
  if (b && atomic_load_explicit(&m->loaded, memory_order_acquire)) {
    struct rt_err e;
    if (b->module_unload(m->handle, &e) != 0) {
      char msg[8192];
      rt_format_failure(msg, sizeof msg, "mgpuModuleUnload", b, &e, NULL);
      rt_warning("%s", msg);
    }
  }
  pthread_mutex_destroy(&m->lock);
  free(m->name);
  free(m);
}

void rt_modules_describe_targets(char *buf, size_t len) {
  struct fatbin **open = NULL;
  struct fatbin_entry *all = NULL;
  size_t nopen = 0, nall = 0;
  char plain[256] = "";

  pthread_mutex_lock(&rt_registry_lock);
  for (struct rt_module *m = rt_registry; m; m = m->next) {
    if (m->jit) {
      rt_appendf(plain, sizeof plain, " PTX");
      continue;
    }
    enum rt_image_kind kind = rt_image_classify(m->image, m->size);
    if (kind != RT_IMAGE_GPUCC) {
      rt_appendf(plain, sizeof plain, " %s", rt_image_kind_name(kind));
      continue;
    }
    struct fatbin *fb;
    char err[256];
    if (fatbin_open(m->image, m->size, &fb, err, sizeof err) != 0)
      continue;
    size_t n = fatbin_count(fb);
    struct fatbin **o = realloc(open, (nopen + 1) * sizeof *o);
    struct fatbin_entry *a = o ? realloc(all, (nall + n + 1) * sizeof *a) : NULL;
    if (o)
      open = o;
    if (!a) {
      fatbin_close(fb);
      break;
    }
    all = a;
    open[nopen++] = fb;
    for (size_t i = 0; i < n; i++)
      all[nall++] = *fatbin_get(fb, i);
  }
  pthread_mutex_unlock(&rt_registry_lock);

  rt_describe_targets(all, nall, buf, len);
  if (plain[0])
    rt_appendf(buf, len, "%s(plain%s)", buf[0] ? " " : "", plain);
  for (size_t i = 0; i < nopen; i++)
    fatbin_close(open[i]);
  free(open);
  free(all);
}
