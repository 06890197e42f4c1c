/* native_nvidia.c: the NVIDIA kind's --offload-arch=native probe: the CUDA
 * driver's devices and their compute capability (see native_probe.h). */
#include "native_probe.h"

#include <dlfcn.h>
#include <stdio.h>

#define CU_COMPUTE_MAJOR 75 /* CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR */
#define CU_COMPUTE_MINOR 76

void native_probe_nvidia(struct native_found *f) {
  static const char *const names[] = {"libcuda.so.1", "libcuda.so", NULL};
  void *h = native_open_first("GPUCC_CUDA_LIBRARY", names);
  if (!h) {
    native_why(f, "CUDA: driver library not found");
    return;
  }
  int (*init)(unsigned) = (int (*)(unsigned))dlsym(h, "cuInit");
  int (*count)(int *) = (int (*)(int *))dlsym(h, "cuDeviceGetCount");
  int (*get)(int *, int) = (int (*)(int *, int))dlsym(h, "cuDeviceGet");
  int (*attr)(int *, int, int) = (int (*)(int *, int, int))dlsym(h, "cuDeviceGetAttribute");
  int n = 0;
  if (!init || !count || !get || !attr || init(0) != 0 || count(&n) != 0 || n == 0) {
    native_why(f, "CUDA: no device");
    return;
  }
  for (int i = 0; i < n; i++) {
    int dev, major = 0, minor = 0;
    if (get(&dev, i) != 0 || attr(&major, CU_COMPUTE_MAJOR, dev) != 0 ||
        attr(&minor, CU_COMPUTE_MINOR, dev) != 0)
      continue;
    char chip[32];
    snprintf(chip, sizeof chip, "sm_%d%d", major, minor);
    native_add(f, chip);
  }
}
