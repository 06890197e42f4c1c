/* vulkan_loader.c: the Vulkan loader, dlopen()ed when the backend is first
 * probed, and the function table every other Vulkan file calls through.
 *
 * Like the CUDA and HIP backends, the runtime links no vendor library: a
 * program must start where libvulkan.so.1 is missing. The loader exports
 * only vkGetInstanceProcAddr that we rely on; instance functions come from
 * it, device functions from vkGetDeviceProcAddr (which skips the loader's
 * dispatch on every call). GPUCC_VULKAN_LIBRARY replaces the library's
 * name, as GPUCC_CUDA_LIBRARY does for CUDA. */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "vulkan_rt.h"

struct vk_functions vk;
static void *vk_lib;

/* memcpy: POSIX lets a data pointer hold a function's address; this avoids
 * type-punning the slot's storage. */
static void vk_store(void *slot, PFN_vkVoidFunction fn) { memcpy(slot, &fn, sizeof fn); }

int vk_load_library(char *why, size_t whylen) {
  static const char *const names[] = {"libvulkan.so.1", "libvulkan.so", NULL};
  vk_lib = rt_dlopen_first("GPUCC_VULKAN_LIBRARY", names, why, whylen);
  if (!vk_lib)
    return -1;
  void *sym = dlsym(vk_lib, "vkGetInstanceProcAddr");
  if (!sym) {
    snprintf(why, whylen, "the Vulkan loader has no vkGetInstanceProcAddr");
    vk_unload_library();
    return -1;
  }
  memcpy(&vk.vkGetInstanceProcAddr, &sym, sizeof sym);
  vk_store(&vk.vkCreateInstance, vk.vkGetInstanceProcAddr(NULL, "vkCreateInstance"));
  vk_store(&vk.vkEnumerateInstanceVersion,
           vk.vkGetInstanceProcAddr(NULL, "vkEnumerateInstanceVersion"));
  if (!vk.vkCreateInstance) {
    snprintf(why, whylen, "the Vulkan loader has no vkCreateInstance");
    vk_unload_library();
    return -1;
  }
  return 0;
}

int vk_load_instance_functions(VkInstance instance, char *why, size_t whylen) {
#define VK_LOAD(name)                                                                     \
  vk_store(&vk.name, vk.vkGetInstanceProcAddr(instance, #name));                          \
  if (!vk.name) {                                                                         \
    snprintf(why, whylen, "the Vulkan loader has no " #name);                             \
    return -1;                                                                            \
  }
  VK_INSTANCE_FUNCTIONS(VK_LOAD)
#undef VK_LOAD
  return 0;
}

int vk_load_device_functions(VkDevice device, char *why, size_t whylen) {
#define VK_LOAD(name)                                                                     \
  vk_store(&vk.name, vk.vkGetDeviceProcAddr(device, #name));                              \
  if (!vk.name) {                                                                         \
    snprintf(why, whylen, "the Vulkan driver has no " #name);                             \
    return -1;                                                                            \
  }
  VK_DEVICE_FUNCTIONS(VK_LOAD)
#undef VK_LOAD
  return 0;
}

void vk_unload_library(void) {
  if (vk_lib)
    dlclose(vk_lib);
  vk_lib = NULL;
  memset(&vk, 0, sizeof vk);
}

const char *vk_result_name(int code) {
#define VK_NAME(r)                                                                        \
  case r:                                                                                 \
    return #r;
  switch ((VkResult)code) {
    VK_NAME(VK_SUCCESS)
    VK_NAME(VK_NOT_READY)
    VK_NAME(VK_TIMEOUT)
    VK_NAME(VK_EVENT_SET)
    VK_NAME(VK_EVENT_RESET)
    VK_NAME(VK_INCOMPLETE)
    VK_NAME(VK_ERROR_OUT_OF_HOST_MEMORY)
    VK_NAME(VK_ERROR_OUT_OF_DEVICE_MEMORY)
    VK_NAME(VK_ERROR_INITIALIZATION_FAILED)
    VK_NAME(VK_ERROR_DEVICE_LOST)
    VK_NAME(VK_ERROR_MEMORY_MAP_FAILED)
    VK_NAME(VK_ERROR_LAYER_NOT_PRESENT)
    VK_NAME(VK_ERROR_EXTENSION_NOT_PRESENT)
    VK_NAME(VK_ERROR_FEATURE_NOT_PRESENT)
    VK_NAME(VK_ERROR_INCOMPATIBLE_DRIVER)
    VK_NAME(VK_ERROR_TOO_MANY_OBJECTS)
    VK_NAME(VK_ERROR_FORMAT_NOT_SUPPORTED)
    VK_NAME(VK_ERROR_FRAGMENTED_POOL)
    VK_NAME(VK_ERROR_UNKNOWN)
    VK_NAME(VK_ERROR_OUT_OF_POOL_MEMORY)
    VK_NAME(VK_ERROR_INVALID_EXTERNAL_HANDLE)
    VK_NAME(VK_ERROR_FRAGMENTATION)
    VK_NAME(VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS)
    VK_NAME(VK_PIPELINE_COMPILE_REQUIRED)
  default:
    break;
  }
#undef VK_NAME
  return NULL;
}
