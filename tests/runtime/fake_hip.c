/* fake_hip.c: a stand-in for libamdhip64.so, for testing the runtime.
 *
 * Implements the HIP entry points that runtime/backend_hip.c uses, for a
 * scripted device, on the host (device memory is malloc'ed memory).
 * Built twice: as ROCm 6 (exports hipGetDevicePropertiesR0600) and, with
 * FAKE_HIP_ROCM5, as ROCm 5 (exports hipGetDeviceProperties), each putting
 * gcnArchName at a different offset of the properties struct with other
 * fields around it, as the two real layouts do. Environment:
 *   FAKE_HIP_ARCH=gfx90a:sramecc+:xnack-   gcnArchName of every device
 *   FAKE_HIP_DEVICES=1, FAKE_HIP_NAME=Fake AMD GPU
 *   FAKE_HIP_LOG=path, FAKE_HIP_FAIL=a,b, FAKE_HIP_FAIL_CODE=2
 *   FAKE_HIP_SMEM=65536        LDS per workgroup (hipDeviceGetAttribute)
 *   FAKE_HIP_FUNC_THREADS=1024 what hipFuncGetAttribute says of every
 *   FAKE_HIP_FUNC_SHARED=0     function: most threads per block (its
 *                              flat_work_group_size), static LDS bytes
 * Operations log the calling thread's current device (set by hipSetDevice,
 * -1 before), so tests can check that the runtime selected it. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fake_common.h"

typedef int hipError_t;

#define LOG(...) fake_log("FAKE_HIP_LOG", __VA_ARGS__)

#define FAKE_STR(x) #x
#define FAKE_XSTR(x) FAKE_STR(x)

#ifdef FAKE_HIP_ROCM5
#define FAKE_PROPS_SYMBOL hipGetDeviceProperties
#define FAKE_ARCH_OFFSET 396 /* somewhere in the R0000 layout */
#define FAKE_PROPS_SIZE 792
#else
#define FAKE_PROPS_SYMBOL hipGetDevicePropertiesR0600
#define FAKE_ARCH_OFFSET 1160 /* somewhere in the R0600 layout */
#define FAKE_PROPS_SIZE 1472
#endif

static const struct {
  int code;
  const char *name, *text;
} fake_errors[] = {
    {0, "hipSuccess", "no error"},
    {1, "hipErrorInvalidValue", "invalid argument"},
    {2, "hipErrorOutOfMemory", "out of memory"},
    {4, "hipErrorDeinitialized", "driver shutting down"},
    {100, "hipErrorNoDevice", "no ROCm-capable device is detected"},
    {101, "hipErrorInvalidDevice", "invalid device ordinal"},
    {209, "hipErrorNoBinaryForGpu", "no kernel image is available for execution on the device"},
    {500, "hipErrorNotFound", "named symbol not found"},
    {700, "hipErrorIllegalAddress", "an illegal memory access was encountered"},
    {710, "hipErrorAssert", "device-side assert triggered"},
    {719, "hipErrorLaunchFailure", "unspecified launch failure"},
};

static _Thread_local int fake_current = -1;

static int fake_fail(const char *call) {
  if (!fake_should_fail("FAKE_HIP_FAIL", call))
    return 0;
  int code = (int)fake_env_long("FAKE_HIP_FAIL_CODE", 2);
  LOG("%s -> fail %d", call, code);
  return code;
}

static int fake_devices(void) { return (int)fake_env_long("FAKE_HIP_DEVICES", 1); }
static const char *fake_arch(void) {
  return fake_env_str("FAKE_HIP_ARCH", "gfx90a:sramecc+:xnack-");
}

FAKE_EXPORT const char *hipGetErrorName(hipError_t r) {
  for (size_t i = 0; i < sizeof fake_errors / sizeof fake_errors[0]; i++)
    if (fake_errors[i].code == r)
      return fake_errors[i].name;
  return "hipErrorUnknown";
}

FAKE_EXPORT const char *hipGetErrorString(hipError_t r) {
  for (size_t i = 0; i < sizeof fake_errors / sizeof fake_errors[0]; i++)
    if (fake_errors[i].code == r)
      return fake_errors[i].text;
  return "unknown error";
}

FAKE_EXPORT hipError_t hipInit(unsigned flags) {
  LOG("hipInit flags=%u", flags);
  return fake_devices() == 0 ? 100 : fake_fail("hipInit");
}

FAKE_EXPORT hipError_t hipGetDeviceCount(int *n) {
  *n = fake_devices();
  return *n == 0 ? 100 : 0;
}

FAKE_EXPORT hipError_t hipDeviceGetName(char *name, int len, int device) {
  (void)device;
  snprintf(name, (size_t)len, "%s", fake_env_str("FAKE_HIP_NAME", "Fake AMD GPU"));
  return 0;
}

FAKE_EXPORT hipError_t FAKE_PROPS_SYMBOL(void *props, int device) {
  LOG("%s device=%d", FAKE_XSTR(FAKE_PROPS_SYMBOL), device);
  if (device < 0 || device >= fake_devices())
    return 101;
  unsigned char *p = props;
  memset(p, 0, FAKE_PROPS_SIZE);
  snprintf((char *)p, 256, "%s", fake_env_str("FAKE_HIP_NAME", "Fake AMD GPU"));
  /* Other fields: sizes and counts, bytes that are not text. */
  for (size_t i = 256; i < FAKE_ARCH_OFFSET; i += 8) {
    uint64_t v = 0x100000000ull + i * 977;
    memcpy(p + i, &v, sizeof v);
  }
  snprintf((char *)p + FAKE_ARCH_OFFSET, 256, "%s", fake_arch());
  uint32_t after = 64; /* e.g. a warp size right after the name */
  memcpy(p + FAKE_ARCH_OFFSET + 256, &after, sizeof after);
  return 0;
}

FAKE_EXPORT hipError_t hipSetDevice(int device) {
  LOG("hipSetDevice device=%d", device);
  if (device < 0 || device >= fake_devices())
    return 101;
  fake_current = device;
  return fake_fail("hipSetDevice");
}

FAKE_EXPORT hipError_t hipModuleLoadData(void **module, const void *image) {
  char text[40];
  fake_printable(image, 32, text, sizeof text);
  LOG("hipModuleLoadData device=%d image=%s", fake_current, text);
  int r = fake_fail("hipModuleLoadData");
  /* Reject "FAKEHSACO:<gfx>..." images for another processor. */
  static const char tag[] = "FAKEHSACO:";
  const char *arch = fake_arch();
  size_t plen = strcspn(arch, ":");
  if (r == 0 && strncmp(image, tag, sizeof tag - 1) == 0) {
    const char *proc = (const char *)image + sizeof tag - 1;
    if (strncmp(proc, arch, plen) != 0 || (proc[plen] != ':' && proc[plen] != '\0'))
      r = 209;
  }
  if (r == 0)
    *module = malloc(16);
  return r;
}

FAKE_EXPORT hipError_t hipModuleUnload(void *module) {
  LOG("hipModuleUnload");
  free(module);
  return 0;
}

FAKE_EXPORT hipError_t hipModuleGetFunction(void **function, void *module, const char *name) {
  (void)module;
  LOG("hipModuleGetFunction device=%d name=%s", fake_current, name);
  if (strcmp(name, "missing") == 0)
    return 500;
  /* Functions are identified by a small table of names: enough for tests. */
  static char names[8][64];
  static int next;
  static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
  pthread_mutex_lock(&lock);
  int i = 0;
  while (i < 8 && strcmp(names[i], name) != 0)
    i++;
  if (i == 8) {
    i = next++ % 8;
    snprintf(names[i], sizeof names[i], "%s", name);
  }
  *function = names[i];
  pthread_mutex_unlock(&lock);
  return fake_fail("hipModuleGetFunction");
}

/* ROCm 5+ numbers (alphabetical in the CUDA-compatible range). AMD
 * reports blocks up to 1024 deep in z. */
FAKE_EXPORT hipError_t hipDeviceGetAttribute(int *v, int attr, int device) {
  if (device < 0 || device >= fake_devices())
    return 101;
  switch (attr) {
  case 26: case 27: case 28: /* hipDeviceAttributeMaxBlockDimX/Y/Z */
  case 56:                   /* hipDeviceAttributeMaxThreadsPerBlock */
    *v = 1024;
    return 0;
  case 29: /* hipDeviceAttributeMaxGridDimX */
    *v = 2147483647;
    return 0;
  case 30: case 31:
    *v = 65536;
    return 0;
  case 74: /* hipDeviceAttributeMaxSharedMemoryPerBlock */
    *v = (int)fake_env_long("FAKE_HIP_SMEM", 65536);
    return 0;
  }
  *v = 0;
  return 0;
}

FAKE_EXPORT hipError_t hipFuncGetAttribute(int *v, int attr, void *function) {
  LOG("hipFuncGetAttribute device=%d name=%s attr=%d", fake_current, (const char *)function,
      attr);
  int r = fake_fail("hipFuncGetAttribute");
  if (r != 0)
    return r;
  if (attr == 0)
    *v = (int)fake_env_long("FAKE_HIP_FUNC_THREADS", 1024);
  else if (attr == 1)
    *v = (int)fake_env_long("FAKE_HIP_FUNC_SHARED", 0);
  else
    return 1;
  return 0;
}

FAKE_EXPORT hipError_t hipModuleLaunchKernel(void *function, unsigned gx, unsigned gy,
                                             unsigned gz, unsigned bx, unsigned by,
                                             unsigned bz, unsigned smem, void *stream,
                                             void **params, void **extra) {
  LOG("hipModuleLaunchKernel device=%d name=%s grid=%u,%u,%u block=%u,%u,%u smem=%u "
      "stream=%p params=%p extra=%p",
      fake_current, (const char *)function, gx, gy, gz, bx, by, bz, smem, stream,
      (void *)params, (void *)extra);
  return fake_fail("hipModuleLaunchKernel");
}

FAKE_EXPORT hipError_t hipStreamCreateWithFlags(void **stream, unsigned flags) {
  LOG("hipStreamCreateWithFlags device=%d flags=%u", fake_current, flags);
  *stream = malloc(16);
  return 0;
}

FAKE_EXPORT hipError_t hipStreamDestroy(void *stream) {
  LOG("hipStreamDestroy");
  free(stream);
  return 0;
}

FAKE_EXPORT hipError_t hipStreamSynchronize(void *stream) {
  LOG("hipStreamSynchronize stream=%p", stream);
  return fake_fail("hipStreamSynchronize");
}

FAKE_EXPORT hipError_t hipStreamWaitEvent(void *stream, void *event, unsigned flags) {
  LOG("hipStreamWaitEvent stream=%p event=%p flags=%u", stream, event, flags);
  return 0;
}

FAKE_EXPORT hipError_t hipEventCreateWithFlags(void **event, unsigned flags) {
  LOG("hipEventCreateWithFlags flags=%u", flags);
  *event = malloc(16);
  return 0;
}

FAKE_EXPORT hipError_t hipEventDestroy(void *event) {
  LOG("hipEventDestroy");
  free(event);
  return 0;
}

FAKE_EXPORT hipError_t hipEventSynchronize(void *event) {
  LOG("hipEventSynchronize event=%p", event);
  return fake_fail("hipEventSynchronize");
}

FAKE_EXPORT hipError_t hipEventRecord(void *event, void *stream) {
  LOG("hipEventRecord event=%p stream=%p", event, stream);
  return 0;
}

FAKE_EXPORT hipError_t hipMalloc(void **p, size_t size) {
  LOG("hipMalloc device=%d size=%zu", fake_current, size);
  int r = fake_fail("hipMalloc");
  if (r == 0)
    *p = malloc(size);
  return r;
}

FAKE_EXPORT hipError_t hipMallocManaged(void **p, size_t size, unsigned flags) {
  LOG("hipMallocManaged device=%d size=%zu flags=%u", fake_current, size, flags);
  int r = fake_fail("hipMallocManaged");
  if (r == 0)
    *p = malloc(size);
  return r;
}

FAKE_EXPORT hipError_t hipFree(void *p) {
  LOG("hipFree ptr=%p", p);
  free(p);
  return 0;
}

FAKE_EXPORT hipError_t hipMemcpyAsync(void *dst, const void *src, size_t size, int kind,
                                      void *stream) {
  LOG("hipMemcpyAsync size=%zu kind=%d stream=%p", size, kind, stream);
  memcpy(dst, src, size);
  return 0;
}

FAKE_EXPORT hipError_t hipMemsetD32Async(void *dst, int value, size_t n, void *stream) {
  LOG("hipMemsetD32Async value=%#x count=%zu stream=%p", (unsigned)value, n, stream);
  for (size_t i = 0; i < n; i++)
    ((int32_t *)dst)[i] = value;
  return 0;
}

FAKE_EXPORT hipError_t hipMemsetD16Async(void *dst, unsigned short value, size_t n,
                                         void *stream) {
  LOG("hipMemsetD16Async value=%#x count=%zu stream=%p", value, n, stream);
  for (size_t i = 0; i < n; i++)
    ((uint16_t *)dst)[i] = value;
  return 0;
}

FAKE_EXPORT hipError_t hipHostRegister(void *p, size_t size, unsigned flags) {
  LOG("hipHostRegister ptr=%p size=%zu flags=%u", p, size, flags);
  return 0;
}

FAKE_EXPORT hipError_t hipHostUnregister(void *p) {
  LOG("hipHostUnregister ptr=%p", p);
  return 0;
}
