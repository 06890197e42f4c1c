/* image.c: telling what kind of device image mgpuModuleLoad was given.
 *
 * gpucc embeds its own fat binaries, but the runtime also serves programs
 * built by upstream's mlir-translate, which embed one plain object: a cubin,
 * a CUDA fatbin, PTX text, an AMD code object or a clang offload bundle. Those
 * go to the driver as they are, once we know which vendor they are for (so a
 * cubin on an AMD machine gets a clear message instead of a driver error
 * code), and text (PTX) gets the NUL terminator the driver needs. Which
 * plain objects there are is the backends' (their rules' `images`, select.h):
 * this file asks each in turn. LLVM bitcode (gpu-module-to-binary
 * format=offload) cannot be loaded by any driver. */
#include <stdint.h>
#include <string.h>

#include "image.h"
#include "backend.h"

static int rt_starts_with(const unsigned char *d, size_t size, const char *magic,
                          size_t n) {
  return size >= n && memcmp(d, magic, n) == 0;
}

/* The first plain object of any backend that `match` accepts. */
static struct rt_image rt_find_plain(int (*match)(const struct rt_plain_image *p,
                                                  const unsigned char *d, size_t size,
                                                  unsigned machine),
                                     const unsigned char *d, size_t size, unsigned machine) {
  for (size_t i = 0; rt_backends[i]; i++) {
    const struct rt_selection *s = rt_backends[i]->select;
    for (size_t j = 0; j < s->nimages; j++)
      if (match(&s->images[j], d, size, machine))
        return (struct rt_image){RT_IMAGE_PLAIN, &s->images[j], s};
  }
  return (struct rt_image){RT_IMAGE_UNKNOWN, NULL, NULL};
}

static int rt_match_elf(const struct rt_plain_image *p, const unsigned char *d, size_t size,
                        unsigned machine) {
  (void)d;
  (void)size;
  return p->elf_machine && p->elf_machine == machine;
}

static int rt_match_magic(const struct rt_plain_image *p, const unsigned char *d, size_t size,
                          unsigned machine) {
  (void)machine;
  return !p->elf_machine && p->magic && rt_starts_with(d, size, p->magic, p->magic_size);
}

static int rt_match_content(const struct rt_plain_image *p, const unsigned char *d,
                            size_t size, unsigned machine) {
  (void)machine;
  return !p->elf_machine && !p->magic && p->looks_like && p->looks_like(d, size);
}

struct rt_image rt_image_classify(const void *data, size_t size) {
  const unsigned char *d = data;
  struct rt_image unknown = {RT_IMAGE_UNKNOWN, NULL, NULL};
  if (!d || size == 0)
    return unknown;
  if (fatbin_is_blob(d, size))
    return (struct rt_image){RT_IMAGE_GPUCC, NULL, NULL};
  /* An ELF file is whatever its machine says, or nothing we know. */
  if (rt_starts_with(d, size, "\x7f" "ELF", 4) && size >= 20) {
    unsigned machine = d[18] | (unsigned)d[19] << 8; /* e_machine, little-endian */
    return rt_find_plain(rt_match_elf, d, size, machine);
  }
  /* Magic numbers are certain, a look at the content a guess: magics
   * first, LLVM's among them. */
  struct rt_image im = rt_find_plain(rt_match_magic, d, size, 0);
  if (im.kind != RT_IMAGE_UNKNOWN)
    return im;
  if (rt_starts_with(d, size, "BC\xc0\xde", 4))
    return (struct rt_image){RT_IMAGE_BITCODE, NULL, NULL};
  return rt_find_plain(rt_match_content, d, size, 0);
}

const char *rt_image_text_name(void) {
  for (size_t i = 0; rt_backends[i]; i++) {
    const struct rt_selection *s = rt_backends[i]->select;
    for (size_t j = 0; j < s->nimages; j++)
      if (s->images[j].text)
        return s->images[j].name;
  }
  return "assembly";
}

const char *rt_image_name(const struct rt_image *im) {
  switch (im->kind) {
  case RT_IMAGE_GPUCC:
    return "gpucc fat binary";
  case RT_IMAGE_PLAIN:
    return im->plain->name;
  case RT_IMAGE_BITCODE:
    return "LLVM bitcode";
  case RT_IMAGE_UNKNOWN:
    break;
  }
  return "unrecognized image";
}
