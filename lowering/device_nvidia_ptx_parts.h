/* device_nvidia_ptx_parts.h: one gpu.module's PTX in parts that ptxas
 * compiles apart, in parallel (ptxas -c), and nvlink joins into the one
 * cubin the module ships as (device_nvidia_ptx_parts.c). Plain C, no MLIR:
 * tests link it alone. */
#ifndef GPUCC_DEVICE_NVIDIA_PTX_PARTS_H
#define GPUCC_DEVICE_NVIDIA_PTX_PARTS_H

#include <stddef.h>

/* Splits `ptx` (size bytes, LLVM's NVPTX output) into n parts: each has
 * the header (.version, .target, .address_size), every other top-level
 * item but the kernels (functions, prototypes, constants, externs, .file
 * directives), and its share of the kernels (.entry), a contiguous run of
 * them, everything in the original order. Only what each part may hold a
 * copy of is copied: PTX with module-scope .global variables (state the
 * kernels may share), anything .visible, .weak or .common but kernels
 * (nvlink would see it twice), DWARF .section blocks, or items it cannot
 * read keeps everything in part 0, and the other parts get the header
 * alone (ptxas makes an empty object of it). parts[i] is malloc'ed and
 * NUL-terminated, sizes[i] its length. Returns how many parts got
 * kernels. */
size_t nvidia_ptx_parts(const char *ptx, size_t size, size_t n, char **parts, size_t *sizes);

#endif
