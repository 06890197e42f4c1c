/* image.h: recognizing the device images that mgpuModuleLoad receives. */
#ifndef GPUCC_RT_IMAGE_H
#define GPUCC_RT_IMAGE_H

#include <stddef.h>

#include "fatbin.h"

enum rt_image_kind {
  RT_IMAGE_UNKNOWN,
  RT_IMAGE_GPUCC,          /* gpucc fat binary: select an entry */
  RT_IMAGE_CUBIN,          /* NVIDIA ELF */
  RT_IMAGE_CUDA_FATBIN,    /* NVIDIA fatbinary (upstream format=fatbin) */
  RT_IMAGE_PTX,            /* text, maybe without its NUL */
  RT_IMAGE_HSACO,          /* AMD ELF code object */
  RT_IMAGE_OFFLOAD_BUNDLE, /* clang offload bundle (HIP loads these) */
  RT_IMAGE_BITCODE,        /* LLVM bitcode: no driver loads it */
};

/* Looks at the first bytes of data (size bytes long). */
enum rt_image_kind rt_image_classify(const void *data, size_t size);
/* Vendor whose driver loads a plain image of this kind (NVIDIA for unknown
 * kinds, which are tried on whatever device there is). */
enum fatbin_vendor rt_image_vendor(enum rt_image_kind k);
/* "cubin", "AMD code object", ... for messages. */
const char *rt_image_kind_name(enum rt_image_kind k);

#endif
