/* fatbin_vulkan.c: the vulkan row of the vendor table: SPIR-V modules for
 * Vulkan compute in gpucc's kernel ABI (runtime/README.md, "The Vulkan
 * backend"), target "spirv".
 *
 * The check reads the module as a stream of words and nothing more: the
 * magic (little-endian, as gpucc writes it), a whole number of words, a
 * version gpucc's runtime can hand to a Vulkan driver (1.0 to 1.6), an id
 * bound, and an instruction stream that ends exactly at the end of the
 * object, no instruction with a word count of 0 or running past it. That is
 * what keeps a truncated or mislabelled object from reaching a driver,
 * which would read past its end; whether the module is valid SPIR-V is
 * spirv-val's business (the tests run it).
 *
 * `gpucc-fatbin list` shows a module's OpCapability list (fatbin_spirv_notes,
 * through fatbin_notes.c): what a device must offer to run it. */
#include <stdio.h>
#include <string.h>

#include "fatbin_private.h"

#define SPIRV_MAGIC 0x07230203u
#define SPIRV_HEADER_WORDS 5
#define SPIRV_OP_CAPABILITY 17

/* The module's header words; 0 when it passes, else -1 with err set. */
static int spirv_check_header(const struct fatbin_entry *e, const unsigned char *d, size_t size,
                              char *err, size_t errlen) {
  if (size < SPIRV_HEADER_WORDS * 4 || fatbin_le32(d) != SPIRV_MAGIC)
    return fatbin_error(err, errlen, "fatbin: %s spirv of module '%s' is not a SPIR-V module",
                        e->target, e->module);
  if (size % 4 != 0)
    return fatbin_error(err, errlen,
                        "fatbin: %s spirv of module '%s' is %zu bytes, not a whole number of "
                        "words",
                        e->target, e->module, size);
  uint32_t version = fatbin_le32(d + 4);
  unsigned major = version >> 16 & 0xff, minor = version >> 8 & 0xff;
  if ((version & 0xff0000ffu) != 0 || major != 1 || minor > 6)
    return fatbin_error(err, errlen,
                        "fatbin: %s spirv of module '%s' has SPIR-V version 0x%08x, not 1.0 to 1.6",
                        e->target, e->module, (unsigned)version);
  if (fatbin_le32(d + 12) == 0)
    return fatbin_error(err, errlen, "fatbin: %s spirv of module '%s' has an id bound of 0",
                        e->target, e->module);
  return 0;
}

/* Walks the instructions: each word count at least 1 and within the
 * module, the last one ending at its end. */
static int spirv_check_stream(const struct fatbin_entry *e, const unsigned char *d, size_t size,
                              char *err, size_t errlen) {
  size_t words = size / 4;
  for (size_t at = SPIRV_HEADER_WORDS; at < words;) {
    uint32_t head = fatbin_le32(d + 4 * at);
    size_t count = head >> 16;
    if (count == 0)
      return fatbin_error(err, errlen,
                          "fatbin: %s spirv of module '%s': instruction at word %zu (opcode %u) "
                          "has a word count of 0",
                          e->target, e->module, at, (unsigned)(head & 0xffff));
    if (count > words - at)
      return fatbin_error(err, errlen,
                          "fatbin: %s spirv of module '%s': instruction at word %zu (opcode %u) "
                          "runs past the end of the module",
                          e->target, e->module, at, (unsigned)(head & 0xffff));
    at += count;
  }
  return 0;
}

static int fatbin_check_spirv(const struct fatbin_entry *e, const unsigned char *d, size_t size,
                              const struct fatbin_ehdr *h, char *err, size_t errlen) {
  (void)h;
  if (strcmp(e->target, "spirv") != 0 && strncmp(e->target, "spirv:", 6) != 0)
    return fatbin_error(err, errlen, "fatbin: spirv object of module '%s' has target '%s', not "
                        "spirv", e->module, e->target);
  if (spirv_check_header(e, d, size, err, errlen) != 0)
    return -1;
  return spirv_check_stream(e, d, size, err, errlen);
}

/* SPIR-V's capability numbers (the specification's table), for names. */
static const struct {
  uint32_t id;
  const char *name;
} spirv_capabilities[] = {
    {0, "Matrix"},
    {1, "Shader"},
    {4, "Addresses"},
    {5, "Linkage"},
    {6, "Kernel"},
    {9, "Float16"},
    {10, "Float64"},
    {11, "Int64"},
    {12, "Int64Atomics"},
    {22, "Int16"},
    {39, "Int8"},
    {61, "GroupNonUniform"},
    {62, "GroupNonUniformVote"},
    {63, "GroupNonUniformArithmetic"},
    {64, "GroupNonUniformBallot"},
    {65, "GroupNonUniformShuffle"},
    {66, "GroupNonUniformShuffleRelative"},
    {67, "GroupNonUniformClustered"},
    {68, "GroupNonUniformQuad"},
    {4433, "StorageBuffer16BitAccess"},
    {4434, "UniformAndStorageBuffer16BitAccess"},
    {4435, "StoragePushConstant16"},
    {4441, "VariablePointersStorageBuffer"},
    {4442, "VariablePointers"},
    {4448, "StorageBuffer8BitAccess"},
    {4449, "UniformAndStorageBuffer8BitAccess"},
    {4450, "StoragePushConstant8"},
    {4464, "DenormPreserve"},
    {4465, "DenormFlushToZero"},
    {4466, "SignedZeroInfNanPreserve"},
    {4467, "RoundingModeRTE"},
    {4468, "RoundingModeRTZ"},
    {5055, "ShaderClockKHR"},
    {5345, "VulkanMemoryModel"},
    {5346, "VulkanMemoryModelDeviceScope"},
    {5347, "PhysicalStorageBufferAddresses"},
    {5612, "AtomicFloat32MinMaxEXT"},
    {6019, "DotProduct"},
    {6033, "AtomicFloat32AddEXT"},
    {6034, "AtomicFloat64AddEXT"},
};

void fatbin_spirv_notes(const unsigned char *d, size_t size, char *buf, size_t len) {
  if (!len)
    return;
  buf[0] = '\0';
  size_t used = 0, words = size / 4;
  if (size < SPIRV_HEADER_WORDS * 4 || fatbin_le32(d) != SPIRV_MAGIC)
    return;
  for (size_t at = SPIRV_HEADER_WORDS; at < words;) {
    uint32_t head = fatbin_le32(d + 4 * at);
    size_t count = head >> 16;
    if (count == 0 || count > words - at)
      return;
    if ((head & 0xffff) == SPIRV_OP_CAPABILITY && count == 2) {
      uint32_t id = fatbin_le32(d + 4 * (at + 1));
      const char *name = NULL;
      for (size_t i = 0; i < sizeof spirv_capabilities / sizeof spirv_capabilities[0]; i++)
        if (spirv_capabilities[i].id == id)
          name = spirv_capabilities[i].name;
      int n = name ? snprintf(buf + used, len - used, "%s%s", used ? "," : "caps: ", name)
                   : snprintf(buf + used, len - used, "%s%u", used ? "," : "caps: ",
                              (unsigned)id);
      if (n < 0 || (size_t)n >= len - used)
        return; /* truncated: what fits is shown */
      used += (size_t)n;
    }
    at += count;
  }
}

static const struct fatbin_format_row fatbin_vulkan_formats[] = {
    {FATBIN_FORMAT_SPIRV, "spirv", 0, NULL, 0, fatbin_check_spirv},
};

const struct fatbin_vendor_row fatbin_vendor_vulkan = {
    FATBIN_VENDOR_VULKAN, "vulkan", fatbin_vulkan_formats,
    sizeof fatbin_vulkan_formats / sizeof fatbin_vulkan_formats[0]};
