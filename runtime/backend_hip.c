/* backend_hip.c: the AMD backend, on the HIP runtime (libamdhip64).
 *
 * Like the CUDA backend it dlopen()s its library at the first GPU operation
 * and declares the few types and values it needs itself (values from HIP's
 * public headers, which mirror CUDA's numbering), so the runtime builds
 * without ROCm.
 *
 * Finding the device's architecture. Object selection needs the full target
 * id, "gfx90a:sramecc+:xnack-", which HIP only reports in the gcnArchName
 * field of hipDeviceProp_t. That struct changed layout between ROCm 5 and
 * ROCm 6, and the exported function changed name with it:
 * hipGetDevicePropertiesR0600 (ROCm 6 and later; the header maps
 * hipGetDeviceProperties to it) fills the new layout, while ROCm 5's
 * hipGetDeviceProperties fills the old one. Rather than declare both structs
 * and trust our offsets, we call whichever function exists (R0600 first) on a
 * zeroed buffer far larger than either struct, and take the first
 * NUL-terminated string after the leading `char name[256]` (the first field in
 * both layouts) that parses as a gfx target id. Only gcnArchName holds such a
 * string; the marketing name comes from hipDeviceGetName.
 *
 * Current device: HIP's is per thread, so each thread that calls the runtime
 * selects our device once (hipSetDevice) before its first operation.
 *
 * Faults: as on CUDA (backend_cuda.c), a kernel's fault comes back as a
 * sticky error from a later call; on a stream or event it ends the program
 * with the host backend's line naming the kernel (kernel_fault.h), so
 * modules and functions are handed out wrapped. */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel_fault.h"
#include "rt.h"
#include "select_hip.h"

typedef int hipError_t;
typedef void *hipModule_t;
typedef void *hipFunction_t;
typedef void *hipStream_t;
typedef void *hipEvent_t;

enum {
  hipSuccess = 0,
  hipErrorNotInitialized = 3,
  hipErrorDeinitialized = 4,
  hipErrorNoDevice = 100,
  hipErrorIllegalAddress = 700,
  hipErrorContextIsDestroyed = 709,
  hipErrorAssert = 710,
  hipErrorLaunchFailure = 719,
};
/* hipDeviceAttribute_t, ROCm 5 and later (the CUDA-compatible range,
 * numbered in alphabetical order, unlike CUDA's), and hipFunction_attribute
 * (CUDA's numbers). */
enum {
  hipDeviceAttributeMaxBlockDimX = 26, /* Y, Z follow */
  hipDeviceAttributeMaxGridDimX = 29,  /* Y, Z follow */
  hipDeviceAttributeMaxThreadsPerBlock = 56,
  hipDeviceAttributeMaxSharedMemoryPerBlock = 74,
};
enum {
  HIP_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 0,
  HIP_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1,
};
enum { hipMemcpyDefault = 4 };
enum { hipStreamNonBlocking = 1 };
enum { hipEventDisableTiming = 2 };
enum { hipMemAttachGlobal = 1 };

/* Bytes given to hipGetDeviceProperties*: ROCm 6's struct is about 1.5 KiB. */
#define HIP_PROPS_BUFFER 16384
#define HIP_PROPS_NAME_SIZE 256

static struct {
  hipError_t (*Init)(unsigned);
  hipError_t (*GetDeviceCount)(int *);
  hipError_t (*DeviceGetName)(char *, int, int);
  hipError_t (*GetDevicePropertiesR0600)(void *, int);
  hipError_t (*GetDeviceProperties)(void *, int);
  hipError_t (*SetDevice)(int);
  hipError_t (*DeviceGetAttribute)(int *, int, int);
  hipError_t (*FuncGetAttribute)(int *, int, hipFunction_t);
  const char *(*GetErrorName)(hipError_t);
  const char *(*GetErrorString)(hipError_t);
  hipError_t (*ModuleLoadData)(hipModule_t *, const void *);
  hipError_t (*ModuleUnload)(hipModule_t);
  hipError_t (*ModuleGetFunction)(hipFunction_t *, hipModule_t, const char *);
  hipError_t (*ModuleLaunchKernel)(hipFunction_t, unsigned, unsigned, unsigned,
                                   unsigned, unsigned, unsigned, unsigned,
                                   hipStream_t, void **, void **);
  hipError_t (*StreamCreateWithFlags)(hipStream_t *, unsigned);
  hipError_t (*StreamDestroy)(hipStream_t);
  hipError_t (*StreamSynchronize)(hipStream_t);
  hipError_t (*StreamWaitEvent)(hipStream_t, hipEvent_t, unsigned);
  hipError_t (*EventCreateWithFlags)(hipEvent_t *, unsigned);
  hipError_t (*EventDestroy)(hipEvent_t);
  hipError_t (*EventSynchronize)(hipEvent_t);
  hipError_t (*EventRecord)(hipEvent_t, hipStream_t);
  hipError_t (*Malloc)(void **, size_t);
  hipError_t (*MallocManaged)(void **, size_t, unsigned);
  hipError_t (*Free)(void *);
  hipError_t (*MemcpyAsync)(void *, const void *, size_t, int, hipStream_t);
  hipError_t (*MemsetD32Async)(void *, int, size_t, hipStream_t);
  hipError_t (*MemsetD16Async)(void *, unsigned short, size_t, hipStream_t);
  hipError_t (*HostRegister)(void *, size_t, unsigned);
  hipError_t (*HostGetDevicePointer)(void **, void *, unsigned);
  hipError_t (*HostUnregister)(void *);
} hip;

static const struct {
  const char *name;
  void *slot;
  int optional;
} hip_symbols[] = {
    {"hipInit", &hip.Init, 0},
    {"hipGetDeviceCount", &hip.GetDeviceCount, 0},
    {"hipDeviceGetName", &hip.DeviceGetName, 0},
    {"hipGetDevicePropertiesR0600", &hip.GetDevicePropertiesR0600, 1},
    {"hipGetDeviceProperties", &hip.GetDeviceProperties, 1},
    {"hipSetDevice", &hip.SetDevice, 0},
    {"hipDeviceGetAttribute", &hip.DeviceGetAttribute, 1},
    {"hipFuncGetAttribute", &hip.FuncGetAttribute, 1},
    {"hipGetErrorName", &hip.GetErrorName, 0},
    {"hipGetErrorString", &hip.GetErrorString, 0},
    {"hipModuleLoadData", &hip.ModuleLoadData, 0},
    {"hipModuleUnload", &hip.ModuleUnload, 0},
    {"hipModuleGetFunction", &hip.ModuleGetFunction, 0},
    {"hipModuleLaunchKernel", &hip.ModuleLaunchKernel, 0},
    {"hipStreamCreateWithFlags", &hip.StreamCreateWithFlags, 0},
    {"hipStreamDestroy", &hip.StreamDestroy, 0},
    {"hipStreamSynchronize", &hip.StreamSynchronize, 0},
    {"hipStreamWaitEvent", &hip.StreamWaitEvent, 0},
    {"hipEventCreateWithFlags", &hip.EventCreateWithFlags, 0},
    {"hipEventDestroy", &hip.EventDestroy, 0},
    {"hipEventSynchronize", &hip.EventSynchronize, 0},
    {"hipEventRecord", &hip.EventRecord, 0},
    {"hipMalloc", &hip.Malloc, 0},
    {"hipMallocManaged", &hip.MallocManaged, 0},
    {"hipFree", &hip.Free, 0},
    {"hipMemcpyAsync", &hip.MemcpyAsync, 0},
    {"hipMemsetD32Async", &hip.MemsetD32Async, 0},
    {"hipMemsetD16Async", &hip.MemsetD16Async, 0},
    {"hipHostRegister", &hip.HostRegister, 0},
    {"hipHostUnregister", &hip.HostUnregister, 0},
    {"hipHostGetDevicePointer", &hip.HostGetDevicePointer, 1},
};

static void *hip_lib;
static int hip_ordinal;
/* Whether this thread has made hip_ordinal its current device. */
static _Thread_local int hip_bound;

static const char *hip_error_name(int code) {
  return hip.GetErrorName ? hip.GetErrorName(code) : NULL;
}

static const char *hip_error_string(int code) {
  return hip.GetErrorString ? hip.GetErrorString(code) : NULL;
}

static int hip_resolve(char *why, size_t whylen) {
  for (size_t i = 0; i < sizeof hip_symbols / sizeof hip_symbols[0]; i++) {
    void *sym = dlsym(hip_lib, hip_symbols[i].name);
    if (!sym && !hip_symbols[i].optional) {
      snprintf(why, whylen, "the runtime has no %s (too old?)", hip_symbols[i].name);
      return -1;
    }
    memcpy(hip_symbols[i].slot, &sym, sizeof sym);
  }
  if (!hip.GetDevicePropertiesR0600 && !hip.GetDeviceProperties) {
    snprintf(why, whylen, "the runtime has no hipGetDeviceProperties");
    return -1;
  }
  return 0;
}

static void hip_describe(const char *call, hipError_t r, char *why, size_t whylen) {
  const char *name = hip_error_name(r);
  snprintf(why, whylen, "%s failed: %s", call, name ? name : "unknown error");
}

/* Finds gcnArchName in a filled hipDeviceProp_t of either layout (see the
 * comment at the top of this file). */
static int hip_find_target_id(const char *props, size_t size, char *out, size_t outlen) {
  for (size_t i = HIP_PROPS_NAME_SIZE; i + 3 < size; i++) {
    if (props[i - 1] != '\0' || strncmp(props + i, "gfx", 3) != 0)
      continue;
    size_t n = strnlen(props + i, size - i);
    struct rt_amd_target t;
    if (n < outlen && n < size - i && rt_parse_amd_target(props + i, &t) == 0) {
      memcpy(out, props + i, n + 1);
      return 0;
    }
  }
  return -1;
}

static int hip_query_arch(int ordinal, struct rt_device *dev, char *why, size_t whylen) {
  char *props = calloc(1, HIP_PROPS_BUFFER);
  if (!props) {
    snprintf(why, whylen, "out of memory");
    return -1;
  }
  const char *call = hip.GetDevicePropertiesR0600 ? "hipGetDevicePropertiesR0600"
                                                  : "hipGetDeviceProperties";
  hipError_t r = hip.GetDevicePropertiesR0600 ? hip.GetDevicePropertiesR0600(props, ordinal)
                                              : hip.GetDeviceProperties(props, ordinal);
  int rc = -1;
  if (r != hipSuccess)
    hip_describe(call, r, why, whylen);
  else if (hip_find_target_id(props, HIP_PROPS_BUFFER, dev->target_id,
                              sizeof dev->target_id) != 0)
    snprintf(why, whylen, "%s reported no gfx architecture", call);
  else
    rc = 0;
  free(props);
  if (rc != 0)
    return -1;
  struct rt_amd_target t;
  rt_parse_amd_target(dev->target_id, &t); /* checked by hip_find_target_id */
  snprintf(dev->arch, sizeof dev->arch, "%s", t.processor);
  return 0;
}

/* One device attribute as a limit: 0 when HIP does not say, or says less
 * than any AMD GPU has (floor): the numbering above is ROCm 5's, and a
 * runtime that numbers otherwise must not make valid launches fail. */
static uint32_t hip_device_limit(int ordinal, int attr, uint32_t floor) {
  int v = 0;
  if (!hip.DeviceGetAttribute || hip.DeviceGetAttribute(&v, attr, ordinal) != hipSuccess)
    return 0;
  return v > 0 && (uint32_t)v >= floor ? (uint32_t)v : 0;
}

/* What a launch may ask of the device (checked by launch.c). AMD reports
 * blocks up to 1024 deep in z; what it reports is what it accepts. */
static void hip_device_limits(int ordinal, struct rt_device *dev) {
  dev->max_threads = hip_device_limit(ordinal, hipDeviceAttributeMaxThreadsPerBlock, 256);
  for (int i = 0; i < 3; i++) {
    dev->max_block[i] = hip_device_limit(ordinal, hipDeviceAttributeMaxBlockDimX + i, 64);
    dev->max_grid[i] = hip_device_limit(ordinal, hipDeviceAttributeMaxGridDimX + i, 65535);
  }
  dev->max_shared =
      hip_device_limit(ordinal, hipDeviceAttributeMaxSharedMemoryPerBlock, 32 << 10);
}

static int hip_probe(int ordinal, struct rt_device *dev, char *why, size_t whylen) {
  static const char *const names[] = {"libamdhip64.so", "libamdhip64.so.6",
                                      "libamdhip64.so.5", NULL};
  hip_lib = rt_dlopen_first("GPUCC_HIP_LIBRARY", names, why, whylen);
  if (!hip_lib)
    return -1;
  if (hip_resolve(why, whylen) != 0)
    goto fail;

  hipError_t r = hip.Init(0);
  if (r == hipErrorNoDevice) {
    snprintf(why, whylen, "no device");
    goto fail;
  }
  if (r != hipSuccess) {
    hip_describe("hipInit", r, why, whylen);
    goto fail;
  }
  int count = 0;
  r = hip.GetDeviceCount(&count);
  if (r == hipErrorNoDevice || (r == hipSuccess && count == 0)) {
    snprintf(why, whylen, "no device");
    goto fail;
  }
  if (r != hipSuccess) {
    hip_describe("hipGetDeviceCount", r, why, whylen);
    goto fail;
  }
  if (ordinal >= count) {
    snprintf(why, whylen, "device %d requested but %d found", ordinal, count);
    goto fail;
  }
  memset(dev, 0, sizeof *dev);
  dev->ordinal = ordinal;
  if (hip_query_arch(ordinal, dev, why, whylen) != 0)
    goto fail;
  if (hip.DeviceGetName(dev->name, (int)sizeof dev->name, ordinal) != hipSuccess)
    snprintf(dev->name, sizeof dev->name, "HIP device %d", ordinal);
  dev->name[sizeof dev->name - 1] = '\0';
  hip_device_limits(ordinal, dev);
  hip_ordinal = ordinal;
  rt_log("hip: device %d of %d: '%s', %s", ordinal, count, dev->name, dev->target_id);
  return 0;

fail:
  dlclose(hip_lib);
  hip_lib = NULL;
  memset(&hip, 0, sizeof hip);
  return -1;
}

/* Makes our device current in this thread, once. */
static int hip_enter(struct rt_err *e) {
  if (hip_bound)
    return 0;
  hipError_t r = hip.SetDevice(hip_ordinal);
  if (r != hipSuccess)
    return rt_fail(e, "hipSetDevice", r);
  hip_bound = 1;
  return 0;
}

static int hip_check(struct rt_err *e, const char *call, hipError_t r) {
  return r == hipSuccess ? 0 : rt_fail(e, call, r);
}

/* What a sticky launch error says happened in the kernel, or -1. */
static int hip_fault_kind(hipError_t r) {
  switch (r) {
  case hipErrorIllegalAddress:
    return RT_FAULT_MEMORY;
  case hipErrorAssert:
    return RT_FAULT_ASSERT;
  case hipErrorLaunchFailure:
    return RT_FAULT_UNSPECIFIED;
  }
  return -1;
}

/* hip_check for an operation on the work of `handle` (a stream, an event):
 * a kernel fault is reported as one, naming the kernel. */
static int hip_check_on(struct rt_err *e, const char *call, hipError_t r, void *handle) {
  if (r == hipSuccess || rt_fault_report(handle, hip_fault_kind(r)))
    return 0;
  return rt_fail(e, call, r);
}

static hipFunction_t hip_function(const void *function) {
  return ((const struct rt_gpu_function *)function)->handle;
}

static int hip_module_load(const void *image, size_t size, int text, void **module,
                           struct rt_err *e) {
  (void)size;
  if (text)
    return rt_fail_msg(e, "HIP cannot load assembly text; rebuild with binary objects");
  if (hip_enter(e))
    return -1;
  hipModule_t handle = NULL;
  if (hip_check(e, "hipModuleLoadData", hip.ModuleLoadData(&handle, image)) != 0)
    return -1;
  struct rt_gpu_module *m = rt_gpu_module_new(handle);
  if (!m) {
    hip.ModuleUnload(handle);
    return rt_fail_msg(e, "out of memory");
  }
  *module = m;
  return 0;
}

static int hip_shutting_down(hipError_t r) {
  return r == hipErrorDeinitialized || r == hipErrorNotInitialized ||
         r == hipErrorContextIsDestroyed;
}

/* After a kernel fault, unloading fails with the fault's code: already
 * reported. */
static int hip_module_unload(void *module, struct rt_err *e) {
  struct rt_gpu_module *m = module;
  hipModule_t handle = m->handle;
  rt_gpu_module_free(m);
  if (hip_enter(e))
    return hip_shutting_down(e->code) ? 0 : -1;
  hipError_t r = hip.ModuleUnload(handle);
  return r == hipSuccess || hip_shutting_down(r) || hip_fault_kind(r) >= 0
             ? 0
             : rt_fail(e, "hipModuleUnload", r);
}

static int hip_module_function(void *module, const char *name, void **function,
                               struct rt_err *e) {
  struct rt_gpu_module *m = module;
  hipFunction_t handle = NULL;
  if (hip_enter(e))
    return -1;
  if (hip_check(e, "hipModuleGetFunction", hip.ModuleGetFunction(&handle, m->handle, name)) != 0)
    return -1;
  struct rt_gpu_function *f = rt_gpu_function_new(m, handle, name);
  if (!f)
    return rt_fail_msg(e, "out of memory");
  *function = f;
  return 0;
}

/* What HIP says of a kernel: the threads per block it can run with (its
 * flat_work_group_size), its static LDS (exact, where the manifest has a
 * lower bound). */
static int hip_function_limits(void *function, struct rt_limits *l, struct rt_err *e) {
  if (!hip.FuncGetAttribute)
    return 0; /* the manifest's limits stand */
  if (hip_enter(e))
    return -1;
  int threads = 0, shared = 0;
  hipFunction_t fn = hip_function(function);
  hipError_t r = hip.FuncGetAttribute(&threads, HIP_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, fn);
  if (r == hipSuccess)
    r = hip.FuncGetAttribute(&shared, HIP_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, fn);
  if (r != hipSuccess)
    return rt_fail(e, "hipFuncGetAttribute", r);
  if (threads > 0 && (uint32_t)threads < l->threads)
    l->threads = (uint32_t)threads;
  if (shared > 0)
    l->shared = (uint64_t)shared;
  return 0;
}

static int hip_launch(const struct rt_launch *l, struct rt_err *e) {
  if (hip_enter(e))
    return -1;
  hipError_t r = hip.ModuleLaunchKernel(hip_function(l->function), l->grid[0], l->grid[1],
                                        l->grid[2], l->block[0], l->block[1], l->block[2],
                                        l->smem, l->stream, l->params, l->extra);
  /* An error may be an earlier kernel's fault. */
  if (hip_check_on(e, "hipModuleLaunchKernel", r, l->stream) != 0)
    return -1;
  if (r == hipSuccess)
    rt_fault_note_launch(l->stream, &((const struct rt_gpu_function *)l->function)->id);
  return 0;
}

static int hip_stream_create(void **stream, struct rt_err *e) {
  if (hip_enter(e))
    return -1;
  /* Non-blocking, as on CUDA, so that a program behaves the same on both. */
  return hip_check(e, "hipStreamCreateWithFlags",
                   hip.StreamCreateWithFlags(stream, hipStreamNonBlocking));
}

static int hip_stream_destroy(void *stream, struct rt_err *e) {
  if (hip_enter(e))
    return -1;
  rt_fault_forget(stream);
  return hip_check(e, "hipStreamDestroy", hip.StreamDestroy(stream));
}

static int hip_stream_synchronize(void *stream, struct rt_err *e) {
  if (hip_enter(e))
    return -1;
  return hip_check_on(e, "hipStreamSynchronize", hip.StreamSynchronize(stream), stream);
}

static int hip_stream_wait_event(void *stream, void *event, struct rt_err *e) {
  if (hip_enter(e))
    return -1;
  return hip_check_on(e, "hipStreamWaitEvent", hip.StreamWaitEvent(stream, event, 0), event);
}

static int hip_event_create(void **event, struct rt_err *e) {
  if (hip_enter(e))
    return -1;
  return hip_check(e, "hipEventCreateWithFlags",
                   hip.EventCreateWithFlags(event, hipEventDisableTiming));
}

static int hip_event_destroy(void *event, struct rt_err *e) {
  if (hip_enter(e))
    return -1;
  rt_fault_forget(event);
  return hip_check(e, "hipEventDestroy", hip.EventDestroy(event));
}

static int hip_event_synchronize(void *event, struct rt_err *e) {
  if (hip_enter(e))
    return -1;
  return hip_check_on(e, "hipEventSynchronize", hip.EventSynchronize(event), event);
}

static int hip_event_record(void *event, void *stream, struct rt_err *e) {
  if (hip_enter(e))
    return -1;
  rt_fault_note_record(event, stream);
  return hip_check_on(e, "hipEventRecord", hip.EventRecord(event, stream), stream);
}

static int hip_mem_alloc(size_t bytes, int host_shared, void **ptr, struct rt_err *e) {
  if (hip_enter(e))
    return -1;
  /* host_shared must give memory the host can read after a kernel wrote it
   * (gpu.alloc host_shared): that is managed memory, as on CUDA. */
  if (host_shared)
    return hip_check(e, "hipMallocManaged", hip.MallocManaged(ptr, bytes, hipMemAttachGlobal));
  return hip_check(e, "hipMalloc", hip.Malloc(ptr, bytes));
}

static int hip_mem_free(void *ptr, struct rt_err *e) {
  if (hip_enter(e))
    return -1;
  return hip_check(e, "hipFree", hip.Free(ptr));
}

static int hip_mem_copy(void *dst, const void *src, size_t bytes, void *stream,
                        struct rt_err *e) {
  if (hip_enter(e))
    return -1;
  return hip_check_on(e, "hipMemcpyAsync",
                      hip.MemcpyAsync(dst, src, bytes, hipMemcpyDefault, stream), stream);
}

static int hip_mem_set32(void *dst, uint32_t value, size_t count, void *stream,
                         struct rt_err *e) {
  if (hip_enter(e))
    return -1;
  return hip_check_on(e, "hipMemsetD32Async", hip.MemsetD32Async(dst, (int)value, count, stream),
                      stream);
}

static int hip_mem_set16(void *dst, uint16_t value, size_t count, void *stream,
                         struct rt_err *e) {
  if (hip_enter(e))
    return -1;
  return hip_check_on(e, "hipMemsetD16Async", hip.MemsetD16Async(dst, value, count, stream),
                      stream);
}

static int hip_host_register(void *ptr, size_t bytes, struct rt_err *e) {
  if (hip_enter(e))
    return -1;
  return hip_check(e, "hipHostRegister", hip.HostRegister(ptr, bytes, 0));
}

static int hip_host_device_pointer(void *host, void **device, struct rt_err *e) {
  if (!hip.HostGetDevicePointer) {
    *device = host;
    return 0;
  }
  if (hip_enter(e))
    return -1;
  return hip_check(e, "hipHostGetDevicePointer", hip.HostGetDevicePointer(device, host, 0));
}

static int hip_host_unregister(void *ptr, struct rt_err *e) {
  if (hip_enter(e))
    return -1;
  return hip_check(e, "hipHostUnregister", hip.HostUnregister(ptr));
}

/* HIP has no JIT for assembly text, no cluster launch and no TMA: those
 * operations stay NULL and the common code says so. */
const struct rt_backend rt_backend_hip = {
    .name = "hip",
    .label = "HIP",
    .select = &rt_selection_hip,
    .probe = hip_probe,
    .error_name = hip_error_name,
    .error_string = hip_error_string,
    .module_load = hip_module_load,
    .module_unload = hip_module_unload,
    .module_function = hip_module_function,
    .function_limits = hip_function_limits,
    .function_module = rt_gpu_function_module,
    .launch = hip_launch,
    .stream_create = hip_stream_create,
    .stream_destroy = hip_stream_destroy,
    .stream_synchronize = hip_stream_synchronize,
    .stream_wait_event = hip_stream_wait_event,
    .event_create = hip_event_create,
    .event_destroy = hip_event_destroy,
    .event_synchronize = hip_event_synchronize,
    .event_record = hip_event_record,
    .mem_alloc = hip_mem_alloc,
    .mem_free = hip_mem_free,
    .mem_copy = hip_mem_copy,
    .mem_set32 = hip_mem_set32,
    .mem_set16 = hip_mem_set16,
    .host_register = hip_host_register,
    .host_unregister = hip_host_unregister,
    .host_device_pointer = hip_host_device_pointer,
    /* the device stays current once set: nothing to undo */
    .context_enter = hip_enter,
};
