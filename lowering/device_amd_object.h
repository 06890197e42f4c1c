/* device_amd_object.h: an hsaco from optimized bitcode (target_amd.c). */
#ifndef GPUCC_DEVICE_AMD_OBJECT_H
#define GPUCC_DEVICE_AMD_OBJECT_H

#include <stddef.h>

/* Generates the object of chip (with its LLVM feature string) at -O<opt>
 * from an optimized module's bitcode, straight from LLVM's code generator,
 * and links it with ld_lld into the shared object (hsaco) at out_path.
 * Returns 0 or -1 (reported). */
int lowering_amd_hsaco(const char *bitcode, size_t size, const char *chip, const char *features,
                       int opt, const char *ld_lld, const char *out_path);

#endif
