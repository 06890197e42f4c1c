/* native_amd.c: the AMD kind's --offload-arch=native probe: the HIP
 * runtime's devices (see native_probe.h). The architecture name comes from
 * hipDeviceProp_t.gcnArchName, whose offset differs between ROCm 5 and 6:
 * like the runtime, we fill a large zeroed buffer and take the first string
 * after the 256-byte name that starts with "gfx". */
#include "native_probe.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

void native_probe_amd(struct native_found *f) {
  static const char *const names[] = {"libamdhip64.so", "libamdhip64.so.6", "libamdhip64.so.5", NULL};
  void *h = native_open_first("GPUCC_HIP_LIBRARY", names);
  if (!h) {
    native_why(f, "HIP: runtime library not found");
    return;
  }
  int (*init)(unsigned) = (int (*)(unsigned))dlsym(h, "hipInit");
  int (*count)(int *) = (int (*)(int *))dlsym(h, "hipGetDeviceCount");
  int (*props)(void *, int) = (int (*)(void *, int))dlsym(h, "hipGetDevicePropertiesR0600");
  if (!props)
    props = (int (*)(void *, int))dlsym(h, "hipGetDeviceProperties");
  int n = 0;
  if (!init || !count || !props || init(0) != 0 || count(&n) != 0 || n == 0) {
    native_why(f, "HIP: no device");
    return;
  }
  static char buf[16384];
  for (int i = 0; i < n; i++) {
    memset(buf, 0, sizeof buf);
    if (props(buf, i) != 0)
      continue;
    for (size_t k = 256; k + 4 < sizeof buf; k++) {
      if (buf[k] == 'g' && buf[k + 1] == 'f' && buf[k + 2] == 'x' && buf[k - 1] == '\0') {
        char chip[64];
        snprintf(chip, sizeof chip, "%.63s", buf + k);
        chip[strcspn(chip, ":")] = '\0'; /* processor only: runs in any xnack mode */
        native_add(f, chip);
        break;
      }
    }
  }
}
