/* bench_driver.h: what the runtime benchmarks share: the clock, and the few
 * CUDA driver entry points they call directly on the fake driver
 * (tests/runtime/fake_cuda.c) to have a baseline next to libgpucc_rt.
 *
 * The driver is the file GPUCC_CUDA_LIBRARY names, the one the runtime
 * dlopen()s too: dlopen() of the same file returns the same loaded object, so
 * both paths run the same code and share its state (the current context). */
#ifndef GPUCC_BENCH_DRIVER_H
#define GPUCC_BENCH_DRIVER_H

#include <dlfcn.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct bench_cu {
  int (*Init)(unsigned);
  int (*DeviceGet)(int *, int);
  int (*DevicePrimaryCtxRetain)(void **, int);
  int (*CtxPushCurrent)(void *);
  int (*CtxPopCurrent)(void **);
  int (*ModuleLoadData)(void **, const void *);
  int (*ModuleUnload)(void *);
  int (*ModuleGetFunction)(void **, void *, const char *);
  int (*LaunchKernel)(void *, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                      unsigned, void *, void **, void **);
};

static inline double bench_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Stops the benchmark: it measures nothing worth printing after a failure. */
#define BENCH_CHECK(cond)                                                           \
  do {                                                                              \
    if (!(cond)) {                                                                  \
      fprintf(stderr, "%s:%d: %s failed\n", __FILE__, __LINE__, #cond);             \
      exit(1);                                                                      \
    }                                                                               \
  } while (0)

/* Opens the driver, starts it and makes device 0's primary context current in
 * this thread, as a CUDA C program does once before launching. */
static inline void bench_cu_open(struct bench_cu *cu) {
  const char *path = getenv("GPUCC_CUDA_LIBRARY");
  BENCH_CHECK(path && *path);
  void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!lib)
    fprintf(stderr, "%s\n", dlerror());
  BENCH_CHECK(lib != NULL);
  static const struct {
    const char *name;
    size_t offset;
  } syms[] = {
      {"cuInit", offsetof(struct bench_cu, Init)},
      {"cuDeviceGet", offsetof(struct bench_cu, DeviceGet)},
      {"cuDevicePrimaryCtxRetain", offsetof(struct bench_cu, DevicePrimaryCtxRetain)},
      {"cuCtxPushCurrent_v2", offsetof(struct bench_cu, CtxPushCurrent)},
      {"cuCtxPopCurrent_v2", offsetof(struct bench_cu, CtxPopCurrent)},
      {"cuModuleLoadData", offsetof(struct bench_cu, ModuleLoadData)},
      {"cuModuleUnload", offsetof(struct bench_cu, ModuleUnload)},
      {"cuModuleGetFunction", offsetof(struct bench_cu, ModuleGetFunction)},
      {"cuLaunchKernel", offsetof(struct bench_cu, LaunchKernel)},
  };
  for (size_t i = 0; i < sizeof syms / sizeof syms[0]; i++) {
    void *sym = dlsym(lib, syms[i].name);
    BENCH_CHECK(sym != NULL);
    memcpy((char *)cu + syms[i].offset, &sym, sizeof sym);
  }
  int dev;
  void *ctx;
  BENCH_CHECK(cu->Init(0) == 0);
  BENCH_CHECK(cu->DeviceGet(&dev, 0) == 0);
  BENCH_CHECK(cu->DevicePrimaryCtxRetain(&ctx, dev) == 0);
  BENCH_CHECK(cu->CtxPushCurrent(ctx) == 0);
}

#endif
