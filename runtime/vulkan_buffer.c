/* vulkan_buffer.c: a VkBuffer with memory of its own, of the first memory
 * type that fits a list of preferences, mapped when the host can see it;
 * and the staging buffers copies go through. Below both gpu.alloc memory
 * (vulkan_memory.c) and the streams that free staging buffers once the
 * operation using them has run (vulkan_stream.c). */
#include "vulkan_rt.h"

/* A memory type of `bits` with all of `want`; -1 when none. */
static int vk_memory_type(uint32_t bits, VkMemoryPropertyFlags want) {
  for (uint32_t i = 0; i < vkd.memory.memoryTypeCount; i++)
    if ((bits >> i & 1) && (vkd.memory.memoryTypes[i].propertyFlags & want) == want)
      return (int)i;
  return -1;
}

int vk_buffer_new(uint64_t size, VkBufferUsageFlags usage, int device_address,
                  const VkMemoryPropertyFlags *prefs, size_t nprefs, VkBuffer *buffer,
                  VkDeviceMemory *memory, void **map, struct rt_err *e) {
  VkBufferCreateInfo info = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
                             .size = size,
                             .usage = usage,
                             .sharingMode = VK_SHARING_MODE_EXCLUSIVE};
  VkResult r = vk.vkCreateBuffer(vkd.device, &info, NULL, buffer);
  if (r != VK_SUCCESS)
    return vk_fail(e, "vkCreateBuffer", r);
  VkMemoryRequirements req;
  vk.vkGetBufferMemoryRequirements(vkd.device, *buffer, &req);
  int type = -1;
  for (size_t i = 0; i < nprefs && type < 0; i++)
    type = vk_memory_type(req.memoryTypeBits, prefs[i]);
  if (type < 0) {
    vk.vkDestroyBuffer(vkd.device, *buffer, NULL);
    return rt_fail_msg(e, "the Vulkan device '%s' has no memory type for this buffer%s", vkd.name,
                       device_address ? "" : " that the host can map");
  }
  VkMemoryAllocateFlagsInfo flags = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO,
                                     .flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT};
  VkMemoryAllocateInfo alloc = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                                .pNext = device_address ? &flags : NULL,
                                .allocationSize = req.size,
                                .memoryTypeIndex = (uint32_t)type};
  const char *call = "vkAllocateMemory";
  *map = NULL;
  if ((r = vk.vkAllocateMemory(vkd.device, &alloc, NULL, memory)) == VK_SUCCESS) {
    call = "vkBindBufferMemory";
    r = vk.vkBindBufferMemory(vkd.device, *buffer, *memory, 0);
    if (r == VK_SUCCESS &&
        (vkd.memory.memoryTypes[type].propertyFlags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT)) {
      call = "vkMapMemory";
      r = vk.vkMapMemory(vkd.device, *memory, 0, VK_WHOLE_SIZE, 0, map);
    }
    if (r != VK_SUCCESS)
      vk.vkFreeMemory(vkd.device, *memory, NULL);
  }
  if (r != VK_SUCCESS) {
    vk.vkDestroyBuffer(vkd.device, *buffer, NULL);
    return vk_fail(e, call, r);
  }
  return 0;
}

int vk_staging_new(size_t size, struct vk_staging *s, struct rt_err *e) {
  static const VkMemoryPropertyFlags prefs[] = {VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                                VK_MEMORY_PROPERTY_HOST_COHERENT_BIT};
  return vk_buffer_new(size, VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                       0, prefs, 1, &s->buffer, &s->memory, &s->map, e);
}

void vk_staging_free(struct vk_staging *s) {
  vk.vkDestroyBuffer(vkd.device, s->buffer, NULL);
  vk.vkFreeMemory(vkd.device, s->memory, NULL); /* unmaps it */
}

