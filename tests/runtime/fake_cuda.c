/* fake_cuda.c: a stand-in for libcuda.so.1, for testing the runtime.
 *
 * Implements the CUDA driver entry points that runtime/backend_cuda.c uses,
 * for a scripted device, on the host: "device memory" is malloc'ed host
 * memory, so copies and fills really happen and tests can check them.
 * Environment:
 *   FAKE_CUDA_CC=9.0           compute capability of every device
 *   FAKE_CUDA_DEVICES=1        number of devices (0: cuInit fails with NO_DEVICE)
 *   FAKE_CUDA_NAME=Fake GPU    device name
 *   FAKE_CUDA_SMEM_OPTIN=232448 opt-in shared memory per block
 *   FAKE_CUDA_MAX_BLOCK=1024,1024,64  block limits (x, y, z) of the device
 *   FAKE_CUDA_MAX_GRID=2147483647,65535,65535  grid limits
 *   FAKE_CUDA_FUNC_THREADS=1024 what cuFuncGetAttribute says of every
 *   FAKE_CUDA_FUNC_SHARED=0     function: most threads per block (its
 *                               registers', .maxntid's), static shared bytes
 *   FAKE_CUDA_LOG=path         one line per call is appended there
 *   FAKE_CUDA_FAIL=a,b         these calls fail...
 *   FAKE_CUDA_FAIL_CODE=2      ...with this CUresult (default out of memory);
 *                              700, 719 and the like are how the real driver
 *                              reports a kernel that faulted, at the next
 *                              synchronization, copy or launch
 *   FAKE_CUDA_DUMP_ARGS=n      cuLaunchKernel logs n 64-bit kernel arguments
 *   FAKE_CUDA_MODE=bench       no log, no scripted failures, no environment
 *                              reads after the first call: what the
 *                              benchmarks (tests/bench/runtime) time is then
 *                              the runtime's own cost, not the fake's
 * Like the real driver it rejects a module whose image says it is for
 * another device ("FAKECUBIN:sm_XY..." images), and operations that need a
 * context fail with CUDA_ERROR_INVALID_CONTEXT when none is current in the
 * calling thread. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fake_common.h"

typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;

static int fake_bench(void);
#define LOG(...)                                                                   \
  do {                                                                             \
    if (!fake_bench())                                                             \
      fake_log("FAKE_CUDA_LOG", __VA_ARGS__);                                      \
  } while (0)

enum {
  OK = 0,
  INVALID_VALUE = 1,
  NO_DEVICE = 100,
  INVALID_DEVICE = 101,
  INVALID_CONTEXT = 201,
  NO_BINARY_FOR_GPU = 209,
  INVALID_PTX = 218,
  NOT_FOUND = 500,
};

static const struct {
  int code;
  const char *name, *text;
} fake_errors[] = {
    {0, "CUDA_SUCCESS", "no error"},
    {1, "CUDA_ERROR_INVALID_VALUE", "invalid argument"},
    {2, "CUDA_ERROR_OUT_OF_MEMORY", "out of memory"},
    {3, "CUDA_ERROR_NOT_INITIALIZED", "initialization error"},
    {4, "CUDA_ERROR_DEINITIALIZED", "driver shutting down"},
    {100, "CUDA_ERROR_NO_DEVICE", "no CUDA-capable device is detected"},
    {101, "CUDA_ERROR_INVALID_DEVICE", "invalid device ordinal"},
    {201, "CUDA_ERROR_INVALID_CONTEXT", "invalid device context"},
    {209, "CUDA_ERROR_NO_BINARY_FOR_GPU",
     "no kernel image is available for execution on the device"},
    {218, "CUDA_ERROR_INVALID_PTX", "a PTX JIT compilation failed"},
    {500, "CUDA_ERROR_NOT_FOUND", "named symbol not found"},
    {700, "CUDA_ERROR_ILLEGAL_ADDRESS", "an illegal memory access was encountered"},
    {710, "CUDA_ERROR_ASSERT", "device-side assert triggered"},
    {714, "CUDA_ERROR_HARDWARE_STACK_ERROR", "hardware stack error"},
    {715, "CUDA_ERROR_ILLEGAL_INSTRUCTION", "an illegal instruction was encountered"},
    {716, "CUDA_ERROR_MISALIGNED_ADDRESS", "misaligned address"},
    {719, "CUDA_ERROR_LAUNCH_FAILED", "unspecified launch failure"},
};

/* A module and the functions handed out for it. */
struct fake_function {
  char name[64];
  struct fake_function *next;
};
struct fake_module {
  pthread_mutex_t lock;
  struct fake_function *functions;
};

static int fake_ctx_object; /* the primary context's identity */
static _Thread_local int fake_ctx_depth;

/* Whether FAKE_CUDA_MODE=bench; read once (a getenv per call would cost more
 * than the rest of a fake launch). Racing first reads store the same value. */
static int fake_bench(void) {
  static atomic_int mode = -1;
  int m = atomic_load_explicit(&mode, memory_order_relaxed);
  if (m < 0) {
    m = strcmp(fake_env_str("FAKE_CUDA_MODE", ""), "bench") == 0;
    atomic_store_explicit(&mode, m, memory_order_relaxed);
  }
  return m;
}

static int fake_fail(const char *call) {
  if (fake_bench())
    return OK;
  if (!fake_should_fail("FAKE_CUDA_FAIL", call))
    return OK;
  int code = (int)fake_env_long("FAKE_CUDA_FAIL_CODE", 2);
  LOG("%s -> fail %d", call, code);
  return code;
}

static void fake_cc(int *major, int *minor) {
  const char *cc = fake_env_str("FAKE_CUDA_CC", "9.0");
  *major = atoi(cc);
  const char *dot = strchr(cc, '.');
  *minor = dot ? atoi(dot + 1) : 0;
}

static int fake_devices(void) { return (int)fake_env_long("FAKE_CUDA_DEVICES", 1); }

static CUresult fake_need_ctx(const char *call) {
  if (fake_ctx_depth > 0)
    return OK;
  LOG("%s -> no current context", call);
  return INVALID_CONTEXT;
}

FAKE_EXPORT CUresult cuGetErrorName(CUresult r, const char **s) {
  for (size_t i = 0; i < sizeof fake_errors / sizeof fake_errors[0]; i++)
    if (fake_errors[i].code == r) {
      *s = fake_errors[i].name;
      return OK;
    }
  *s = NULL;
  return INVALID_VALUE;
}

FAKE_EXPORT CUresult cuGetErrorString(CUresult r, const char **s) {
  for (size_t i = 0; i < sizeof fake_errors / sizeof fake_errors[0]; i++)
    if (fake_errors[i].code == r) {
      *s = fake_errors[i].text;
      return OK;
    }
  *s = NULL;
  return INVALID_VALUE;
}

FAKE_EXPORT CUresult cuInit(unsigned flags) {
  LOG("cuInit flags=%u", flags);
  if (fake_devices() == 0)
    return NO_DEVICE;
  return fake_fail("cuInit");
}

FAKE_EXPORT CUresult cuDeviceGetCount(int *n) {
  *n = fake_devices();
  return fake_fail("cuDeviceGetCount");
}

FAKE_EXPORT CUresult cuDeviceGet(CUdevice *d, int ordinal) {
  LOG("cuDeviceGet ordinal=%d", ordinal);
  if (ordinal < 0 || ordinal >= fake_devices())
    return INVALID_DEVICE;
  *d = ordinal;
  return OK;
}

/* Component i of "x,y,z" in the variable name, or dflt[i]. */
static int fake_dim(const char *name, int i, const int dflt[3]) {
  const char *s = fake_env_str(name, "");
  for (int k = 0; k < i && s; k++) {
    s = strchr(s, ',');
    s = s ? s + 1 : NULL;
  }
  return s && *s ? atoi(s) : dflt[i];
}

FAKE_EXPORT CUresult cuDeviceGetAttribute(int *v, int attr, CUdevice d) {
  (void)d;
  static const int block[3] = {1024, 1024, 64}, grid[3] = {2147483647, 65535, 65535};
  int major, minor;
  fake_cc(&major, &minor);
  switch (attr) {
  case 1: /* MAX_THREADS_PER_BLOCK */
    *v = 1024;
    break;
  case 2: case 3: case 4: /* MAX_BLOCK_DIM_X/Y/Z */
    *v = fake_dim("FAKE_CUDA_MAX_BLOCK", attr - 2, block);
    break;
  case 5: case 6: case 7: /* MAX_GRID_DIM_X/Y/Z */
    *v = fake_dim("FAKE_CUDA_MAX_GRID", attr - 5, grid);
    break;
  case 75:
    *v = major;
    break;
  case 76:
    *v = minor;
    break;
  case 97:
    *v = (int)fake_env_long("FAKE_CUDA_SMEM_OPTIN", 232448);
    break;
  default:
    *v = 0;
  }
  return OK;
}

FAKE_EXPORT CUresult cuDeviceGetName(char *name, int len, CUdevice d) {
  (void)d;
  snprintf(name, (size_t)len, "%s", fake_env_str("FAKE_CUDA_NAME", "Fake GPU"));
  return OK;
}

FAKE_EXPORT CUresult cuDevicePrimaryCtxRetain(void **ctx, CUdevice d) {
  LOG("cuDevicePrimaryCtxRetain device=%d", d);
  *ctx = &fake_ctx_object;
  return fake_fail("cuDevicePrimaryCtxRetain");
}

FAKE_EXPORT CUresult cuCtxPushCurrent_v2(void *ctx) {
  if (ctx != &fake_ctx_object)
    return INVALID_CONTEXT;
  CUresult r = fake_fail("cuCtxPushCurrent_v2");
  if (r == OK)
    fake_ctx_depth++;
  return r;
}

FAKE_EXPORT CUresult cuCtxPopCurrent_v2(void **ctx) {
  if (fake_ctx_depth == 0)
    return INVALID_CONTEXT;
  fake_ctx_depth--;
  if (ctx)
    *ctx = &fake_ctx_object;
  return OK;
}

/* Rejects "FAKECUBIN:sm_XY" images that the device could not run. */
static CUresult fake_check_image(const char *image) {
  static const char tag[] = "FAKECUBIN:sm_";
  if (strncmp(image, tag, sizeof tag - 1) != 0)
    return OK;
  int sm = atoi(image + sizeof tag - 1), major, minor;
  fake_cc(&major, &minor);
  if (sm / 10 != major || sm % 10 > minor)
    return NO_BINARY_FOR_GPU;
  return OK;
}

static struct fake_module *fake_module_new(void) {
  struct fake_module *m = calloc(1, sizeof *m);
  pthread_mutex_init(&m->lock, NULL);
  return m;
}

FAKE_EXPORT CUresult cuModuleLoadData(void **module, const void *image) {
  char text[40] = "";
  if (!fake_bench())
    fake_printable(image, 24, text, sizeof text);
  LOG("cuModuleLoadData image=%s", text);
  CUresult r = fake_need_ctx("cuModuleLoadData");
  if (r == OK)
    r = fake_fail("cuModuleLoadData");
  if (r == OK)
    r = fake_check_image(image);
  if (r == OK)
    *module = fake_module_new();
  return r;
}

FAKE_EXPORT CUresult cuModuleLoadDataEx(void **module, const void *image, unsigned n,
                                        int *options, void **values) {
  char text[40];
  fake_printable(image, 24, text, sizeof text);
  /* strlen: the runtime must hand PTX over NUL-terminated (sanitizers catch
   * an overrun here). */
  size_t len = strlen(image);
  int opt = -1;
  char *log = NULL;
  size_t logsize = 0;
  for (unsigned i = 0; i < n; i++) {
    if (options[i] == 7)
      opt = (int)(uintptr_t)values[i];
    else if (options[i] == 5)
      log = values[i];
    else if (options[i] == 6)
      logsize = (size_t)(uintptr_t)values[i];
  }
  LOG("cuModuleLoadDataEx len=%zu opt=%d image=%s", len, opt, text);
  CUresult r = fake_need_ctx("cuModuleLoadDataEx");
  if (r == OK && (r = fake_fail("cuModuleLoadDataEx")) != OK && log && logsize)
    snprintf(log, logsize, "ptxas fatal: fake JIT error at line 1");
  if (r == OK)
    *module = fake_module_new();
  return r;
}

FAKE_EXPORT CUresult cuModuleUnload(void *module) {
  LOG("cuModuleUnload");
  /* Freed even when told to fail: a driver shutting down drops it too. */
  CUresult r = fake_fail("cuModuleUnload");
  struct fake_module *m = module;
  while (m->functions) {
    struct fake_function *f = m->functions;
    m->functions = f->next;
    free(f);
  }
  pthread_mutex_destroy(&m->lock);
  free(m);
  return r;
}

FAKE_EXPORT CUresult cuModuleGetFunction(void **function, void *module, const char *name) {
  LOG("cuModuleGetFunction name=%s", name);
  CUresult r = fake_need_ctx("cuModuleGetFunction");
  if (r == OK)
    r = fake_fail("cuModuleGetFunction");
  if (r != OK)
    return r;
  if (strcmp(name, "missing") == 0)
    return NOT_FOUND;
  struct fake_module *m = module;
  pthread_mutex_lock(&m->lock);
  struct fake_function *f = m->functions;
  while (f && strcmp(f->name, name) != 0)
    f = f->next;
  if (!f) {
    f = calloc(1, sizeof *f);
    snprintf(f->name, sizeof f->name, "%s", name);
    f->next = m->functions;
    m->functions = f;
  }
  pthread_mutex_unlock(&m->lock);
  *function = f;
  return OK;
}

FAKE_EXPORT CUresult cuFuncSetAttribute(void *function, int attr, int value) {
  struct fake_function *f = function;
  LOG("cuFuncSetAttribute name=%s attr=%d value=%d", f->name, attr, value);
  CUresult r = fake_need_ctx("cuFuncSetAttribute");
  return r == OK ? fake_fail("cuFuncSetAttribute") : r;
}

FAKE_EXPORT CUresult cuFuncGetAttribute(int *v, int attr, void *function) {
  struct fake_function *f = function;
  LOG("cuFuncGetAttribute name=%s attr=%d", f->name, attr);
  CUresult r = fake_need_ctx("cuFuncGetAttribute");
  if (r == OK)
    r = fake_fail("cuFuncGetAttribute");
  if (r != OK)
    return r;
  switch (attr) {
  case 0: /* MAX_THREADS_PER_BLOCK */
    *v = (int)fake_env_long("FAKE_CUDA_FUNC_THREADS", 1024);
    return OK;
  case 1: /* SHARED_SIZE_BYTES */
    *v = (int)fake_env_long("FAKE_CUDA_FUNC_SHARED", 0);
    return OK;
  }
  return INVALID_VALUE;
}

/* Formats the first FAKE_CUDA_DUMP_ARGS kernel arguments as 64-bit values. */
static void fake_args(void **params, char *out, size_t len) {
  long n = fake_env_long("FAKE_CUDA_DUMP_ARGS", 0);
  out[0] = '\0';
  for (long i = 0; i < n && params; i++) {
    size_t used = strlen(out);
    snprintf(out + used, len - used, "%s%lld", i ? "," : "", (long long)*(int64_t *)params[i]);
  }
}

FAKE_EXPORT CUresult cuLaunchKernel(void *function, unsigned gx, unsigned gy, unsigned gz,
                                    unsigned bx, unsigned by, unsigned bz, unsigned smem,
                                    void *stream, void **params, void **extra) {
  struct fake_function *f = function;
  if (fake_bench()) /* what a launch costs the fake: the context check */
    return fake_need_ctx("cuLaunchKernel");
  char args[256];
  fake_args(params, args, sizeof args);
  LOG("cuLaunchKernel name=%s grid=%u,%u,%u block=%u,%u,%u smem=%u stream=%p params=%p "
      "extra=%p args=%s",
      f->name, gx, gy, gz, bx, by, bz, smem, stream, (void *)params, (void *)extra, args);
  CUresult r = fake_need_ctx("cuLaunchKernel");
  return r == OK ? fake_fail("cuLaunchKernel") : r;
}

/* CUlaunchConfig / CUlaunchAttribute, as in cuda.h. */
struct fake_launch_attribute {
  int id;
  char pad[4];
  union {
    char raw[64];
    long long align;
    struct {
      unsigned x, y, z;
    } dim;
    int policy;
  } value;
};
struct fake_launch_config {
  unsigned gx, gy, gz, bx, by, bz, smem;
  void *stream;
  struct fake_launch_attribute *attrs;
  unsigned nattrs;
};

FAKE_EXPORT CUresult cuLaunchKernelEx(const struct fake_launch_config *c, void *function,
                                      void **params, void **extra) {
  struct fake_function *f = function;
  unsigned cx = 0, cy = 0, cz = 0;
  int policy = -1;
  for (unsigned i = 0; i < c->nattrs; i++) {
    if (c->attrs[i].id == 4) {
      cx = c->attrs[i].value.dim.x;
      cy = c->attrs[i].value.dim.y;
      cz = c->attrs[i].value.dim.z;
    } else if (c->attrs[i].id == 5) {
      policy = c->attrs[i].value.policy;
    }
  }
  char args[256];
  fake_args(params, args, sizeof args);
  LOG("cuLaunchKernelEx name=%s grid=%u,%u,%u block=%u,%u,%u smem=%u cluster=%u,%u,%u "
      "policy=%d stream=%p extra=%p args=%s",
      f->name, c->gx, c->gy, c->gz, c->bx, c->by, c->bz, c->smem, cx, cy, cz, policy,
      c->stream, (void *)extra, args);
  CUresult r = fake_need_ctx("cuLaunchKernelEx");
  return r == OK ? fake_fail("cuLaunchKernelEx") : r;
}

/* Streams and events are small heap objects so that sanitizers see leaks
 * and double destroys. */
FAKE_EXPORT CUresult cuStreamCreate(void **stream, unsigned flags) {
  LOG("cuStreamCreate flags=%u", flags);
  CUresult r = fake_need_ctx("cuStreamCreate");
  if (r == OK)
    r = fake_fail("cuStreamCreate");
  if (r == OK)
    *stream = malloc(16);
  return r;
}

FAKE_EXPORT CUresult cuStreamDestroy_v2(void *stream) {
  LOG("cuStreamDestroy_v2 stream=%p", stream);
  CUresult r = fake_need_ctx("cuStreamDestroy_v2");
  if (r == OK)
    free(stream);
  return r;
}

FAKE_EXPORT CUresult cuStreamSynchronize(void *stream) {
  LOG("cuStreamSynchronize stream=%p", stream);
  CUresult r = fake_need_ctx("cuStreamSynchronize");
  return r == OK ? fake_fail("cuStreamSynchronize") : r;
}

FAKE_EXPORT CUresult cuStreamWaitEvent(void *stream, void *event, unsigned flags) {
  LOG("cuStreamWaitEvent stream=%p event=%p flags=%u", stream, event, flags);
  return fake_need_ctx("cuStreamWaitEvent");
}

FAKE_EXPORT CUresult cuEventCreate(void **event, unsigned flags) {
  LOG("cuEventCreate flags=%u", flags);
  CUresult r = fake_need_ctx("cuEventCreate");
  if (r == OK)
    *event = malloc(16);
  return r;
}

FAKE_EXPORT CUresult cuEventDestroy_v2(void *event) {
  LOG("cuEventDestroy_v2 event=%p", event);
  CUresult r = fake_need_ctx("cuEventDestroy_v2");
  if (r == OK)
    free(event);
  return r;
}

FAKE_EXPORT CUresult cuEventSynchronize(void *event) {
  LOG("cuEventSynchronize event=%p", event);
  CUresult r = fake_need_ctx("cuEventSynchronize");
  return r == OK ? fake_fail("cuEventSynchronize") : r;
}

FAKE_EXPORT CUresult cuEventRecord(void *event, void *stream) {
  LOG("cuEventRecord event=%p stream=%p", event, stream);
  return fake_need_ctx("cuEventRecord");
}

FAKE_EXPORT CUresult cuMemAlloc_v2(CUdeviceptr *p, size_t size) {
  LOG("cuMemAlloc_v2 size=%zu", size);
  CUresult r = fake_need_ctx("cuMemAlloc_v2");
  if (r == OK)
    r = fake_fail("cuMemAlloc_v2");
  if (r == OK)
    *p = (CUdeviceptr)(uintptr_t)malloc(size);
  return r;
}

FAKE_EXPORT CUresult cuMemAllocManaged(CUdeviceptr *p, size_t size, unsigned flags) {
  LOG("cuMemAllocManaged size=%zu flags=%u", size, flags);
  CUresult r = fake_need_ctx("cuMemAllocManaged");
  if (r == OK)
    r = fake_fail("cuMemAllocManaged");
  if (r == OK)
    *p = (CUdeviceptr)(uintptr_t)malloc(size);
  return r;
}

FAKE_EXPORT CUresult cuMemFree_v2(CUdeviceptr p) {
  LOG("cuMemFree_v2 ptr=%p", (void *)(uintptr_t)p);
  CUresult r = fake_need_ctx("cuMemFree_v2");
  if (r == OK)
    free((void *)(uintptr_t)p);
  return r;
}

FAKE_EXPORT CUresult cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t size,
                                   void *stream) {
  LOG("cuMemcpyAsync dst=%p src=%p size=%zu stream=%p", (void *)(uintptr_t)dst,
      (void *)(uintptr_t)src, size, stream);
  CUresult r = fake_need_ctx("cuMemcpyAsync");
  if (r == OK)
    r = fake_fail("cuMemcpyAsync");
  if (r == OK)
    memcpy((void *)(uintptr_t)dst, (const void *)(uintptr_t)src, size);
  return r;
}

FAKE_EXPORT CUresult cuMemcpyHtoD_v2(CUdeviceptr dst, const void *src, size_t size) {
  LOG("cuMemcpyHtoD_v2 dst=%p size=%zu", (void *)(uintptr_t)dst, size);
  CUresult r = fake_need_ctx("cuMemcpyHtoD_v2");
  if (r == OK)
    memcpy((void *)(uintptr_t)dst, src, size);
  return r;
}

FAKE_EXPORT CUresult cuMemsetD32Async(CUdeviceptr dst, unsigned value, size_t n,
                                      void *stream) {
  LOG("cuMemsetD32Async dst=%p value=%#x count=%zu stream=%p", (void *)(uintptr_t)dst,
      value, n, stream);
  CUresult r = fake_need_ctx("cuMemsetD32Async");
  uint32_t *d = (uint32_t *)(uintptr_t)dst;
  for (size_t i = 0; r == OK && i < n; i++)
    d[i] = value;
  return r;
}

FAKE_EXPORT CUresult cuMemsetD16Async(CUdeviceptr dst, unsigned short value, size_t n,
                                      void *stream) {
  LOG("cuMemsetD16Async dst=%p value=%#x count=%zu stream=%p", (void *)(uintptr_t)dst,
      value, n, stream);
  CUresult r = fake_need_ctx("cuMemsetD16Async");
  uint16_t *d = (uint16_t *)(uintptr_t)dst;
  for (size_t i = 0; r == OK && i < n; i++)
    d[i] = value;
  return r;
}

FAKE_EXPORT CUresult cuMemHostRegister_v2(void *p, size_t size, unsigned flags) {
  LOG("cuMemHostRegister_v2 ptr=%p size=%zu flags=%u", p, size, flags);
  return fake_need_ctx("cuMemHostRegister_v2");
}

FAKE_EXPORT CUresult cuMemHostUnregister(void *p) {
  LOG("cuMemHostUnregister ptr=%p", p);
  return fake_need_ctx("cuMemHostUnregister");
}

FAKE_EXPORT CUresult cuTensorMapEncodeTiled(void *map, int dtype, unsigned rank, void *addr,
                                            const uint64_t *dims, const uint64_t *strides,
                                            const uint32_t *box, const uint32_t *estrides,
                                            int interleave, int swizzle, int l2, int oob) {
  char d[128] = "", s[128] = "", b[128] = "";
  for (unsigned i = 0; i < rank; i++) {
    size_t n = strlen(d);
    snprintf(d + n, sizeof d - n, "%s%llu", i ? "," : "", (unsigned long long)dims[i]);
    n = strlen(b);
    snprintf(b + n, sizeof b - n, "%s%u", i ? "," : "", box[i]);
    if (i + 1 < rank) {
      n = strlen(s);
      snprintf(s + n, sizeof s - n, "%s%llu", i ? "," : "", (unsigned long long)strides[i]);
    }
  }
  LOG("cuTensorMapEncodeTiled dtype=%d rank=%u addr=%p dims=%s strides=%s box=%s "
      "estride0=%u interleave=%d swizzle=%d l2=%d oob=%d",
      dtype, rank, addr, d, s, b, estrides[0], interleave, swizzle, l2, oob);
  /* The "encoding": something that depends on every input. */
  memset(map, 0, 128);
  memcpy(map, &addr, sizeof addr);
  memcpy((char *)map + 8, dims, sizeof *dims * rank);
  memcpy((char *)map + 48, box, sizeof *box * rank);
  return fake_fail("cuTensorMapEncodeTiled");
}
