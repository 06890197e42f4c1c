/* registry.h: the images the program has loaded (mgpuModuleLoad*), in load
 * order. module.c adds and removes them; what only reads them, the
 * "this program carries code for" of an error (init.c) and the host
 * backend's search for a shared library (backend_host.c), comes here, so
 * that it never calls back into module.c. */
#ifndef GPUCC_RT_REGISTRY_H
#define GPUCC_RT_REGISTRY_H

#include <stddef.h>

/* One loaded image; embedded in module.c's struct rt_module. */
struct rt_registered {
  const unsigned char *image; /* the program's constant; not owned */
  size_t size;                /* 0 for mgpuModuleLoadJIT (NUL-terminated) */
  int jit;
  struct rt_registered *prev, *next;
};

void rt_registry_add(struct rt_registered *r);
void rt_registry_remove(struct rt_registered *r);

#endif
