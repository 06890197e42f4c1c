/* registry.h: the images the program has loaded (mgpuModuleLoad*), in load
 * order. module.c adds and removes them; what only reads them, the
 * "this program carries code for" of an error (loaded_targets.c, for
 * init.c), the host backend's search for a shared library (backend_host.c)
 * and the Vulkan backend's look for SPIR-V (backend_vulkan.c), walks them
 * here, so that it never calls back into module.c.
 *
 * The registry is below the backends, which walk it when they probe:
 * registry.c calls nothing of the runtime's. */
#ifndef GPUCC_RT_REGISTRY_H
#define GPUCC_RT_REGISTRY_H

#include <stddef.h>

#include "image.h"

/* One loaded image; embedded in module.c's struct rt_module. */
struct rt_registered {
  const unsigned char *image; /* the program's constant; not owned */
  size_t size;                /* 0 for mgpuModuleLoadJIT (NUL-terminated) */
  int jit;
  /* What the image is, classified once by module.c when it is loaded:
   * classifying asks every backend's rules (image.c loops over the backend
   * list), so a backend reads the answer here rather than calling up into
   * the list that names it. UNKNOWN for JIT text. */
  struct rt_image im;
  struct rt_registered *prev, *next;
};

void rt_registry_add(struct rt_registered *r);
void rt_registry_remove(struct rt_registered *r);

/* Calls fn(r, ud) for each loaded module's image, in load order, until fn
 * returns non-zero, which is returned; 0 when none did. Runs under the
 * registry's lock: fn must not load or unload modules. */
int rt_modules_each_image(int (*fn)(const struct rt_registered *r, void *ud), void *ud);

#endif
