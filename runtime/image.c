/* image.c: telling what kind of device image mgpuModuleLoad was given.
 *
 * gpucc embeds its own fat binaries, but the runtime also serves programs
 * built by upstream's mlir-translate, which embed one plain object: a cubin,
 * a CUDA fatbin, PTX text, an AMD code object or a clang offload bundle. Those
 * go to the driver as they are, once we know which vendor they are for (so a
 * cubin on an AMD machine gets a clear message instead of a driver error
 * code), and PTX gets the NUL terminator the CUDA driver needs. LLVM bitcode
 * (gpu-module-to-binary format=offload) cannot be loaded by any driver. */
#include <stdint.h>
#include <string.h>

#include "image.h"

#define RT_ELF_MACHINE_CUDA 190   /* EM_CUDA */
#define RT_ELF_MACHINE_AMDGPU 224 /* EM_AMDGPU */

static int rt_starts_with(const unsigned char *d, size_t size, const char *magic,
                          size_t n) {
  return size >= n && memcmp(d, magic, n) == 0;
}

/* PTX as emitted by LLVM starts with comments and directives and declares its
 * .target early; look for that in the first few KiB. */
static int rt_looks_like_ptx(const unsigned char *d, size_t size) {
  size_t i = 0;
  while (i < size && (d[i] == ' ' || d[i] == '\t' || d[i] == '\n' || d[i] == '\r'))
    i++;
  if (i == size || (d[i] != '/' && d[i] != '.'))
    return 0;
  size_t limit = size < 8192 ? size : 8192;
  static const char needle[] = ".target";
  for (size_t j = i; j + sizeof needle - 1 <= limit; j++)
    if (memcmp(d + j, needle, sizeof needle - 1) == 0)
      return 1;
  return 0;
}

enum rt_image_kind rt_image_classify(const void *data, size_t size) {
  const unsigned char *d = data;
  if (!d || size == 0)
    return RT_IMAGE_UNKNOWN;
  if (fatbin_is_blob(d, size))
    return RT_IMAGE_GPUCC;
  if (rt_starts_with(d, size, "\x7f" "ELF", 4) && size >= 20) {
    unsigned machine = d[18] | (unsigned)d[19] << 8; /* e_machine, little-endian */
    if (machine == RT_ELF_MACHINE_CUDA)
      return RT_IMAGE_CUBIN;
    if (machine == RT_ELF_MACHINE_AMDGPU)
      return RT_IMAGE_HSACO;
    return RT_IMAGE_UNKNOWN;
  }
  if (rt_starts_with(d, size, "\x50\xed\x55\xba", 4)) /* 0xba55ed50 */
    return RT_IMAGE_CUDA_FATBIN;
  if (rt_starts_with(d, size, "__CLANG_OFFLOAD_BUNDLE__", 24))
    return RT_IMAGE_OFFLOAD_BUNDLE;
  if (rt_starts_with(d, size, "BC\xc0\xde", 4))
    return RT_IMAGE_BITCODE;
  if (rt_looks_like_ptx(d, size))
    return RT_IMAGE_PTX;
  return RT_IMAGE_UNKNOWN;
}

enum fatbin_vendor rt_image_vendor(enum rt_image_kind k) {
  switch (k) {
  case RT_IMAGE_HSACO:
  case RT_IMAGE_OFFLOAD_BUNDLE:
    return FATBIN_VENDOR_AMD;
  default:
    return FATBIN_VENDOR_NVIDIA;
  }
}

const char *rt_image_kind_name(enum rt_image_kind k) {
  switch (k) {
  case RT_IMAGE_GPUCC:
    return "gpucc fat binary";
  case RT_IMAGE_CUBIN:
    return "cubin";
  case RT_IMAGE_CUDA_FATBIN:
    return "CUDA fatbin";
  case RT_IMAGE_PTX:
    return "PTX";
  case RT_IMAGE_HSACO:
    return "AMD code object";
  case RT_IMAGE_OFFLOAD_BUNDLE:
    return "clang offload bundle";
  case RT_IMAGE_BITCODE:
    return "LLVM bitcode";
  case RT_IMAGE_UNKNOWN:
    break;
  }
  return "unrecognized image";
}
