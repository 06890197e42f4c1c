/* vulkan_device.c: the instance, the physical device the program runs on,
 * and the logical device with the features gpucc's kernels may need.
 *
 * Numbering (GPUCC_DEVICE, mgpuSetDefaultDevice): the physical devices
 * that are not CPUs first, then the CPU ones (Mesa's lavapipe), each group
 * in the loader's order, so that device 0 is a GPU wherever there is one.
 * A CPU device is taken only when GPUCC_BACKEND=vulkan asks for this
 * backend: gpucc's host backend runs the same program on the same CPU
 * faster (it compiles kernels to vectorized loops over a block), so
 * automatic selection goes on to it (runtime/README.md).
 *
 * Enabled: Vulkan 1.2's bufferDeviceAddress and timelineSemaphore (the ABI
 * needs both), and every optional feature of struct vk_features that the
 * device has, so that any module the device can run loads without a new
 * device (vulkan_features.c checks each module against them). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vulkan_rt.h"

struct vk_device vkd = {.queue_lock = PTHREAD_MUTEX_INITIALIZER};

int vk_fail(struct rt_err *e, const char *call, VkResult r) { return rt_fail(e, call, r); }

static void vk_describe(const char *call, VkResult r, char *why, size_t whylen) {
  const char *name = vk_result_name(r);
  if (name)
    snprintf(why, whylen, "%s failed: %s", call, name);
  else
    snprintf(why, whylen, "%s failed: VkResult %d", call, (int)r);
}

static int vk_create_instance(char *why, size_t whylen) {
  uint32_t loader = VK_API_VERSION_1_0;
  if (vk.vkEnumerateInstanceVersion && vk.vkEnumerateInstanceVersion(&loader) != VK_SUCCESS)
    loader = VK_API_VERSION_1_0;
  if (loader < VK_API_VERSION_1_2) {
    snprintf(why, whylen, "the Vulkan loader is version %u.%u, gpucc needs 1.2",
             VK_API_VERSION_MAJOR(loader), VK_API_VERSION_MINOR(loader));
    return -1;
  }
  VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
                           .pApplicationName = "gpucc",
                           .pEngineName = "gpucc",
                           .apiVersion = loader >= VK_API_VERSION_1_3 ? VK_API_VERSION_1_3
                                                                      : VK_API_VERSION_1_2};
  VkInstanceCreateInfo info = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
                               .pApplicationInfo = &app};
  VkResult r = vk.vkCreateInstance(&info, NULL, &vkd.instance);
  if (r == VK_ERROR_INCOMPATIBLE_DRIVER) {
    snprintf(why, whylen, "no device");
    return -1;
  }
  if (r != VK_SUCCESS) {
    vk_describe("vkCreateInstance", r, why, whylen);
    return -1;
  }
  vkd.features.api = app.apiVersion;
  return vk_load_instance_functions(vkd.instance, why, whylen);
}

/* The physical devices in gpucc's order (GPUs, then CPUs); malloc'ed. */
static VkPhysicalDevice *vk_ordered_devices(uint32_t *n, char *why, size_t whylen) {
  VkResult r = vk.vkEnumeratePhysicalDevices(vkd.instance, n, NULL);
  VkPhysicalDevice *all = r == VK_SUCCESS ? calloc(*n ? *n : 1, sizeof *all) : NULL;
  VkPhysicalDevice *ordered = all ? calloc(*n ? *n : 1, sizeof *ordered) : NULL;
  if (r == VK_SUCCESS && ordered)
    r = vk.vkEnumeratePhysicalDevices(vkd.instance, n, all);
  if (r != VK_SUCCESS && r != VK_INCOMPLETE) {
    vk_describe("vkEnumeratePhysicalDevices", r, why, whylen);
    free(all);
    free(ordered);
    return NULL;
  }
  if (!ordered) {
    snprintf(why, whylen, "out of memory");
    free(all);
    return NULL;
  }
  uint32_t k = 0;
  for (int cpu = 0; cpu < 2; cpu++)
    for (uint32_t i = 0; i < *n; i++) {
      VkPhysicalDeviceProperties p;
      vk.vkGetPhysicalDeviceProperties(all[i], &p);
      if ((p.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU) == cpu)
        ordered[k++] = all[i];
    }
  free(all);
  return ordered;
}

/* The device extensions we enable that it has (bit i of the result: the
 * i-th of vk_wanted_extensions), and their names in names[]. */
static uint32_t vk_pick_extensions(const char **names, uint32_t *n) {
  uint32_t count = 0, mask = 0;
  *n = 0;
  if (vk.vkEnumerateDeviceExtensionProperties(vkd.physical, NULL, &count, NULL) != VK_SUCCESS)
    return 0;
  VkExtensionProperties *have = calloc(count ? count : 1, sizeof *have);
  if (!have || vk.vkEnumerateDeviceExtensionProperties(vkd.physical, NULL, &count, have) !=
                   VK_SUCCESS) {
    free(have);
    return 0;
  }
  size_t nwanted;
  const char *const *wanted = vk_wanted_extensions(&nwanted);
  for (size_t w = 0; w < nwanted; w++) {
    uint32_t core = vk_extension_core_version(wanted[w]);
    if (core && vkd.features.api >= core)
      continue;
    for (uint32_t i = 0; i < count; i++)
      if (strcmp(have[i].extensionName, wanted[w]) == 0) {
        names[(*n)++] = wanted[w];
        mask |= 1u << w;
      }
  }
  free(have);
  return mask;
}

/* The features the device has, in the chain vkCreateDevice takes, trimmed
 * to the ones gpucc may use; copied into vkd.features. */
struct vk_chain {
  VkPhysicalDeviceFeatures2 f2;
  VkPhysicalDeviceVulkan11Features v11;
  VkPhysicalDeviceVulkan12Features v12;
  VkPhysicalDeviceShaderAtomicFloatFeaturesEXT atomic;
};

static void vk_query_features(struct vk_chain *c, int atomic_ext) {
  memset(c, 0, sizeof *c);
  c->f2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
  c->v11.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES;
  c->v12.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES;
  c->atomic.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT;
  c->f2.pNext = &c->v11;
  c->v11.pNext = &c->v12;
  c->v12.pNext = atomic_ext ? &c->atomic : NULL;
  vk.vkGetPhysicalDeviceFeatures2(vkd.physical, &c->f2);
  /* What is enabled: exactly what gpucc may use (others, like robust
   * buffer access, only cost time). */
  struct vk_chain all = *c;
  VkPhysicalDeviceFeatures none = {0};
  c->f2.features = none;
  c->f2.features.shaderInt64 = all.f2.features.shaderInt64;
  c->f2.features.shaderFloat64 = all.f2.features.shaderFloat64;
  c->f2.features.shaderInt16 = all.f2.features.shaderInt16;
  void *v11_next = c->v11.pNext, *v12_next = c->v12.pNext, *atomic_next = c->atomic.pNext;
  memset((char *)&c->v11 + offsetof(VkPhysicalDeviceVulkan11Features, storageBuffer16BitAccess),
         0, sizeof c->v11 - offsetof(VkPhysicalDeviceVulkan11Features, storageBuffer16BitAccess));
  memset((char *)&c->v12 + offsetof(VkPhysicalDeviceVulkan12Features, samplerMirrorClampToEdge),
         0, sizeof c->v12 - offsetof(VkPhysicalDeviceVulkan12Features, samplerMirrorClampToEdge));
  memset((char *)&c->atomic +
             offsetof(VkPhysicalDeviceShaderAtomicFloatFeaturesEXT, shaderBufferFloat32Atomics),
         0, sizeof c->atomic -
                offsetof(VkPhysicalDeviceShaderAtomicFloatFeaturesEXT, shaderBufferFloat32Atomics));
  c->v11.pNext = v11_next, c->v12.pNext = v12_next, c->atomic.pNext = atomic_next;
#define KEEP(s, field) c->s.field = all.s.field
  KEEP(v11, storageBuffer16BitAccess);
  KEEP(v11, uniformAndStorageBuffer16BitAccess);
  KEEP(v11, storagePushConstant16);
  KEEP(v11, variablePointersStorageBuffer);
  KEEP(v11, variablePointers);
  KEEP(v12, storageBuffer8BitAccess);
  KEEP(v12, uniformAndStorageBuffer8BitAccess);
  KEEP(v12, storagePushConstant8);
  KEEP(v12, shaderBufferInt64Atomics);
  KEEP(v12, shaderFloat16);
  KEEP(v12, shaderInt8);
  KEEP(v12, timelineSemaphore);
  KEEP(v12, vulkanMemoryModel);
  KEEP(v12, vulkanMemoryModelDeviceScope);
  KEEP(v12, bufferDeviceAddress);
  KEEP(atomic, shaderBufferFloat32Atomics);
  KEEP(atomic, shaderBufferFloat32AtomicAdd);
  KEEP(atomic, shaderBufferFloat64Atomics);
  KEEP(atomic, shaderBufferFloat64AtomicAdd);
#undef KEEP
  struct vk_features *f = &vkd.features;
  f->int64 = c->f2.features.shaderInt64;
  f->float64 = c->f2.features.shaderFloat64;
  f->int16 = c->f2.features.shaderInt16;
  f->storage16 = c->v11.storageBuffer16BitAccess;
  f->uniform_storage16 = c->v11.uniformAndStorageBuffer16BitAccess;
  f->push_constant16 = c->v11.storagePushConstant16;
  f->variable_pointers_storage = c->v11.variablePointersStorageBuffer;
  f->variable_pointers = c->v11.variablePointers;
  f->storage8 = c->v12.storageBuffer8BitAccess;
  f->uniform_storage8 = c->v12.uniformAndStorageBuffer8BitAccess;
  f->push_constant8 = c->v12.storagePushConstant8;
  f->int64_atomics = c->v12.shaderBufferInt64Atomics;
  f->float16 = c->v12.shaderFloat16;
  f->int8 = c->v12.shaderInt8;
  f->timeline_semaphore = c->v12.timelineSemaphore;
  f->memory_model = c->v12.vulkanMemoryModel;
  f->memory_model_device_scope = c->v12.vulkanMemoryModelDeviceScope;
  f->buffer_device_address = c->v12.bufferDeviceAddress;
  f->float32_atomic_add = c->atomic.shaderBufferFloat32AtomicAdd;
  f->float64_atomic_add = c->atomic.shaderBufferFloat64AtomicAdd;
}

/* The first queue family that runs compute; -1 when none does. */
static int vk_compute_family(void) {
  uint32_t n = 0;
  vk.vkGetPhysicalDeviceQueueFamilyProperties(vkd.physical, &n, NULL);
  VkQueueFamilyProperties *q = calloc(n ? n : 1, sizeof *q);
  if (!q)
    return -1;
  vk.vkGetPhysicalDeviceQueueFamilyProperties(vkd.physical, &n, q);
  int family = -1;
  for (uint32_t i = 0; i < n && family < 0; i++)
    if (q[i].queueFlags & VK_QUEUE_COMPUTE_BIT)
      family = (int)i;
  free(q);
  return family;
}

static void vk_subgroups(void) {
  VkPhysicalDeviceSubgroupProperties sub = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
  VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
                                    .pNext = &sub};
  vk.vkGetPhysicalDeviceProperties2(vkd.physical, &p2);
  vkd.features.subgroup_ops =
      sub.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT ? sub.supportedOperations : 0;
}

static int vk_create_device(char *why, size_t whylen) {
  int family = vk_compute_family();
  if (family < 0) {
    snprintf(why, whylen, "device '%s' has no compute queue", vkd.name);
    return -1;
  }
  const char *exts[8];
  uint32_t nexts;
  vkd.features.extensions = vk_pick_extensions(exts, &nexts);
  size_t nwanted;
  const char *const *wanted = vk_wanted_extensions(&nwanted);
  int atomic_ext = 0;
  for (size_t w = 0; w < nwanted; w++)
    if ((vkd.features.extensions >> w & 1) && !strcmp(wanted[w], "VK_EXT_shader_atomic_float"))
      atomic_ext = 1;
  struct vk_chain chain;
  vk_query_features(&chain, atomic_ext);
  vk_subgroups();
  if (!vkd.features.buffer_device_address || !vkd.features.timeline_semaphore) {
    snprintf(why, whylen, "device '%s' lacks %s", vkd.name,
             !vkd.features.buffer_device_address ? "bufferDeviceAddress" : "timelineSemaphore");
    return -1;
  }
  float priority = 1.0f;
  VkDeviceQueueCreateInfo queue = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                                   .queueFamilyIndex = (uint32_t)family,
                                   .queueCount = 1,
                                   .pQueuePriorities = &priority};
  VkDeviceCreateInfo info = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
                             .pNext = &chain.f2,
                             .queueCreateInfoCount = 1,
                             .pQueueCreateInfos = &queue,
                             .enabledExtensionCount = nexts,
                             .ppEnabledExtensionNames = exts};
  VkResult r = vk.vkCreateDevice(vkd.physical, &info, NULL, &vkd.device);
  if (r != VK_SUCCESS) {
    vk_describe("vkCreateDevice", r, why, whylen);
    return -1;
  }
  if (vk_load_device_functions(vkd.device, why, whylen) != 0)
    return -1;
  vk.vkGetDeviceQueue(vkd.device, (uint32_t)family, 0, &vkd.queue);
  return 0;
}

/* What a launch may ask (checked by launch.c), from the device's limits. */
static void vk_device_limits(struct rt_device *dev) {
  const VkPhysicalDeviceLimits *l = &vkd.props.limits;
  dev->max_threads = l->maxComputeWorkGroupInvocations;
  for (int i = 0; i < 3; i++) {
    dev->max_block[i] = l->maxComputeWorkGroupSize[i];
    dev->max_grid[i] = l->maxComputeWorkGroupCount[i];
  }
  dev->max_shared = l->maxComputeSharedMemorySize;
}

/* Picks device `ordinal`; -1 with a reason. */
static int vk_pick(int ordinal, int forced, char *why, size_t whylen) {
  uint32_t n = 0;
  VkPhysicalDevice *devices = vk_ordered_devices(&n, why, whylen);
  if (!devices)
    return -1;
  if (n == 0 || (uint32_t)ordinal >= n) {
    if (n == 0)
      snprintf(why, whylen, "no device");
    else
      snprintf(why, whylen, "device %d requested but %u found", ordinal, n);
    free(devices);
    return -1;
  }
  vkd.physical = devices[ordinal];
  free(devices);
  vk.vkGetPhysicalDeviceProperties(vkd.physical, &vkd.props);
  snprintf(vkd.name, sizeof vkd.name, "%s", vkd.props.deviceName);
  if (vkd.props.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU && !forced) {
    if (ordinal == 0)
      snprintf(why, whylen, "only a CPU Vulkan device (%s), which the host backend beats; "
                            "GPUCC_BACKEND=vulkan uses it", vkd.name);
    else
      snprintf(why, whylen, "device %d is a CPU Vulkan device (%s), which the host backend "
                            "beats; GPUCC_BACKEND=vulkan uses it", ordinal, vkd.name);
    return -1;
  }
  if (vkd.props.apiVersion < VK_API_VERSION_1_2) {
    snprintf(why, whylen, "device '%s' supports Vulkan %u.%u, gpucc needs 1.2", vkd.name,
             VK_API_VERSION_MAJOR(vkd.props.apiVersion),
             VK_API_VERSION_MINOR(vkd.props.apiVersion));
    return -1;
  }
  if (vkd.props.apiVersion < vkd.features.api)
    vkd.features.api = vkd.props.apiVersion;
  vk.vkGetPhysicalDeviceMemoryProperties(vkd.physical, &vkd.memory);
  return 0;
}

int vk_device_open(int ordinal, int forced, struct rt_device *dev, char *why, size_t whylen) {
  if (vk_create_instance(why, whylen) != 0 || vk_pick(ordinal, forced, why, whylen) != 0 ||
      vk_create_device(why, whylen) != 0) {
    if (vkd.device && vk.vkGetDeviceProcAddr) {
      PFN_vkDestroyDevice destroy =
          (PFN_vkDestroyDevice)vk.vkGetDeviceProcAddr(vkd.device, "vkDestroyDevice");
      if (destroy)
        destroy(vkd.device, NULL);
    }
    if (vkd.instance && vk.vkDestroyInstance)
      vk.vkDestroyInstance(vkd.instance, NULL);
    vkd.device = NULL;
    vkd.instance = NULL;
    return -1;
  }
  memset(dev, 0, sizeof *dev);
  dev->ordinal = ordinal;
  snprintf(dev->name, sizeof dev->name, "%s", vkd.name);
  snprintf(dev->arch, sizeof dev->arch, "spirv");
  snprintf(dev->target_id, sizeof dev->target_id, "spirv");
  vk_device_limits(dev);
  rt_log("vulkan: device %d: '%s', Vulkan %u.%u, %s, subgroup operations 0x%x", ordinal,
         vkd.name, VK_API_VERSION_MAJOR(vkd.features.api), VK_API_VERSION_MINOR(vkd.features.api),
         vkd.props.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU ? "a CPU" : "a GPU",
         (unsigned)vkd.features.subgroup_ops);
  return 0;
}
