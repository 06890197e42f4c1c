/* device_spirv_patch.c: the one decoration MLIR's SPIR-V serializer
 * drops: BuiltIn WorkgroupSize on the composite of the workgroup-size
 * specialization constants (device_spirv_wgsize.c), without which Vulkan
 * has no size for the entry points. Four words, added to the serialized
 * module after the SpecId decorations, by walking its instructions; and
 * the header's version, 1.3. */
#include "device_spirv.h"

#include "diag.h"

#include <stdlib.h>
#include <string.h>

#define SPIRV_MAGIC 0x07230203u
#define OP_SPEC_CONSTANT_COMPOSITE 51u
#define OP_DECORATE 71u
#define DECORATION_SPEC_ID 1u
#define DECORATION_BUILTIN 11u
#define BUILTIN_WORKGROUP_SIZE 25u
#define HEADER_WORDS 5
#define SPIRV_VERSION_1_3 0x00010300u

uint32_t *spirv_patch_workgroup_size(const uint32_t *w, size_t *nwords) {
  size_t n = *nwords;
  if (n < HEADER_WORDS || w[0] != SPIRV_MAGIC) {
    diag_error("internal: the serialized SPIR-V module has no SPIR-V header");
    return NULL;
  }
  uint32_t spec[3] = {0, 0, 0};
  size_t after_spec = 0, composite_id = 0;
  for (size_t at = HEADER_WORDS; at < n;) {
    uint32_t count = w[at] >> 16, opcode = w[at] & 0xffffu;
    if (count == 0 || count > n - at) {
      diag_error("internal: the serialized SPIR-V module has a malformed instruction at word %zu", at);
      return NULL;
    }
    if (opcode == OP_DECORATE && count == 4 && w[at + 2] == DECORATION_SPEC_ID && w[at + 3] < 3) {
      spec[w[at + 3]] = w[at + 1];
      after_spec = at + count;
    }
    if (opcode == OP_DECORATE && count >= 4 && w[at + 2] == DECORATION_BUILTIN &&
        w[at + 3] == BUILTIN_WORKGROUP_SIZE)
      composite_id = (size_t)-1; /* already decorated */
    if (opcode == OP_SPEC_CONSTANT_COMPOSITE && count == 6 && composite_id == 0 && spec[0] &&
        w[at + 3] == spec[0] && w[at + 4] == spec[1] && w[at + 5] == spec[2])
      composite_id = w[at + 2];
    at += count;
  }
  /* spirv-update-vce lowers the header to the least version the module
   * needs (1.0); gpucc's runtime contract says 1.3, which Vulkan 1.1 and
   * later take, and which the module's entry points were written for. */
  uint32_t version = w[1] < SPIRV_VERSION_1_3 ? SPIRV_VERSION_1_3 : w[1];
  int patch = composite_id != 0 && composite_id != (size_t)-1 && after_spec != 0;
  uint32_t *out = malloc((n + 4) * sizeof *out);
  if (!out)
    BUG("out of memory");
  if (!patch) {
    memcpy(out, w, n * sizeof *out);
    out[1] = version;
    return out;
  }
  memcpy(out, w, after_spec * sizeof *out);
  out[after_spec] = (4u << 16) | OP_DECORATE;
  out[after_spec + 1] = (uint32_t)composite_id;
  out[after_spec + 2] = DECORATION_BUILTIN;
  out[after_spec + 3] = BUILTIN_WORKGROUP_SIZE;
  memcpy(out + after_spec + 4, w + after_spec, (n - after_spec) * sizeof *out);
  out[1] = version;
  *nwords = n + 4;
  return out;
}
