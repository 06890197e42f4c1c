/* runner_alloc.c: mlirAlloc and friends, C-library allocation under the
 * names upstream's runner library gives it.
 *
 * They are plain malloc, aligned_alloc and free, as upstream's are on Linux;
 * what the C library requires of the arguments (aligned_alloc: a power-of-two
 * alignment) is required here too. */
#include <stdlib.h>

#include "runner.h"

RT_EXPORT void *mlirAlloc(uint64_t size) { return malloc(size); }

RT_EXPORT void *mlirAlignedAlloc(uint64_t alignment, uint64_t size) {
  return aligned_alloc(alignment, size);
}

RT_EXPORT void mlirFree(void *ptr) { free(ptr); }

RT_EXPORT void mlirAlignedFree(void *ptr) { free(ptr); }
