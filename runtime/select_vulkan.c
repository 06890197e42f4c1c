/* select_vulkan.c: which object runs on a Vulkan device (the Vulkan
 * backend's struct rt_selection). Any Vulkan device runs a vulkan-vendor
 * SPIR-V module of target "spirv" (gpucc's kernel ABI: runtime/README.md,
 * "The Vulkan backend"): the module's capabilities are checked against the
 * device when it is loaded, not here, so there is one candidate per module
 * and nothing to rank. A "spirv:<profile>" target, should the compiler
 * write several, ranks below the plain one, which needs the least. */
#include "select_vulkan.h"

#include <stdio.h>
#include <string.h>

static struct rt_score vulkan_score(const struct fatbin_entry *e, const struct rt_device *dev) {
  (void)dev;
  if (e->format != FATBIN_FORMAT_SPIRV)
    return (struct rt_score){0, 0, 0};
  if (strcmp(e->target, "spirv") == 0)
    return (struct rt_score){2, 0, 0};
  return (struct rt_score){strncmp(e->target, "spirv:", 6) == 0, 0, 0};
}

static void vulkan_explain(const struct fatbin_entry *e, const struct rt_device *dev,
                           struct rt_score s, char *why, size_t whylen) {
  (void)s;
  snprintf(why, whylen, "%s SPIR-V module, for the Vulkan device '%s'", e->target, dev->name);
}

/* What upstream's gpu-module-to-binary writes for a SPIR-V target: the
 * module itself (its magic, little-endian). Its kernels bind descriptor
 * sets, which this backend refuses with a message when it loads one. */
static const struct rt_plain_image vulkan_images[] = {
    {"SPIR-V module", 0, "\x03\x02\x23\x07", 4, NULL, 0},
};

const struct rt_selection rt_selection_vulkan = {
    .vendor = FATBIN_VENDOR_VULKAN,
    .vendor_label = "Vulkan",
    .score = vulkan_score,
    .explain = vulkan_explain,
    .images = vulkan_images,
    .nimages = sizeof vulkan_images / sizeof vulkan_images[0],
};
