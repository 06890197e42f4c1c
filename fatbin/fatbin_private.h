/* fatbin_private.h: helpers shared by the fatbin sources, not part of the API.
 *
 * Everything here is little-endian byte access and error-message plumbing; the
 * library never prints, so each failure ends in fatbin_error, which fills the
 * caller's buffer and returns -1 so that call sites read `return fatbin_error(...)`. */
#ifndef GPUCC_FATBIN_PRIVATE_H
#define GPUCC_FATBIN_PRIVATE_H

#include <stddef.h>
#include <stdint.h>

#include "fatbin.h"

/* Formats a message into err (when err and errlen allow) and returns -1. */
int fatbin_error(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Byte-wise accessors: blobs and ELF images are little-endian whatever the host
 * is, and need not be aligned in memory. */
static inline uint16_t fatbin_le16(const unsigned char *p) {
  return (uint16_t)(p[0] | (unsigned)p[1] << 8);
}
static inline uint32_t fatbin_le32(const unsigned char *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
         (uint32_t)p[3] << 24;
}
static inline uint64_t fatbin_le64(const unsigned char *p) {
  return (uint64_t)fatbin_le32(p) | (uint64_t)fatbin_le32(p + 4) << 32;
}
static inline void fatbin_put_le32(unsigned char *p, uint32_t v) {
  for (int i = 0; i < 4; i++)
    p[i] = (unsigned char)(v >> (8 * i));
}
static inline void fatbin_put_le64(unsigned char *p, uint64_t v) {
  for (int i = 0; i < 8; i++)
    p[i] = (unsigned char)(v >> (8 * i));
}

/* Reads a blob header at data. Returns 1 with *version and *tar_size set when
 * the magic matches and size covers the header, 0 otherwise. Does not judge
 * the version: callers word that error themselves. */
int fatbin_read_header(const void *data, size_t size, uint32_t *version,
                       uint64_t *tar_size);

#endif
