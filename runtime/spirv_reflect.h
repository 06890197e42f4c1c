/* spirv_reflect.h: what a SPIR-V module declares, as the Vulkan backend
 * needs it: its capabilities and extensions (checked against the device),
 * and for each GLCompute entry point its name, its fixed workgroup size if
 * it has one, and the layout of its push-constant block, which is how
 * gpucc's kernel ABI passes parameters (runtime/README.md, "The Vulkan
 * backend").
 *
 * Pure: no Vulkan, no globals. The bytes are never trusted: every word
 * read is bounds-checked and a malformed module is an error, not a crash. */
#ifndef GPUCC_RT_SPIRV_REFLECT_H
#define GPUCC_RT_SPIRV_REFLECT_H

#include <stddef.h>
#include <stdint.h>

/* One kernel parameter: a member of the push-constant block. */
struct spirv_param {
  uint32_t offset, size; /* bytes */
  int pointer;           /* a PhysicalStorageBuffer pointer (a gpu.alloc address) */
};

struct spirv_entry {
  char *name;
  uint32_t function;    /* its OpFunction's id */
  uint32_t local[3];    /* ExecutionMode LocalSize, or zeros (spec constants 0, 1, 2) */
  struct spirv_param *params;
  size_t nparams;
  uint32_t push_size;   /* bytes of its push-constant block; 0 without one */
};

struct spirv_module {
  uint32_t version;     /* header word: 0x00010300 for SPIR-V 1.3 */
  uint32_t *caps;
  size_t ncaps;
  char **exts;
  size_t nexts;
  struct spirv_entry *entries;
  size_t nentries;
  int descriptors;      /* some variable has a DescriptorSet or Binding */
};

/* Reads size bytes of a SPIR-V module into m (zeroed by the caller; free it
 * with spirv_module_free even on failure). Returns 0, or -1 with the first
 * problem in err ("entry point 'k': push-constant member 2 has no Offset"). */
int spirv_reflect(const void *data, size_t size, struct spirv_module *m, char *err,
                  size_t errlen);
void spirv_module_free(struct spirv_module *m);
/* The entry point called name, or NULL. */
const struct spirv_entry *spirv_find_entry(const struct spirv_module *m, const char *name);

#endif
