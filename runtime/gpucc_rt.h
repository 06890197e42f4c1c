/* gpucc_rt.h: libgpucc_rt, the runtime that programs built by gpucc call.
 *
 * The library exports two groups of functions and nothing else:
 *
 *  - the gpucc* API below, for host programs that want to know which GPU
 *    backend runs them or to handle runtime errors themselves;
 *  - the mgpu* ABI that MLIR's GPU lowering (LLVM 22) emits calls to. Compiled
 *    code calls these; their C signatures match the LLVM IR declarations
 *    (i64 -> intptr_t/int64_t/size_t, i32 -> int32_t, ptr -> pointer). C host
 *    code may call them too.
 *
 * Nothing touches a GPU driver until the first call that needs one (getting a
 * kernel, allocating, creating a stream, ...). The driver is then loaded with
 * dlopen(): CUDA (libcuda.so.1) if it has a device, else HIP (libamdhip64.so),
 * else the host backend (the CPU) when the program carries host code
 * (GPUCC_BACKEND forces one). A program that never uses the GPU runs without
 * any driver installed.
 *
 * Errors: every failure of a driver call, and the absence of a usable device,
 * is reported as one line naming the mgpu function, the driver call and the
 * driver's error ("gpucc: runtime error: mgpuMemAlloc: cuMemAlloc_v2 failed:
 * CUDA_ERROR_OUT_OF_MEMORY (out of memory)"). By default the line goes to
 * stderr and the process exits with status 1; see gpuccSetErrorHandler.
 *
 * Environment: GPUCC_BACKEND, GPUCC_DEVICE, GPUCC_LOG, GPUCC_CUDA_LIBRARY,
 * GPUCC_HIP_LIBRARY, GPUCC_VULKAN_LIBRARY (see runtime/README.md). All
 * functions are thread-safe. */
#ifndef GPUCC_RT_H
#define GPUCC_RT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- gpucc* API ---------------------------------------------------------- */

/* Receives the text of a runtime error: one line, without the
 * "gpucc: runtime error: " prefix and without a newline. The string is valid
 * only during the call. */
typedef void (*gpuccErrorHandler)(const char *message, void *user_data);

/* Installs handler (NULL restores the default: print to stderr, exit(1)).
 * When an installed handler returns, the failing mgpu function returns
 * without doing its work: functions that create something return NULL, the
 * others do nothing. The handler may be called from any thread that calls the
 * runtime, and more than once. */
void gpuccSetErrorHandler(gpuccErrorHandler handler, void *user_data);

/* Name of the backend in use: "cuda", "hip" or "host". NULL before the runtime has
 * initialized (it does so lazily, at the first GPU operation) or when no
 * backend could be started. Never starts the runtime itself. */
const char *gpuccBackendName(void);

/* ---- mgpu* ABI (called by compiled code) ---------------------------------- */

/* Modules. mgpuModuleLoad records the image (a gpucc fat binary, or a plain
 * cubin / CUDA fatbin / PTX / hsaco) and returns a handle; it touches no driver.
 * The image must stay valid until mgpuModuleUnload (it is a constant of the
 * program). The object is chosen and loaded at the first
 * mgpuModuleGetFunction. mgpuModuleLoadJIT does the same for a NUL-terminated
 * PTX text compiled with the given JIT optimization level. */
void *mgpuModuleLoad(void *data, size_t gpuBlobSize);
void *mgpuModuleLoadJIT(void *data, int32_t optLevel);
void mgpuModuleUnload(void *module);
void *mgpuModuleGetFunction(void *module, const char *name);

/* Launches. params is an array of pointers to each argument (paramsCount of
 * them); extra is passed through to the driver (NULL from MLIR). The cluster
 * variant has no paramsCount: LLVM 22 declares it with 14 arguments. */
void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY,
                      intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                      intptr_t blockZ, int32_t smem, void *stream,
                      void **params, void **extra, size_t paramsCount);
void mgpuLaunchClusterKernel(void *function, intptr_t clusterX,
                             intptr_t clusterY, intptr_t clusterZ,
                             intptr_t gridX, intptr_t gridY, intptr_t gridZ,
                             intptr_t blockX, intptr_t blockY, intptr_t blockZ,
                             int32_t smem, void *stream, void **params,
                             void **extra);

/* Streams and events. Streams do not synchronize with the default stream. */
void *mgpuStreamCreate(void);
void mgpuStreamDestroy(void *stream);
void mgpuStreamSynchronize(void *stream);
void mgpuStreamWaitEvent(void *stream, void *event);
void *mgpuEventCreate(void);
void mgpuEventDestroy(void *event);
void mgpuEventSynchronize(void *event);
void mgpuEventRecord(void *event, void *stream);

/* Memory. mgpuMemAlloc is synchronous; isHostShared gives managed memory that
 * the host can access too (on CUDA and HIP alike). 0 bytes gives NULL. */
void *mgpuMemAlloc(uint64_t sizeBytes, void *stream, bool isHostShared);
void mgpuMemFree(void *ptr, void *stream);
void mgpuMemcpy(void *dst, void *src, size_t sizeBytes, void *stream);
void mgpuMemset32(void *dst, uint32_t value, size_t count, void *stream);
void mgpuMemset16(void *dst, uint16_t value, size_t count, void *stream);

/* Page-locks host memory so that kernels can use it. The MemRef variants take
 * an unranked memref: its rank and a pointer to the ranked descriptor
 * {allocated, aligned, offset, sizes[rank], strides[rank]}; they register the
 * bytes spanned by its elements. */
void mgpuMemHostRegister(void *ptr, uint64_t sizeBytes);
void mgpuMemHostUnregister(void *ptr);
void mgpuMemHostRegisterMemRef(int64_t rank, void *descriptor,
                               int64_t elementSizeBytes);
void mgpuMemHostUnregisterMemRef(int64_t rank, void *descriptor,
                                 int64_t elementSizeBytes);

/* Selects the device (index among the backend's devices) when called before
 * the first GPU operation; afterwards only the device in use is accepted. */
void mgpuSetDefaultDevice(int32_t device);

/* CUDA only (sm_90+): builds a TMA descriptor for a memref of rank 1..5 and
 * returns a device pointer to it. Enum arguments are CUDA's values widened to
 * 64 bits. The descriptor lives until the process ends; equal requests share
 * one descriptor. */
void *mgpuTensorMapEncodeTiledMemref(int64_t tensorRank, void *descriptor,
                                     int64_t tensorDataType, int64_t interleave,
                                     int64_t swizzle, int64_t l2Promotion,
                                     int64_t oobFill, int64_t *inputBoxDims);

#ifdef __cplusplus
}
#endif

#endif
