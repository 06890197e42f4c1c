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
 * which targets the program carries.
 *
 * Kernels: the first mgpuModuleGetFunction of a name makes a struct
 * rt_function (rt.h) holding the backend's function and the limits every
 * launch of it must meet, one struct rt_limits per target that must accept
 * it: on a GPU the device's, narrowed by the kernel line of the chosen
 * object (its manifest) and the function's own attributes; on a backend
 * that stands in for the GPUs (the host's: its rules' stands_in) each GPU
 * target the fat binary carries, each narrowed by its kernel line, so that
 * the CPU refuses what those GPUs would (or, for a program built for the
 * host alone, the GPUs' common limits). Later lookups
 * find it in a list that only grows, read without a lock. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../support/symname.h"
#include "image.h"
#include "registry.h"
#include "rt.h"

/* A target whose launches the module's kernels must meet, set at load. */
struct rt_module_target {
  struct rt_limits base; /* the target's (or device's) own limits */
  char *target;          /* whose kernel lines apply; NULL: none (a plain image) */
};

struct rt_module {
  struct rt_registered reg;   /* image, size, jit; in the registry */
  int opt_level;
  pthread_mutex_t lock;       /* serializes the first load and new functions */
  atomic_int loaded;          /* handle is valid (release/acquire) */
  void *handle;               /* the driver's module */
  char *name;                 /* gpu.module name, once known, for messages; owned */
  struct rt_module_target *targets; /* set with handle */
  size_t ntargets;
  struct fatbin_kernel *kernels; /* the module's kernel lines: name and target
                                    owned, module NULL */
  size_t nkernels;
  _Atomic(struct rt_function *) functions; /* looked up so far, newest first */
};

/* Sets m->name to name as the program spells it, whole: messages name the
 * module as the program does, however long, not as its objects do (a
 * mangled name: symname.h). Out of memory leaves the old name. */
static void rt_module_set_name(struct rt_module *m, const char *name) {
  char *copy = symname_display(name, 0);
  if (!copy)
    return;
  free(m->name);
  m->name = copy;
}

/* The name for messages: "" until one is known. */
static const char *rt_module_label(const struct rt_module *m) { return m->name ? m->name : ""; }

/* ---- what launches are held to ------------------------------------------- */

static void rt_module_free_limits(struct rt_module *m) {
  for (size_t i = 0; i < m->ntargets; i++)
    free(m->targets[i].target);
  free(m->targets);
  for (size_t i = 0; i < m->nkernels; i++) {
    free((char *)m->kernels[i].name);
    free((char *)m->kernels[i].target);
  }
  free(m->kernels);
  m->targets = NULL;
  m->kernels = NULL;
  m->ntargets = m->nkernels = 0;
}

/* Adds a target whose kernel lines (target NULL: none) narrow base. */
static int rt_module_add_target(struct rt_module *m, const struct rt_limits *base,
                                const char *target) {
  struct rt_module_target *grown = realloc(m->targets, (m->ntargets + 1) * sizeof *grown);
  if (!grown)
    return -1;
  m->targets = grown;
  struct rt_module_target *t = &m->targets[m->ntargets];
  t->base = *base;
  t->target = target ? strdup(target) : NULL;
  if (target && !t->target)
    return -1;
  m->ntargets++;
  return 0;
}

/* The device's limits alone: a plain image, a JIT module. */
static int rt_module_device_limits(struct rt_module *m, const struct rt_device *dev) {
  struct rt_limits l;
  rt_limits_of_device(dev, &l);
  return rt_module_add_target(m, &l, NULL);
}

/* Copies the kernel lines of module `module` out of the archive, which is
 * closed once the object is loaded. */
static int rt_module_copy_kernels(struct rt_module *m, const struct fatbin *fb,
                                  const char *module) {
  const struct fatbin_meta *meta = fatbin_get_meta(fb);
  size_t n = 0;
  for (size_t i = 0; i < meta->nkernels; i++)
    n += strcmp(meta->kernels[i].module, module) == 0;
  m->kernels = calloc(n ? n : 1, sizeof *m->kernels);
  if (!m->kernels)
    return -1;
  for (size_t i = 0; i < meta->nkernels; i++) {
    const struct fatbin_kernel *k = &meta->kernels[i];
    if (strcmp(k->module, module) != 0)
      continue;
    struct fatbin_kernel *c = &m->kernels[m->nkernels++];
    *c = *k;
    c->module = NULL;
    c->name = strdup(k->name);
    c->target = k->target ? strdup(k->target) : NULL;
    if (!c->name || (k->target && !c->target))
      return -1;
  }
  return 0;
}

/* Whether some earlier entry has the same vendor and target (a cubin and
 * the PTX of one sm are one target). */
static int rt_seen_target(const struct fatbin_entry *entries, size_t i) {
  for (size_t j = 0; j < i; j++)
    if (entries[j].vendor == entries[i].vendor && strcmp(entries[j].target, entries[i].target) == 0)
      return 1;
  return 0;
}

/* The targets of a fat binary's module, entry k chosen for dev. */
static int rt_module_fatbin_limits(struct rt_module *m, const struct fatbin *fb,
                                   const struct fatbin_entry *entries, size_t n, size_t k,
                                   const struct rt_device *dev) {
  if (rt_module_copy_kernels(m, fb, entries[k].module) != 0)
    return -1;
  struct rt_limits l;
  if (!dev->select->stands_in) {
    rt_limits_of_device(dev, &l);
    return rt_module_add_target(m, &l, entries[k].target);
  }
  /* On the CPU: what each GPU target of the program would accept. */
  for (size_t i = 0; i < n; i++) {
    if (entries[i].vendor == dev->select->vendor ||
        strcmp(entries[i].module, entries[k].module) != 0 || rt_seen_target(entries, i))
      continue;
    rt_limits_of_target(rt_selection_of(entries[i].vendor), entries[i].target, &l);
    if (rt_module_add_target(m, &l, entries[i].target) != 0)
      return -1;
  }
  if (m->ntargets > 0)
    return 0;
  rt_limits_of_device(dev, &l);
  return rt_module_add_target(m, &l, entries[k].target);
}

/* The kernel line of `name` for `target`: its own, else the module's. */
static const struct fatbin_kernel *rt_module_kernel(const struct rt_module *m, const char *name,
                                                    const char *target) {
  const struct fatbin_kernel *any = NULL;
  if (!target)
    return NULL;
  for (size_t i = 0; i < m->nkernels; i++) {
    const struct fatbin_kernel *k = &m->kernels[i];
    if (strcmp(k->name, name) != 0)
      continue;
    if (!k->target)
      any = k;
    else if (strcmp(k->target, target) == 0)
      return k;
  }
  return any;
}

/* Fills f->limits for the kernel: each target's, narrowed by its kernel
 * line and by what the driver says of the function. */
static void rt_function_limits(const struct rt_module *m, const struct rt_backend *b,
                               struct rt_function *f) {
  for (size_t i = 0; i < f->nlimits; i++) {
    struct rt_limits *l = &f->limits[i];
    *l = m->targets[i].base;
    rt_limits_apply_kernel(l, rt_module_kernel(m, f->symbol, m->targets[i].target));
    struct rt_err e;
    if (b->function_limits && b->function_limits(f->handle, l, &e) != 0) {
      char why[1024];
      rt_format_failure(why, sizeof why, "mgpuModuleGetFunction", b, &e, NULL);
      rt_log("kernel '%s': its limits are not known (%s)", f->name, why);
    }
    if (!rt_log_enabled())
      continue;
    char shape[64] = "any block shape", smem[64] = "no shared memory limit";
    if (l->block[0])
      snprintf(shape, sizeof shape, "block (%u, %u, %u) only", (unsigned)l->block[0],
               (unsigned)l->block[1], (unsigned)l->block[2]);
    if (l->max_shared)
      snprintf(smem, sizeof smem, "at most %llu bytes of shared memory",
               (unsigned long long)l->max_shared);
    rt_log("kernel '%s' on %s: at most %u threads per block, %s, %llu static bytes, %s",
           f->name, l->who, (unsigned)l->threads, shape, (unsigned long long)l->shared, smem);
  }
}

static void *rt_module_new(const void *image, size_t size, int jit, int opt_level,
                           const char *fn) {
  struct rt_module *m = calloc(1, sizeof *m);
  if (!m) {
    rt_error("%s: out of memory", fn);
    return NULL;
  }
  m->reg.image = image;
  m->reg.size = size;
  m->reg.jit = jit;
  /* Classified here, once: the registry keeps it for the backends
   * (registry.h says why they cannot ask image.c themselves). */
  m->reg.im = rt_image_classify(image, size);
  m->opt_level = opt_level;
  pthread_mutex_init(&m->lock, NULL);
  rt_registry_add(&m->reg);
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
  if (fatbin_open(m->reg.image, m->reg.size, &fb, err, sizeof err) != 0) {
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
    const char *passed = dev->select->stands_in ? rt_backends_passed_over() : "";
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
    if (rt_module_fatbin_limits(m, fb, entries, n, (size_t)k, dev) != 0) {
      snprintf(msg, len, "%s: out of memory", fn);
    } else if (fatbin_read_object(fb, (size_t)k, &data, &size, &to_free, err, sizeof err) != 0) {
      snprintf(msg, len, "%s: cannot read %s: %s", fn, what, err);
    } else {
      rc = rt_load_object(m, b, data, size, fatbin_format_is_text(e->format), fn, what, msg, len);
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
  const struct rt_image im = m->reg.im;
  const struct rt_device *dev = rt_device();
  char kind_name[64];
  snprintf(kind_name, sizeof kind_name, "(%s)", rt_image_name(&im));
  rt_module_set_name(m, kind_name);
  if (im.kind == RT_IMAGE_BITCODE) {
    snprintf(msg, len,
             "%s: the module is LLVM bitcode (gpu-module-to-binary format=offload), "
             "which no GPU driver loads; build it with gpucc, or with format=bin",
             fn);
    return -1;
  }
  if (im.kind == RT_IMAGE_PLAIN && im.select->vendor != dev->select->vendor) {
    char arch[64];
    rt_suggest_arch(dev, arch, sizeof arch);
    snprintf(msg, len,
             "%s: the module holds code for %s GPUs (%s), but device %d '%s' (%s) is "
             "an %s GPU; rebuild with --offload-arch=%s",
             fn, im.select->vendor_label, rt_image_name(&im), dev->ordinal, dev->name,
             dev->target_id, dev->select->vendor_label, arch);
    return -1;
  }
  rt_log("module %s: %zu bytes, loaded as they are", rt_module_label(m), m->reg.size);
  if (rt_module_device_limits(m, dev) != 0) {
    snprintf(msg, len, "%s: out of memory", fn);
    return -1;
  }
  char what[128];
  snprintf(what, sizeof what, "a %zu-byte %s", m->reg.size, rt_image_name(&im));
  return rt_load_object(m, b, m->reg.image, m->reg.size, im.plain && im.plain->text, fn, what, msg,
                        len);
}

static int rt_load(struct rt_module *m, const struct rt_backend *b, const char *fn,
                   char *msg, size_t len) {
  if (m->reg.jit) {
    rt_module_set_name(m, "(assembly)");
    if (!b->module_load_jit) {
      snprintf(msg, len,
               "%s: %s cannot JIT-compile assembly (format=isa) objects; rebuild "
               "with binary objects",
               fn, b->label);
      return -1;
    }
    struct rt_err e;
    if (rt_module_device_limits(m, rt_device()) != 0) {
      snprintf(msg, len, "%s: out of memory", fn);
      return -1;
    }
    if (b->module_load_jit((const char *)m->reg.image, m->opt_level, &m->handle, &e) != 0) {
      rt_format_failure(msg, len, fn, b, &e, "for the module's assembly");
      return -1;
    }
    rt_log("module (assembly): JIT-compiled at -O%d", m->opt_level);
    return 0;
  }
  if (m->reg.im.kind == RT_IMAGE_GPUCC)
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
    else
      rt_module_free_limits(m); /* the next use tries again */
  }
  pthread_mutex_unlock(&m->lock);
  if (rc != 0) {
    /* Not cached: with a handler that returns, each use reports again. */
    rt_error("%s", msg);
    return NULL;
  }
  return m->handle;
}

static struct rt_function *rt_function_find(struct rt_module *m, const char *name) {
  for (struct rt_function *f = atomic_load_explicit(&m->functions, memory_order_acquire); f;
       f = f->next)
    if (strcmp(f->symbol, name) == 0)
      return f;
  return NULL;
}

static void rt_function_report(const char *fn, const struct rt_backend *b,
                               const struct rt_err *e, const struct rt_module *m,
                               const char *symbol) {
  static const char fmt[] = "for kernel '%s' of module '%s'";
  const char *mname = rt_module_label(m);
  char *name = symname_display(symbol, 0);
  size_t n = sizeof fmt + (name ? strlen(name) : 0) + strlen(mname);
  char *context = name ? malloc(n) : NULL;
  if (context)
    snprintf(context, n, fmt, name, mname);
  rt_error_failure(fn, b, e, context ? context : "for a kernel");
  free(context);
  free(name);
}

/* Looks the kernel up in the driver and makes its struct rt_function, once
 * per name however many threads ask. Reports failures (after dropping the
 * lock) and returns NULL. */
static struct rt_function *rt_function_add(struct rt_module *m, const struct rt_backend *b,
                                           const char *name, const char *fn) {
  pthread_mutex_lock(&m->lock);
  struct rt_function *f = rt_function_find(m, name);
  struct rt_err e;
  int failed = 0;
  if (!f) {
    size_t len = strlen(name);
    char *shown = symname_display(name, 0);
    size_t shown_len = shown ? strlen(shown) : 0;
    f = shown ? calloc(1, sizeof *f + shown_len + 1 + len + 1) : NULL;
    struct rt_limits *limits = calloc(m->ntargets ? m->ntargets : 1, sizeof *limits);
    if (!f || !limits) {
      failed = rt_fail_msg(&e, "out of memory");
    } else if (b->module_function(m->handle, name, &f->handle, &e) != 0) {
      failed = 1;
    } else {
      memcpy(f->name, shown, shown_len + 1);
      f->symbol = memcpy(f->name + shown_len + 1, name, len + 1);
      if (b->function_module)
        b->function_module(f->handle, f->name, rt_module_label(m));
      f->limits = limits;
      f->nlimits = m->ntargets;
      rt_function_limits(m, b, f);
      f->next = atomic_load_explicit(&m->functions, memory_order_relaxed);
      atomic_store_explicit(&m->functions, f, memory_order_release);
    }
    if (failed) {
      free(f);
      free(limits);
      f = NULL;
    }
    free(shown);
  }
  pthread_mutex_unlock(&m->lock);
  if (failed)
    rt_function_report(fn, b, &e, m, name);
  return f;
}

RT_EXPORT void *mgpuModuleGetFunction(void *module, const char *name) {
  static const char fn[] = "mgpuModuleGetFunction";
  struct rt_module *m = module;
  if (!m) {
    char *shown = name ? symname_display(name, 0) : NULL;
    rt_error("%s: no module for kernel '%s' (mgpuModuleLoad failed earlier)", fn,
             shown ? shown : "?");
    free(shown);
    return NULL;
  }
  if (!name) {
    rt_error("%s: no kernel name (NULL)", fn);
    return NULL;
  }
  const struct rt_backend *b = rt_backend_get(fn);
  if (!b)
    return NULL;
  if (!rt_module_handle(m, b, fn))
    return NULL;
  struct rt_function *f = rt_function_find(m, name);
  return f ? f : rt_function_add(m, b, name, fn);
}

RT_EXPORT void mgpuModuleUnload(void *module) {
  struct rt_module *m = module;
  if (!m)
    return;
  rt_registry_remove(&m->reg);

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
  for (struct rt_function *f = atomic_load_explicit(&m->functions, memory_order_acquire), *next;
       f; f = next) {
    next = f->next;
    free(f->limits);
    free(f);
  }
  rt_module_free_limits(m);
  pthread_mutex_destroy(&m->lock);
  free(m->name);
  free(m);
}


