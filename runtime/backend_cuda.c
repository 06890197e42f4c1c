/* backend_cuda.c: the NVIDIA backend, on the CUDA driver API (libcuda).
 *
 * The driver library is dlopen()ed at the first GPU operation, so that the
 * runtime builds without the CUDA toolkit and a program starts on machines
 * without NVIDIA hardware. The few types, enum values and structs used are
 * declared here with the values of CUDA's public cuda.h (they are part of
 * the driver's stable ABI); functions are looked up under their exported
 * names, which for several calls carry a _v2 suffix (cuda.h maps cuMemAlloc
 * to cuMemAlloc_v2 and so on).
 *
 * Context: the runtime uses the device's primary context, the one the CUDA
 * runtime API shares, retained once at probe time. Every operation pushes it
 * and pops it again, so it works from any thread and never disturbs a context
 * that the host program made current itself.
 *
 * Faults: a kernel that faults makes the driver return a sticky error from
 * the next call on its context (CUDA_ERROR_ILLEGAL_ADDRESS and the like).
 * Where a call on a stream or event gets one, the program ends with the
 * host backend's line naming the kernel last launched there
 * (kernel_fault.h); modules and functions are handed out wrapped
 * (struct rt_gpu_module, rt_gpu_function) so that a launch knows its
 * kernel's name. */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "kernel_fault.h"
#include "rt.h"
#include "select_cuda.h"

typedef int CUresult;
typedef int CUdevice;
typedef void *CUcontext;
typedef void *CUmodule;
typedef void *CUfunction;
typedef void *CUstream;
typedef void *CUevent;
typedef unsigned long long CUdeviceptr;

enum {
  CUDA_SUCCESS = 0,
  CUDA_ERROR_NOT_INITIALIZED = 3,
  CUDA_ERROR_DEINITIALIZED = 4,
  CUDA_ERROR_NO_DEVICE = 100,
  CUDA_ERROR_CONTEXT_IS_DESTROYED = 709,
  CUDA_ERROR_ILLEGAL_ADDRESS = 700,
  CUDA_ERROR_ASSERT = 710,
  CUDA_ERROR_HARDWARE_STACK_ERROR = 714,
  CUDA_ERROR_ILLEGAL_INSTRUCTION = 715,
  CUDA_ERROR_MISALIGNED_ADDRESS = 716,
  CUDA_ERROR_INVALID_ADDRESS_SPACE = 717,
  CUDA_ERROR_INVALID_PC = 718,
  CUDA_ERROR_LAUNCH_FAILED = 719,
};
enum {
  CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 1,
  CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X = 2, /* Y, Z follow */
  CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X = 5,  /* Y, Z follow */
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75,
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76,
  CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97,
};
enum {
  CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 0,
  CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1,
  CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8,
};
enum { CU_STREAM_NON_BLOCKING = 1 };
enum { CU_EVENT_DISABLE_TIMING = 2 };
enum { CU_MEM_ATTACH_GLOBAL = 1 };
enum {
  CU_JIT_ERROR_LOG_BUFFER = 5,
  CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6,
  CU_JIT_OPTIMIZATION_LEVEL = 7,
};
enum {
  CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION = 4,
  CU_LAUNCH_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE = 5,
};
enum { CU_CLUSTER_SCHEDULING_POLICY_SPREAD = 1 };

/* CUlaunchAttribute and CUlaunchConfig (CUDA 12), same layout. */
struct cu_launch_attribute {
  int id;
  char pad[4];
  union {
    char raw[64];
    long long align;
    struct {
      unsigned x, y, z;
    } cluster_dim;
    int policy;
  } value;
};
struct cu_launch_config {
  unsigned grid_x, grid_y, grid_z, block_x, block_y, block_z, shared_mem_bytes;
  CUstream stream;
  struct cu_launch_attribute *attrs;
  unsigned num_attrs;
};
_Static_assert(sizeof(struct cu_launch_attribute) == 72, "CUlaunchAttribute layout");
_Static_assert(sizeof(struct cu_launch_config) == 56, "CUlaunchConfig layout");

/* The driver entry points, filled by dlsym. */
static struct {
  CUresult (*Init)(unsigned);
  CUresult (*DeviceGetCount)(int *);
  CUresult (*DeviceGet)(CUdevice *, int);
  CUresult (*DeviceGetAttribute)(int *, int, CUdevice);
  CUresult (*DeviceGetName)(char *, int, CUdevice);
  CUresult (*DevicePrimaryCtxRetain)(CUcontext *, CUdevice);
  CUresult (*CtxPushCurrent)(CUcontext);
  CUresult (*CtxPopCurrent)(CUcontext *);
  CUresult (*GetErrorName)(CUresult, const char **);
  CUresult (*GetErrorString)(CUresult, const char **);
  CUresult (*ModuleLoadData)(CUmodule *, const void *);
  CUresult (*ModuleLoadDataEx)(CUmodule *, const void *, unsigned, int *, void **);
  CUresult (*ModuleUnload)(CUmodule);
  CUresult (*ModuleGetFunction)(CUfunction *, CUmodule, const char *);
  CUresult (*FuncSetAttribute)(CUfunction, int, int);
  CUresult (*FuncGetAttribute)(int *, int, CUfunction);
  CUresult (*LaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned,
                           unsigned, unsigned, unsigned, CUstream, void **,
                           void **);
  CUresult (*LaunchKernelEx)(const struct cu_launch_config *, CUfunction,
                             void **, void **);
  CUresult (*StreamCreate)(CUstream *, unsigned);
  CUresult (*StreamDestroy)(CUstream);
  CUresult (*StreamSynchronize)(CUstream);
  CUresult (*StreamWaitEvent)(CUstream, CUevent, unsigned);
  CUresult (*EventCreate)(CUevent *, unsigned);
  CUresult (*EventDestroy)(CUevent);
  CUresult (*EventSynchronize)(CUevent);
  CUresult (*EventRecord)(CUevent, CUstream);
  CUresult (*MemAlloc)(CUdeviceptr *, size_t);
  CUresult (*MemAllocManaged)(CUdeviceptr *, size_t, unsigned);
  CUresult (*MemFree)(CUdeviceptr);
  CUresult (*MemcpyAsync)(CUdeviceptr, CUdeviceptr, size_t, CUstream);
  CUresult (*MemcpyHtoD)(CUdeviceptr, const void *, size_t);
  CUresult (*MemsetD32Async)(CUdeviceptr, unsigned, size_t, CUstream);
  CUresult (*MemsetD16Async)(CUdeviceptr, unsigned short, size_t, CUstream);
  CUresult (*MemHostRegister)(void *, size_t, unsigned);
  CUresult (*MemHostUnregister)(void *);
  CUresult (*MemHostGetDevicePointer)(CUdeviceptr *, void *, unsigned);
  CUresult (*TensorMapEncodeTiled)(void *, int, unsigned, void *,
                                   const uint64_t *, const uint64_t *,
                                   const uint32_t *, const uint32_t *, int, int,
                                   int, int);
} cu;

/* Exported name of each entry point, and whether the runtime can do without
 * it (those are checked where used). */
static const struct {
  const char *name;
  void *slot;
  int optional;
} cu_symbols[] = {
    {"cuInit", &cu.Init, 0},
    {"cuDeviceGetCount", &cu.DeviceGetCount, 0},
    {"cuDeviceGet", &cu.DeviceGet, 0},
    {"cuDeviceGetAttribute", &cu.DeviceGetAttribute, 0},
    {"cuDeviceGetName", &cu.DeviceGetName, 0},
    {"cuDevicePrimaryCtxRetain", &cu.DevicePrimaryCtxRetain, 0},
    {"cuCtxPushCurrent_v2", &cu.CtxPushCurrent, 0},
    {"cuCtxPopCurrent_v2", &cu.CtxPopCurrent, 0},
    {"cuGetErrorName", &cu.GetErrorName, 0},
    {"cuGetErrorString", &cu.GetErrorString, 0},
    {"cuModuleLoadData", &cu.ModuleLoadData, 0},
    {"cuModuleLoadDataEx", &cu.ModuleLoadDataEx, 0},
    {"cuModuleUnload", &cu.ModuleUnload, 0},
    {"cuModuleGetFunction", &cu.ModuleGetFunction, 0},
    {"cuFuncSetAttribute", &cu.FuncSetAttribute, 0},
    {"cuFuncGetAttribute", &cu.FuncGetAttribute, 1},
    {"cuLaunchKernel", &cu.LaunchKernel, 0},
    {"cuLaunchKernelEx", &cu.LaunchKernelEx, 1},
    {"cuStreamCreate", &cu.StreamCreate, 0},
    {"cuStreamDestroy_v2", &cu.StreamDestroy, 0},
    {"cuStreamSynchronize", &cu.StreamSynchronize, 0},
    {"cuStreamWaitEvent", &cu.StreamWaitEvent, 0},
    {"cuEventCreate", &cu.EventCreate, 0},
    {"cuEventDestroy_v2", &cu.EventDestroy, 0},
    {"cuEventSynchronize", &cu.EventSynchronize, 0},
    {"cuEventRecord", &cu.EventRecord, 0},
    {"cuMemAlloc_v2", &cu.MemAlloc, 0},
    {"cuMemAllocManaged", &cu.MemAllocManaged, 0},
    {"cuMemFree_v2", &cu.MemFree, 0},
    {"cuMemcpyAsync", &cu.MemcpyAsync, 0},
    {"cuMemcpyHtoD_v2", &cu.MemcpyHtoD, 0},
    {"cuMemsetD32Async", &cu.MemsetD32Async, 0},
    {"cuMemsetD16Async", &cu.MemsetD16Async, 0},
    {"cuMemHostRegister_v2", &cu.MemHostRegister, 0},
    {"cuMemHostUnregister", &cu.MemHostUnregister, 0},
    {"cuMemHostGetDevicePointer_v2", &cu.MemHostGetDevicePointer, 1},
    {"cuTensorMapEncodeTiled", &cu.TensorMapEncodeTiled, 1},
};

static void *cu_lib;
static CUcontext cu_ctx;
static char cu_device_name[256];

static const char *cu_error_name(int code) {
  const char *s = NULL;
  if (!cu.GetErrorName || cu.GetErrorName(code, &s) != CUDA_SUCCESS)
    return NULL;
  return s;
}

static const char *cu_error_string(int code) {
  const char *s = NULL;
  if (!cu.GetErrorString || cu.GetErrorString(code, &s) != CUDA_SUCCESS)
    return NULL;
  return s;
}

/* Looks up every entry point; on a missing required one, says which. */
static int cu_resolve(char *why, size_t whylen) {
  for (size_t i = 0; i < sizeof cu_symbols / sizeof cu_symbols[0]; i++) {
    void *sym = dlsym(cu_lib, cu_symbols[i].name);
    if (!sym && !cu_symbols[i].optional) {
      snprintf(why, whylen, "the driver has no %s (too old?)", cu_symbols[i].name);
      return -1;
    }
    /* memcpy: POSIX guarantees a data pointer can hold a function's address,
     * and this avoids type-punning the function pointer's storage. */
    memcpy(cu_symbols[i].slot, &sym, sizeof sym);
  }
  return 0;
}

static void cu_describe(const char *call, CUresult r, char *why, size_t whylen) {
  const char *name = cu_error_name(r);
  snprintf(why, whylen, "%s failed: %s", call, name ? name : "unknown error");
}

/* One device attribute as a limit: 0 when the driver does not say. */
static uint32_t cu_device_limit(CUdevice d, int attr) {
  int v = 0;
  return cu.DeviceGetAttribute(&v, attr, d) == CUDA_SUCCESS && v > 0 ? (uint32_t)v : 0;
}

/* What a launch may ask of the device (checked by launch.c). Shared memory:
 * the opt-in maximum, since cu_prepare_smem opts in to every launch's
 * dynamic bytes. */
static void cu_device_limits(CUdevice d, struct rt_device *dev) {
  dev->max_threads = cu_device_limit(d, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
  for (int i = 0; i < 3; i++) {
    dev->max_block[i] = cu_device_limit(d, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X + i);
    dev->max_grid[i] = cu_device_limit(d, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X + i);
  }
  dev->max_shared = cu_device_limit(d, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
}

static int cu_probe(int ordinal, struct rt_device *dev, char *why, size_t whylen) {
  static const char *const names[] = {"libcuda.so.1", "libcuda.so", NULL};
  cu_lib = rt_dlopen_first("GPUCC_CUDA_LIBRARY", names, why, whylen);
  if (!cu_lib)
    return -1;
  if (cu_resolve(why, whylen) != 0)
    goto fail;

  CUresult r = cu.Init(0);
  if (r == CUDA_ERROR_NO_DEVICE) {
    snprintf(why, whylen, "no device");
    goto fail;
  }
  if (r != CUDA_SUCCESS) {
    cu_describe("cuInit", r, why, whylen);
    goto fail;
  }
  int count = 0;
  if ((r = cu.DeviceGetCount(&count)) != CUDA_SUCCESS) {
    cu_describe("cuDeviceGetCount", r, why, whylen);
    goto fail;
  }
  if (count == 0) {
    snprintf(why, whylen, "no device");
    goto fail;
  }
  if (ordinal >= count) {
    snprintf(why, whylen, "device %d requested but %d found", ordinal, count);
    goto fail;
  }
  CUdevice d;
  int major = 0, minor = 0;
  if ((r = cu.DeviceGet(&d, ordinal)) != CUDA_SUCCESS) {
    cu_describe("cuDeviceGet", r, why, whylen);
    goto fail;
  }
  if ((r = cu.DeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
                                 d)) != CUDA_SUCCESS ||
      (r = cu.DeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
                                 d)) != CUDA_SUCCESS) {
    cu_describe("cuDeviceGetAttribute", r, why, whylen);
    goto fail;
  }
  if (cu.DeviceGetName(cu_device_name, (int)sizeof cu_device_name, d) != CUDA_SUCCESS)
    snprintf(cu_device_name, sizeof cu_device_name, "CUDA device %d", ordinal);
  cu_device_name[sizeof cu_device_name - 1] = '\0';
  if ((r = cu.DevicePrimaryCtxRetain(&cu_ctx, d)) != CUDA_SUCCESS) {
    cu_describe("cuDevicePrimaryCtxRetain", r, why, whylen);
    goto fail;
  }

  memset(dev, 0, sizeof *dev);
  dev->ordinal = ordinal;
  snprintf(dev->name, sizeof dev->name, "%s", cu_device_name);
  snprintf(dev->arch, sizeof dev->arch, "sm_%d", major * 10 + minor);
  snprintf(dev->target_id, sizeof dev->target_id, "%s", dev->arch);
  cu_device_limits(d, dev);
  rt_log("cuda: device %d of %d: '%s', compute capability %d.%d (%s)", ordinal,
         count, dev->name, major, minor, dev->arch);
  return 0;

fail:
  /* Leave nothing half-loaded behind: HIP may be tried next. */
  dlclose(cu_lib);
  cu_lib = NULL;
  memset(&cu, 0, sizeof cu);
  return -1;
}

/* Makes the primary context current for one operation. */
static int cu_enter(struct rt_err *e) {
  CUresult r = cu.CtxPushCurrent(cu_ctx);
  return r == CUDA_SUCCESS ? 0 : rt_fail(e, "cuCtxPushCurrent_v2", r);
}

static void cu_leave(void) {
  CUcontext popped;
  cu.CtxPopCurrent(&popped);
}

/* Ends an operation that made one driver call. */
static int cu_done(struct rt_err *e, const char *call, CUresult r) {
  cu_leave();
  return r == CUDA_SUCCESS ? 0 : rt_fail(e, call, r);
}

/* What a sticky launch error says happened in the kernel, or -1 when r is
 * not one. */
static int cu_fault_kind(CUresult r) {
  switch (r) {
  case CUDA_ERROR_ILLEGAL_ADDRESS:
  case CUDA_ERROR_INVALID_ADDRESS_SPACE:
    return RT_FAULT_MEMORY;
  case CUDA_ERROR_MISALIGNED_ADDRESS:
    return RT_FAULT_MISALIGNED;
  case CUDA_ERROR_ILLEGAL_INSTRUCTION:
  case CUDA_ERROR_INVALID_PC:
    return RT_FAULT_INSTRUCTION;
  case CUDA_ERROR_HARDWARE_STACK_ERROR:
    return RT_FAULT_STACK;
  case CUDA_ERROR_ASSERT:
    return RT_FAULT_ASSERT;
  case CUDA_ERROR_LAUNCH_FAILED:
    return RT_FAULT_UNSPECIFIED;
  }
  return -1;
}

/* Ends an operation on the work of `handle` (a stream, an event): a kernel
 * fault is reported as one, naming the kernel (and, if a handler returns,
 * the operation is over); other errors as usual. */
static int cu_done_on(struct rt_err *e, const char *call, CUresult r, void *handle) {
  cu_leave();
  if (r == CUDA_SUCCESS || rt_fault_report(handle, cu_fault_kind(r)))
    return 0;
  return rt_fail(e, call, r);
}

static CUdeviceptr cu_ptr(const void *p) { return (CUdeviceptr)(uintptr_t)p; }

static int cu_load_image(const void *image, size_t size, int text, CUmodule *module,
                         struct rt_err *e) {
  (void)size; /* the driver reads the size from the image's own headers */
  if (cu_enter(e))
    return -1;
  CUresult r;
  if (!text) {
    r = cu.ModuleLoadData(module, image);
    return cu_done(e, "cuModuleLoadData", r);
  }
  /* PTX: ask for the JIT's error log, which says what the driver disliked
   * (typically an unsupported .version or .target). */
  char log[sizeof e->detail];
  log[0] = '\0';
  int opts[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *vals[] = {log, (void *)(uintptr_t)sizeof log};
  r = cu.ModuleLoadDataEx(module, image, 2, opts, vals);
  cu_leave();
  if (r == CUDA_SUCCESS)
    return 0;
  rt_fail(e, "cuModuleLoadDataEx", r);
  log[sizeof log - 1] = '\0';
  snprintf(e->detail, sizeof e->detail, "%s", log);
  return -1;
}

static int cu_load_jit(const char *text, int opt_level, CUmodule *module,
                       struct rt_err *e) {
  if (cu_enter(e))
    return -1;
  char log[sizeof e->detail];
  log[0] = '\0';
  int opts[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                CU_JIT_OPTIMIZATION_LEVEL};
  void *vals[] = {log, (void *)(uintptr_t)sizeof log,
                  (void *)(uintptr_t)(unsigned)opt_level};
  CUresult r = cu.ModuleLoadDataEx(module, text, 3, opts, vals);
  cu_leave();
  if (r == CUDA_SUCCESS)
    return 0;
  rt_fail(e, "cuModuleLoadDataEx", r);
  log[sizeof log - 1] = '\0';
  snprintf(e->detail, sizeof e->detail, "%s", log);
  return -1;
}

/* Wraps a module the driver loaded into *module; on failure unloads it. */
static int cu_wrap_module(CUmodule handle, void **module, struct rt_err *e) {
  struct rt_gpu_module *m = rt_gpu_module_new(handle);
  if (!m) {
    if (cu.CtxPushCurrent(cu_ctx) == CUDA_SUCCESS) {
      cu.ModuleUnload(handle);
      cu_leave();
    }
    return rt_fail_msg(e, "out of memory");
  }
  *module = m;
  return 0;
}

static int cu_module_load(const void *image, size_t size, int text, void **module,
                          struct rt_err *e) {
  CUmodule handle = NULL;
  if (cu_load_image(image, size, text, &handle, e) != 0)
    return -1;
  return cu_wrap_module(handle, module, e);
}

static int cu_module_load_jit(const char *text, int opt_level, void **module,
                              struct rt_err *e) {
  CUmodule handle = NULL;
  if (cu_load_jit(text, opt_level, &handle, e) != 0)
    return -1;
  return cu_wrap_module(handle, module, e);
}

/* At exit the driver may already be torn down (its own destructors, or a
 * program that reset the device): that is not worth a message. */
static int cu_shutting_down(CUresult r) {
  return r == CUDA_ERROR_DEINITIALIZED || r == CUDA_ERROR_NOT_INITIALIZED ||
         r == CUDA_ERROR_CONTEXT_IS_DESTROYED;
}

/* After a kernel fault the context is dead and unloading fails with the
 * fault's code: already reported, not worth another line at exit. */
static int cu_module_unload(void *module, struct rt_err *e) {
  struct rt_gpu_module *m = module;
  CUmodule handle = m->handle;
  rt_gpu_module_free(m);
  CUresult r = cu.CtxPushCurrent(cu_ctx);
  if (r != CUDA_SUCCESS)
    return cu_shutting_down(r) ? 0 : rt_fail(e, "cuCtxPushCurrent_v2", r);
  r = cu.ModuleUnload(handle);
  cu_leave();
  if (r == CUDA_SUCCESS || cu_shutting_down(r) || cu_fault_kind(r) >= 0)
    return 0;
  return rt_fail(e, "cuModuleUnload", r);
}

static int cu_module_function(void *module, const char *name, void **function,
                              struct rt_err *e) {
  struct rt_gpu_module *m = module;
  CUfunction handle = NULL;
  if (cu_enter(e))
    return -1;
  if (cu_done(e, "cuModuleGetFunction", cu.ModuleGetFunction(&handle, m->handle, name)) != 0)
    return -1;
  struct rt_gpu_function *f = rt_gpu_function_new(m, handle, name);
  if (!f)
    return rt_fail_msg(e, "out of memory");
  *function = f;
  return 0;
}

static CUfunction cu_function(const void *function) {
  return ((const struct rt_gpu_function *)function)->handle;
}

/* What the driver says of a kernel: the threads per block it can run with
 * (its .maxntid or .reqntid, and its registers), its static shared memory
 * (exact, where the manifest has a lower bound). */
static int cu_function_limits(void *function, struct rt_limits *l, struct rt_err *e) {
  if (!cu.FuncGetAttribute)
    return 0; /* an old driver: the manifest's limits stand */
  if (cu_enter(e))
    return -1;
  int threads = 0, shared = 0;
  CUfunction fn = cu_function(function);
  CUresult r = cu.FuncGetAttribute(&threads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, fn);
  if (r == CUDA_SUCCESS)
    r = cu.FuncGetAttribute(&shared, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, fn);
  if (cu_done(e, "cuFuncGetAttribute", r) != 0)
    return -1;
  if (threads > 0 && (uint32_t)threads < l->threads)
    l->threads = (uint32_t)threads;
  if (shared > 0)
    l->shared = (uint64_t)shared;
  return 0;
}

/* Dynamic shared memory above the default 48 KiB must be opted in to per
 * function; doing it for every request is what makes large requests work
 * (launch.c has checked that the kernel's static and dynamic bytes fit). */
static int cu_prepare_smem(const struct rt_launch *l, struct rt_err *e) {
  if (l->smem == 0)
    return 0;
  CUresult r = cu.FuncSetAttribute(cu_function(l->function),
                                   CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                   (int)l->smem);
  return r == CUDA_SUCCESS ? 0 : rt_fail(e, "cuFuncSetAttribute", r);
}

/* Ends a launch: an error may be an earlier kernel's fault; a launch that
 * went in is the stream's last kernel. */
static int cu_launched(const struct rt_launch *l, struct rt_err *e, const char *call, CUresult r) {
  if (cu_done_on(e, call, r, l->stream) != 0)
    return -1;
  if (r == CUDA_SUCCESS)
    rt_fault_note_launch(l->stream, &((const struct rt_gpu_function *)l->function)->id);
  return 0;
}

static int cu_launch(const struct rt_launch *l, struct rt_err *e) {
  if (cu_enter(e))
    return -1;
  if (cu_prepare_smem(l, e)) {
    cu_leave();
    return -1;
  }
  CUresult r = cu.LaunchKernel(cu_function(l->function), l->grid[0], l->grid[1], l->grid[2],
                               l->block[0], l->block[1], l->block[2], l->smem,
                               l->stream, l->params, l->extra);
  return cu_launched(l, e, "cuLaunchKernel", r);
}

static int cu_launch_cluster(const struct rt_launch *l, struct rt_err *e) {
  if (!cu.LaunchKernelEx)
    return rt_fail_msg(e, "launching with clusters needs cuLaunchKernelEx "
                          "(CUDA 12 or newer), which this driver lacks");
  struct cu_launch_attribute attrs[2];
  memset(attrs, 0, sizeof attrs);
  attrs[0].id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
  attrs[0].value.cluster_dim.x = l->cluster[0];
  attrs[0].value.cluster_dim.y = l->cluster[1];
  attrs[0].value.cluster_dim.z = l->cluster[2];
  attrs[1].id = CU_LAUNCH_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE;
  attrs[1].value.policy = CU_CLUSTER_SCHEDULING_POLICY_SPREAD;
  struct cu_launch_config cfg = {
      l->grid[0],  l->grid[1],  l->grid[2], l->block[0], l->block[1],
      l->block[2], l->smem,     l->stream,  attrs,       2};
  if (cu_enter(e))
    return -1;
  if (cu_prepare_smem(l, e)) {
    cu_leave();
    return -1;
  }
  CUresult r = cu.LaunchKernelEx(&cfg, cu_function(l->function), l->params, l->extra);
  return cu_launched(l, e, "cuLaunchKernelEx", r);
}

static int cu_stream_create(void **stream, struct rt_err *e) {
  if (cu_enter(e))
    return -1;
  /* Non-blocking: the program's streams never wait for the legacy default
   * stream, which other libraries in the process may use. */
  return cu_done(e, "cuStreamCreate", cu.StreamCreate(stream, CU_STREAM_NON_BLOCKING));
}

static int cu_stream_destroy(void *stream, struct rt_err *e) {
  if (cu_enter(e))
    return -1;
  rt_fault_forget(stream);
  return cu_done(e, "cuStreamDestroy_v2", cu.StreamDestroy(stream));
}

static int cu_stream_synchronize(void *stream, struct rt_err *e) {
  if (cu_enter(e))
    return -1;
  return cu_done_on(e, "cuStreamSynchronize", cu.StreamSynchronize(stream), stream);
}

static int cu_stream_wait_event(void *stream, void *event, struct rt_err *e) {
  if (cu_enter(e))
    return -1;
  return cu_done_on(e, "cuStreamWaitEvent", cu.StreamWaitEvent(stream, event, 0), event);
}

static int cu_event_create(void **event, struct rt_err *e) {
  if (cu_enter(e))
    return -1;
  return cu_done(e, "cuEventCreate", cu.EventCreate(event, CU_EVENT_DISABLE_TIMING));
}

static int cu_event_destroy(void *event, struct rt_err *e) {
  if (cu_enter(e))
    return -1;
  rt_fault_forget(event);
  return cu_done(e, "cuEventDestroy_v2", cu.EventDestroy(event));
}

static int cu_event_synchronize(void *event, struct rt_err *e) {
  if (cu_enter(e))
    return -1;
  return cu_done_on(e, "cuEventSynchronize", cu.EventSynchronize(event), event);
}

static int cu_event_record(void *event, void *stream, struct rt_err *e) {
  if (cu_enter(e))
    return -1;
  rt_fault_note_record(event, stream);
  return cu_done_on(e, "cuEventRecord", cu.EventRecord(event, stream), stream);
}

static int cu_mem_alloc(size_t bytes, int host_shared, void **ptr, struct rt_err *e) {
  CUdeviceptr p = 0;
  if (cu_enter(e))
    return -1;
  int rc = host_shared
               ? cu_done(e, "cuMemAllocManaged",
                         cu.MemAllocManaged(&p, bytes, CU_MEM_ATTACH_GLOBAL))
               : cu_done(e, "cuMemAlloc_v2", cu.MemAlloc(&p, bytes));
  *ptr = (void *)(uintptr_t)p;
  return rc;
}

static int cu_mem_free(void *ptr, struct rt_err *e) {
  if (cu_enter(e))
    return -1;
  return cu_done(e, "cuMemFree_v2", cu.MemFree(cu_ptr(ptr)));
}

static int cu_mem_copy(void *dst, const void *src, size_t bytes, void *stream,
                       struct rt_err *e) {
  if (cu_enter(e))
    return -1;
  /* Unified addressing lets the driver infer the direction. */
  return cu_done_on(e, "cuMemcpyAsync", cu.MemcpyAsync(cu_ptr(dst), cu_ptr(src), bytes, stream),
                    stream);
}

static int cu_mem_set32(void *dst, uint32_t value, size_t count, void *stream,
                        struct rt_err *e) {
  if (cu_enter(e))
    return -1;
  return cu_done_on(e, "cuMemsetD32Async", cu.MemsetD32Async(cu_ptr(dst), value, count, stream),
                    stream);
}

static int cu_mem_set16(void *dst, uint16_t value, size_t count, void *stream,
                        struct rt_err *e) {
  if (cu_enter(e))
    return -1;
  return cu_done_on(e, "cuMemsetD16Async", cu.MemsetD16Async(cu_ptr(dst), value, count, stream),
                    stream);
}

static int cu_host_register(void *ptr, size_t bytes, struct rt_err *e) {
  if (cu_enter(e))
    return -1;
  return cu_done(e, "cuMemHostRegister_v2", cu.MemHostRegister(ptr, bytes, 0));
}

static int cu_host_unregister(void *ptr, struct rt_err *e) {
  if (cu_enter(e))
    return -1;
  return cu_done(e, "cuMemHostUnregister", cu.MemHostUnregister(ptr));
}

static int cu_host_device_pointer(void *host, void **device, struct rt_err *e) {
  if (!cu.MemHostGetDevicePointer) { /* unified addressing: the same address */
    *device = host;
    return 0;
  }
  if (cu_enter(e))
    return -1;
  CUdeviceptr d = 0;
  if (cu_done(e, "cuMemHostGetDevicePointer_v2", cu.MemHostGetDevicePointer(&d, host, 0)) != 0)
    return -1;
  *device = (void *)(uintptr_t)d;
  return 0;
}

static int cu_tensor_map_encode(const struct rt_tensor_map *t, void *map,
                                struct rt_err *e) {
  if (!cu.TensorMapEncodeTiled)
    return rt_fail_msg(e, "TMA descriptors need cuTensorMapEncodeTiled (CUDA 12 "
                          "or newer), which this driver lacks");
  CUresult r = cu.TensorMapEncodeTiled(map, t->data_type, t->rank, t->address,
                                       t->dims, t->strides, t->box,
                                       t->element_strides, t->interleave,
                                       t->swizzle, t->l2_promotion, t->oob_fill);
  return r == CUDA_SUCCESS ? 0 : rt_fail(e, "cuTensorMapEncodeTiled", r);
}

static int cu_copy_to_device(void *dst, const void *src, size_t size, struct rt_err *e) {
  if (cu_enter(e))
    return -1;
  return cu_done(e, "cuMemcpyHtoD_v2", cu.MemcpyHtoD(cu_ptr(dst), src, size));
}

const struct rt_backend rt_backend_cuda = {
    .name = "cuda",
    .label = "CUDA",
    .select = &rt_selection_cuda,
    .probe = cu_probe,
    .error_name = cu_error_name,
    .error_string = cu_error_string,
    .module_load = cu_module_load,
    .module_load_jit = cu_module_load_jit,
    .module_unload = cu_module_unload,
    .module_function = cu_module_function,
    .function_limits = cu_function_limits,
    .function_module = rt_gpu_function_module,
    .launch = cu_launch,
    .launch_cluster = cu_launch_cluster,
    .stream_create = cu_stream_create,
    .stream_destroy = cu_stream_destroy,
    .stream_synchronize = cu_stream_synchronize,
    .stream_wait_event = cu_stream_wait_event,
    .event_create = cu_event_create,
    .event_destroy = cu_event_destroy,
    .event_synchronize = cu_event_synchronize,
    .event_record = cu_event_record,
    .mem_alloc = cu_mem_alloc,
    .mem_free = cu_mem_free,
    .mem_copy = cu_mem_copy,
    .mem_set32 = cu_mem_set32,
    .mem_set16 = cu_mem_set16,
    .host_register = cu_host_register,
    .host_unregister = cu_host_unregister,
    .host_device_pointer = cu_host_device_pointer,
    .tensor_map_encode = cu_tensor_map_encode,
    .copy_to_device = cu_copy_to_device,
    .feature_note = "an NVIDIA sm_90+ feature",
    .context_enter = cu_enter,
    .context_leave = cu_leave,
};
