/* vulkan_rt.h: what the Vulkan backend's files share, and nothing else of
 * the runtime sees. The backend is backend_vulkan.c (its row and probe) on
 * top of, in layers:
 *
 *   vulkan_pipeline.c  modules, kernels, pipelines per block shape, launches
 *   vulkan_memory.c    gpu.alloc buffers, copies, fills
 *   vulkan_stream.c    streams (queue submissions ordered by a timeline
 *                      semaphore), events, operations recorded on a stream
 *   vulkan_buffer.c    buffers with memory of their own, staging buffers
 *   vulkan_device.c    choosing the physical device, the features enabled,
 *                      the launch limits; vulkan_features.c: which SPIR-V
 *                      capability and extension needs which of them
 *   vulkan_loader.c    libvulkan.so.1 (dlopen), its function table, VkResult
 *                      names
 *   spirv_reflect.c    what a SPIR-V module declares (no Vulkan)
 *
 * The kernel ABI they implement is in runtime/README.md ("The Vulkan
 * backend") and docs/notes/spirv-vulkan.md. No file links libvulkan: every
 * Vulkan function is called through `vk`. */
#ifndef GPUCC_RT_VULKAN_H
#define GPUCC_RT_VULKAN_H

#define VK_NO_PROTOTYPES
#include <pthread.h>
#include <stdint.h>
#include <vulkan/vulkan_core.h>

#include "rt.h"
#include "spirv_reflect.h"

/* ---- vulkan_loader.c ---------------------------------------------------- */

#define VK_INSTANCE_FUNCTIONS(X)                                                                \
  X(vkDestroyInstance) X(vkEnumeratePhysicalDevices) X(vkGetPhysicalDeviceProperties)        \
  X(vkGetPhysicalDeviceProperties2) X(vkGetPhysicalDeviceFeatures2)                          \
  X(vkGetPhysicalDeviceMemoryProperties) X(vkGetPhysicalDeviceQueueFamilyProperties)         \
  X(vkEnumerateDeviceExtensionProperties) X(vkCreateDevice) X(vkGetDeviceProcAddr)

#define VK_DEVICE_FUNCTIONS(X)                                                                  \
  X(vkGetDeviceQueue) X(vkQueueSubmit) X(vkQueueWaitIdle) X(vkCreateBuffer)                   \
  X(vkDestroyBuffer) X(vkGetBufferMemoryRequirements) X(vkAllocateMemory) X(vkFreeMemory)     \
  X(vkBindBufferMemory) X(vkMapMemory) X(vkGetBufferDeviceAddress) X(vkCreateCommandPool)     \
  X(vkDestroyCommandPool) X(vkAllocateCommandBuffers) X(vkFreeCommandBuffers)                 \
  X(vkResetCommandBuffer) X(vkBeginCommandBuffer) X(vkEndCommandBuffer) X(vkCmdCopyBuffer)    \
  X(vkCmdFillBuffer) X(vkCmdPipelineBarrier) X(vkCmdBindPipeline) X(vkCmdPushConstants)       \
  X(vkCmdDispatch) X(vkCreateSemaphore) X(vkDestroySemaphore) X(vkWaitSemaphores)             \
  X(vkGetSemaphoreCounterValue) X(vkCreateShaderModule) X(vkDestroyShaderModule)              \
  X(vkCreatePipelineLayout) X(vkDestroyPipelineLayout) X(vkCreateComputePipelines)            \
  X(vkDestroyPipeline)

#define VK_SLOT(name) PFN_##name name;
struct vk_functions {
  PFN_vkGetInstanceProcAddr vkGetInstanceProcAddr;
  PFN_vkCreateInstance vkCreateInstance;
  PFN_vkEnumerateInstanceVersion vkEnumerateInstanceVersion; /* NULL: a 1.0 loader */
  VK_INSTANCE_FUNCTIONS(VK_SLOT)
  VK_DEVICE_FUNCTIONS(VK_SLOT)
};
#undef VK_SLOT
extern struct vk_functions vk;

/* dlopen()s libvulkan.so.1 (GPUCC_VULKAN_LIBRARY replaces it) and finds
 * the global functions; -1 with a reason. */
int vk_load_library(char *why, size_t whylen);
/* The instance's and the device's functions; -1 naming a missing one. */
int vk_load_instance_functions(VkInstance instance, char *why, size_t whylen);
int vk_load_device_functions(VkDevice device, char *why, size_t whylen);
/* Closes the library and forgets every function (a failed probe). */
void vk_unload_library(void);
/* "VK_ERROR_DEVICE_LOST"; NULL for a code it does not know. */
const char *vk_result_name(int code);

/* ---- vulkan_features.c -------------------------------------------------- */

/* What the device offers a compute shader, as enabled on the device. */
struct vk_features {
  VkBool32 buffer_device_address, timeline_semaphore;
  VkBool32 int64, float64, int16, int8, float16;
  VkBool32 storage8, uniform_storage8, push_constant8;
  VkBool32 storage16, uniform_storage16, push_constant16;
  VkBool32 variable_pointers_storage, variable_pointers;
  VkBool32 memory_model, memory_model_device_scope;
  VkBool32 int64_atomics, float32_atomic_add, float64_atomic_add;
  uint32_t subgroup_ops; /* VkSubgroupFeatureFlags, 0 without compute-stage subgroups */
  uint32_t api;          /* the device's Vulkan version (at most the instance's) */
  uint32_t extensions;   /* bit i: vk_wanted_extensions()[i] is enabled */
};

/* Whether the module's capabilities and extensions are all offered by the
 * device; else -1 with e saying which is missing and what it needs, the
 * module named as `module` says ("the module", "module 'm'"):
 *   the Vulkan device 'X' lacks shaderFloat64, which SPIR-V capability
 *   Float64 of the module needs */
int vk_check_module_needs(const struct spirv_module *m, const struct vk_features *f,
                          const char *device, const char *module, struct rt_err *e);
/* The device extensions the features above may need that are not core at
 * api, for vkCreateDevice; n set to their number. */
const char *const *vk_wanted_extensions(size_t *n);
/* The Vulkan version in which a device extension became core; 0: never. */
uint32_t vk_extension_core_version(const char *name);

/* ---- vulkan_device.c ---------------------------------------------------- */

struct vk_device {
  VkInstance instance;
  VkPhysicalDevice physical;
  VkDevice device;
  VkQueue queue;
  pthread_mutex_t queue_lock; /* vkQueueSubmit/WaitIdle need the queue to themselves */
  VkPhysicalDeviceProperties props;
  VkPhysicalDeviceMemoryProperties memory;
  struct vk_features features;
  char name[VK_MAX_PHYSICAL_DEVICE_NAME_SIZE];
};
extern struct vk_device vkd;

/* Opens device `ordinal` (GPUs first, CPU devices after them, each group
 * in the loader's order) and fills dev. Unless forced (GPUCC_BACKEND=vulkan),
 * a CPU device is refused: gpucc's host backend runs the same program faster
 * on the same CPU. -1 with a reason, leaving nothing open. */
int vk_device_open(int ordinal, int forced, struct rt_device *dev, char *why, size_t whylen);
/* Makes e a failure of `call` with result r and returns -1. */
int vk_fail(struct rt_err *e, const char *call, VkResult r);

/* ---- vulkan_buffer.c ---------------------------------------------------- */

/* A buffer of size bytes with its own memory, of the first type in prefs
 * that fits, allocated for device addresses when device_address is set,
 * and mapped (*map) when host-visible, else *map is NULL. */
int vk_buffer_new(uint64_t size, VkBufferUsageFlags usage, int device_address,
                  const VkMemoryPropertyFlags *prefs, size_t nprefs, VkBuffer *buffer,
                  VkDeviceMemory *memory, void **map, struct rt_err *e);

/* A host-visible buffer an operation copies through, freed once the
 * operation has run. */
struct vk_staging {
  VkBuffer buffer;
  VkDeviceMemory memory;
  void *map;
};
/* A host-visible, coherent one of size bytes. */
int vk_staging_new(size_t size, struct vk_staging *s, struct rt_err *e);
/* Frees a buffer and its memory (a staging buffer, or any of
 * vk_buffer_new's). */
void vk_staging_free(struct vk_staging *s);

/* ---- vulkan_stream.c ---------------------------------------------------- */

/* One operation being recorded on a stream: the stream is locked from
 * vk_op_begin to vk_op_end or vk_op_abort. */
struct vk_op {
  struct vk_stream *stream;
  VkCommandBuffer cb;
  int sync; /* the NULL stream: vk_op_end waits for the operation */
};
/* Starts recording on stream (NULL: the program's default stream). */
int vk_op_begin(void *stream, struct vk_op *op, struct rt_err *e);
/* Submits the operation after everything queued on its stream before it;
 * keep (NULL: none) is freed once it ran. */
int vk_op_end(struct vk_op *op, struct vk_staging *keep, struct rt_err *e);
void vk_op_abort(struct vk_op *op);
/* Waits for everything queued on stream (NULL: the default one). */
int vk_stream_wait(void *stream, struct rt_err *e);
/* Waits for every stream: the queue is idle when it returns. */
int vk_wait_idle(struct rt_err *e);

int vk_stream_create(void **stream, struct rt_err *e);
int vk_stream_destroy(void *stream, struct rt_err *e);
int vk_stream_synchronize(void *stream, struct rt_err *e);
int vk_stream_wait_event(void *stream, void *event, struct rt_err *e);
int vk_event_create(void **event, struct rt_err *e);
int vk_event_destroy(void *event, struct rt_err *e);
int vk_event_synchronize(void *event, struct rt_err *e);
int vk_event_record(void *event, void *stream, struct rt_err *e);

/* ---- vulkan_memory.c ---------------------------------------------------- */

int vk_mem_alloc(size_t bytes, int host_shared, void **ptr, struct rt_err *e);
int vk_mem_free(void *ptr, struct rt_err *e);
int vk_mem_copy(void *dst, const void *src, size_t bytes, void *stream, struct rt_err *e);
int vk_mem_set32(void *dst, uint32_t value, size_t count, void *stream, struct rt_err *e);
int vk_mem_set16(void *dst, uint16_t value, size_t count, void *stream, struct rt_err *e);

/* ---- vulkan_pipeline.c -------------------------------------------------- */

int vk_module_load(const void *image, size_t size, int text, void **module, struct rt_err *e);
int vk_module_unload(void *module, struct rt_err *e);
int vk_module_function(void *module, const char *name, void **function, struct rt_err *e);
int vk_function_limits(void *function, struct rt_limits *l, struct rt_err *e);
void vk_function_module(void *function, const char *kernel, const char *module);
int vk_launch(const struct rt_launch *l, struct rt_err *e);

#endif
