/* backend_vulkan.c: the Vulkan backend's row: any Vulkan 1.2 device runs
 * the program's SPIR-V modules (gpucc's kernel ABI; runtime/README.md, "The
 * Vulkan backend"). Its operations are in vulkan_*.c (vulkan_rt.h lists
 * them); this file is its probe and its row.
 *
 * When it is tried. In the automatic order (after CUDA and HIP, before the
 * host CPU) the probe first asks whether the program carries a SPIR-V
 * module at all (the images loaded so far: compiled programs load theirs
 * from global constructors, before main), and declines quietly when not,
 * without loading libvulkan: a program built without the spirv target
 * must never end up here, and need not pay for starting a Vulkan instance.
 * It leaves `why` empty then, so the "no GPU found" message does not list
 * a backend the program has nothing for. Then a CPU device (lavapipe) is
 * declined too, unless GPUCC_BACKEND=vulkan asks for this backend
 * (vulkan_device.c says why). */
#include <stdlib.h>
#include <string.h>

#include "registry.h"
#include "select_vulkan.h"
#include "vulkan_rt.h"

static const char vk_name[] = "vulkan";

/* rt_modules_each_image's callback: 1 when the image holds SPIR-V. What
 * the image is comes from the registry (module.c classified it on load). */
static int vk_image_has_spirv(const struct rt_registered *r, void *ud) {
  (void)ud;
  if (r->size == 0)
    return 0; /* assembly text for a JIT */
  if (r->im.kind == RT_IMAGE_PLAIN)
    return r->im.select == &rt_selection_vulkan;
  struct fatbin *fb;
  char err[256];
  if (r->im.kind != RT_IMAGE_GPUCC || fatbin_open(r->image, r->size, &fb, err, sizeof err) != 0)
    return 0;
  int found = 0;
  for (size_t i = 0; i < fatbin_count(fb) && !found; i++)
    found = fatbin_get(fb, i)->vendor == FATBIN_VENDOR_VULKAN;
  fatbin_close(fb);
  return found;
}

static int vk_probe(int ordinal, struct rt_device *dev, char *why, size_t whylen) {
  const char *backend = getenv("GPUCC_BACKEND");
  int forced = backend && strcmp(backend, vk_name) == 0;
  if (!forced && !rt_modules_each_image(vk_image_has_spirv, NULL)) {
    rt_log("vulkan: the program carries no SPIR-V: not looked for");
    if (whylen)
      why[0] = '\0';
    return -1;
  }
  if (vk_load_library(why, whylen) != 0)
    return -1;
  if (vk_device_open(ordinal, forced, dev, why, whylen) != 0) {
    vk_unload_library();
    return -1;
  }
  return 0;
}

static const char *vk_error_name(int code) { return vk_result_name(code); }

static int vk_host_register(void *ptr, size_t bytes, struct rt_err *e) {
  (void)ptr;
  (void)bytes;
  return rt_fail_msg(e, "the Vulkan backend cannot register host memory for the device "
                        "(gpu.host_register); copy it into gpu.alloc memory");
}

static int vk_host_unregister(void *ptr, struct rt_err *e) {
  (void)ptr;
  return rt_fail_msg(e, "the Vulkan backend never registers host memory");
}

static int vk_host_device_pointer(void *host, void **device, struct rt_err *e) {
  (void)host;
  (void)device;
  return rt_fail_msg(e, "the Vulkan backend cannot give host memory a device address");
}

const struct rt_backend rt_backend_vulkan = {
    .name = vk_name,
    .label = "Vulkan",
    .select = &rt_selection_vulkan,
    .probe = vk_probe,
    .error_name = vk_error_name,
    .module_load = vk_module_load,
    .module_unload = vk_module_unload,
    .module_function = vk_module_function,
    .function_limits = vk_function_limits,
    .function_module = vk_function_module,
    .launch = vk_launch,
    .stream_create = vk_stream_create,
    .stream_destroy = vk_stream_destroy,
    .stream_synchronize = vk_stream_synchronize,
    .stream_wait_event = vk_stream_wait_event,
    .event_create = vk_event_create,
    .event_destroy = vk_event_destroy,
    .event_synchronize = vk_event_synchronize,
    .event_record = vk_event_record,
    .mem_alloc = vk_mem_alloc,
    .mem_free = vk_mem_free,
    .mem_copy = vk_mem_copy,
    .mem_set32 = vk_mem_set32,
    .mem_set16 = vk_mem_set16,
    .host_register = vk_host_register,
    .host_unregister = vk_host_unregister,
    .host_device_pointer = vk_host_device_pointer,
};
