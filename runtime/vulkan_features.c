/* vulkan_features.c: which Vulkan feature each SPIR-V capability of a
 * module needs, and which device extension each SPIR-V extension needs;
 * checked when a module is loaded, so that a device that lacks one is
 * named with what it lacks, instead of a driver's crash or a bare
 * VK_ERROR code at pipeline creation.
 *
 * A capability this table does not know is refused: its needs cannot be
 * checked, and gpucc's spirv target does not emit it. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "vulkan_rt.h"

#define FEATURE(field) offsetof(struct vk_features, field)
#define NO_FEATURE ((size_t)-1)

/* cap: SPIR-V's number; feature: the struct vk_features field, or
 * NO_FEATURE with subgroup ops (bits of subgroup_ops, in compute shaders),
 * or neither (always there in Vulkan 1.2 compute). */
static const struct {
  uint32_t cap;
  const char *name, *needs;
  size_t feature;
  uint32_t subgroup_ops;
} vk_caps[] = {
    {0, "Matrix", NULL, NO_FEATURE, 0},
    {1, "Shader", NULL, NO_FEATURE, 0},
    {9, "Float16", "shaderFloat16", FEATURE(float16), 0},
    {10, "Float64", "shaderFloat64", FEATURE(float64), 0},
    {11, "Int64", "shaderInt64", FEATURE(int64), 0},
    {12, "Int64Atomics", "shaderBufferInt64Atomics", FEATURE(int64_atomics), 0},
    {22, "Int16", "shaderInt16", FEATURE(int16), 0},
    {39, "Int8", "shaderInt8", FEATURE(int8), 0},
    {61, "GroupNonUniform", "basic subgroup operations in compute shaders", NO_FEATURE,
     VK_SUBGROUP_FEATURE_BASIC_BIT},
    {62, "GroupNonUniformVote", "subgroup vote operations in compute shaders", NO_FEATURE,
     VK_SUBGROUP_FEATURE_VOTE_BIT},
    {63, "GroupNonUniformArithmetic", "subgroup arithmetic operations in compute shaders",
     NO_FEATURE, VK_SUBGROUP_FEATURE_ARITHMETIC_BIT},
    {64, "GroupNonUniformBallot", "subgroup ballot operations in compute shaders", NO_FEATURE,
     VK_SUBGROUP_FEATURE_BALLOT_BIT},
    {65, "GroupNonUniformShuffle", "subgroup shuffle operations in compute shaders", NO_FEATURE,
     VK_SUBGROUP_FEATURE_SHUFFLE_BIT},
    {66, "GroupNonUniformShuffleRelative",
     "subgroup relative shuffle operations in compute shaders", NO_FEATURE,
     VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT},
    {67, "GroupNonUniformClustered", "subgroup clustered operations in compute shaders",
     NO_FEATURE, VK_SUBGROUP_FEATURE_CLUSTERED_BIT},
    {68, "GroupNonUniformQuad", "subgroup quad operations in compute shaders", NO_FEATURE,
     VK_SUBGROUP_FEATURE_QUAD_BIT},
    {4433, "StorageBuffer16BitAccess", "storageBuffer16BitAccess", FEATURE(storage16), 0},
    {4434, "UniformAndStorageBuffer16BitAccess", "uniformAndStorageBuffer16BitAccess",
     FEATURE(uniform_storage16), 0},
    {4435, "StoragePushConstant16", "storagePushConstant16", FEATURE(push_constant16), 0},
    {4441, "VariablePointersStorageBuffer", "variablePointersStorageBuffer",
     FEATURE(variable_pointers_storage), 0},
    {4442, "VariablePointers", "variablePointers", FEATURE(variable_pointers), 0},
    {4448, "StorageBuffer8BitAccess", "storageBuffer8BitAccess", FEATURE(storage8), 0},
    {4449, "UniformAndStorageBuffer8BitAccess", "uniformAndStorageBuffer8BitAccess",
     FEATURE(uniform_storage8), 0},
    {4450, "StoragePushConstant8", "storagePushConstant8", FEATURE(push_constant8), 0},
    {5345, "VulkanMemoryModel", "vulkanMemoryModel", FEATURE(memory_model), 0},
    {5346, "VulkanMemoryModelDeviceScope", "vulkanMemoryModelDeviceScope",
     FEATURE(memory_model_device_scope), 0},
    {5347, "PhysicalStorageBufferAddresses", "bufferDeviceAddress",
     FEATURE(buffer_device_address), 0},
    {6033, "AtomicFloat32AddEXT", "shaderBufferFloat32AtomicAdd", FEATURE(float32_atomic_add), 0},
    {6034, "AtomicFloat64AddEXT", "shaderBufferFloat64AtomicAdd", FEATURE(float64_atomic_add), 0},
};

/* SPIR-V extensions: the device extension that allows each, and the Vulkan
 * version that made it core (0: never). */
static const struct {
  const char *spirv, *device;
  uint32_t core;
} vk_exts[] = {
    {"SPV_KHR_storage_buffer_storage_class", "VK_KHR_storage_buffer_storage_class",
     VK_API_VERSION_1_1},
    {"SPV_KHR_variable_pointers", "VK_KHR_variable_pointers", VK_API_VERSION_1_1},
    {"SPV_KHR_16bit_storage", "VK_KHR_16bit_storage", VK_API_VERSION_1_1},
    {"SPV_KHR_8bit_storage", "VK_KHR_8bit_storage", VK_API_VERSION_1_2},
    {"SPV_KHR_physical_storage_buffer", "VK_KHR_buffer_device_address", VK_API_VERSION_1_2},
    {"SPV_KHR_vulkan_memory_model", "VK_KHR_vulkan_memory_model", VK_API_VERSION_1_2},
    {"SPV_KHR_float_controls", "VK_KHR_shader_float_controls", VK_API_VERSION_1_2},
    {"SPV_KHR_non_semantic_info", "VK_KHR_shader_non_semantic_info", VK_API_VERSION_1_3},
    {"SPV_EXT_shader_atomic_float_add", "VK_EXT_shader_atomic_float", 0},
};

/* Device extensions enabled when present and not core at the device's
 * version (what a SPIR-V extension above may need). */
static const char *const vk_device_exts[] = {
    "VK_KHR_shader_non_semantic_info",
    "VK_EXT_shader_atomic_float",
};

const char *const *vk_wanted_extensions(size_t *n) {
  *n = sizeof vk_device_exts / sizeof vk_device_exts[0];
  return vk_device_exts;
}

uint32_t vk_extension_core_version(const char *name) {
  for (size_t i = 0; i < sizeof vk_exts / sizeof vk_exts[0]; i++)
    if (strcmp(vk_exts[i].device, name) == 0)
      return vk_exts[i].core;
  return 0;
}

static int vk_check_capability(uint32_t cap, const struct vk_features *f, const char *device,
                               const char *module, struct rt_err *e) {
  for (size_t i = 0; i < sizeof vk_caps / sizeof vk_caps[0]; i++) {
    if (vk_caps[i].cap != cap)
      continue;
    int ok = 1;
    if (vk_caps[i].feature != NO_FEATURE)
      ok = *(const VkBool32 *)((const char *)f + vk_caps[i].feature) != VK_FALSE;
    else if (vk_caps[i].subgroup_ops)
      ok = (f->subgroup_ops & vk_caps[i].subgroup_ops) == vk_caps[i].subgroup_ops;
    if (ok)
      return 0;
    return rt_fail_msg(e, "the Vulkan device '%s' lacks %s, which SPIR-V capability %s of %s "
                          "needs",
                       device, vk_caps[i].needs, vk_caps[i].name, module);
  }
  return rt_fail_msg(e, "%s declares SPIR-V capability %u, which gpucc's Vulkan "
                        "backend does not know how to check on device '%s'",
                     module, (unsigned)cap, device);
}

static int vk_check_extension(const char *ext, const struct vk_features *f, const char *device,
                              const char *module, struct rt_err *e) {
  for (size_t i = 0; i < sizeof vk_exts / sizeof vk_exts[0]; i++) {
    if (strcmp(vk_exts[i].spirv, ext) != 0)
      continue;
    if (vk_exts[i].core && f->api >= vk_exts[i].core)
      return 0;
    for (size_t k = 0; k < sizeof vk_device_exts / sizeof vk_device_exts[0]; k++)
      if ((f->extensions >> k & 1) && strcmp(vk_device_exts[k], vk_exts[i].device) == 0)
        return 0;
    return rt_fail_msg(e, "the Vulkan device '%s' lacks %s, which SPIR-V extension %s of %s "
                          "needs",
                       device, vk_exts[i].device, ext, module);
  }
  return rt_fail_msg(e, "%s declares SPIR-V extension %s, which gpucc's Vulkan "
                        "backend does not know how to check on device '%s'",
                     module, ext, device);
}

int vk_check_module_needs(const struct spirv_module *m, const struct vk_features *f,
                          const char *device, const char *module, struct rt_err *e) {
  for (size_t i = 0; i < m->ncaps; i++)
    if (vk_check_capability(m->caps[i], f, device, module, e) != 0)
      return -1;
  for (size_t i = 0; i < m->nexts; i++)
    if (vk_check_extension(m->exts[i], f, device, module, e) != 0)
      return -1;
  return 0;
}
