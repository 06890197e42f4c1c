/* image.h: recognizing the device images that mgpuModuleLoad receives. */
#ifndef GPUCC_RT_IMAGE_H
#define GPUCC_RT_IMAGE_H

#include <stddef.h>

#include "select.h"

enum rt_image_kind {
  RT_IMAGE_UNKNOWN,
  RT_IMAGE_GPUCC,   /* gpucc fat binary: select an entry */
  RT_IMAGE_PLAIN,   /* one object a backend's driver loads as it is */
  RT_IMAGE_BITCODE, /* LLVM bitcode: no driver loads it */
};

struct rt_image {
  enum rt_image_kind kind;
  /* RT_IMAGE_PLAIN: which object, and the rules of the backend whose
   * driver loads it (its vendor); NULL otherwise. */
  const struct rt_plain_image *plain;
  const struct rt_selection *select;
};

/* Looks at the first bytes of data (size bytes long). */
struct rt_image rt_image_classify(const void *data, size_t size);
/* "cubin", "AMD code object", "gpucc fat binary", ... for messages. */
const char *rt_image_name(const struct rt_image *im);
/* The name of the first backend's plain object that is text, for the
 * assembly mgpuModuleLoadJIT gets ("PTX"); "assembly" when none is. */
const char *rt_image_text_name(void);

#endif
