/* fatbin_common.c: the pieces the writer, the reader and the ELF scanner
 * share: reading the fixed 24-byte blob header, and the error helper.
 *
 * The header is decoded byte by byte because blobs sit at arbitrary addresses
 * (inside a mapped executable, inside a section) and are little-endian on
 * every host. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "fatbin_private.h"

int fatbin_error(char *err, size_t errlen, const char *fmt, ...) {
  if (err && errlen > 0) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
  }
  return -1;
}

int fatbin_read_header(const void *data, size_t size, uint32_t *version,
                       uint64_t *tar_size) {
  const unsigned char *p = data;
  if (!p || size < FATBIN_HEADER_SIZE ||
      memcmp(p, FATBIN_MAGIC, FATBIN_MAGIC_SIZE) != 0)
    return 0;
  *version = fatbin_le32(p + 8);
  *tar_size = fatbin_le64(p + 16);
  return 1;
}

int fatbin_is_blob(const void *data, size_t size) {
  uint32_t version;
  uint64_t tar_size;
  return fatbin_read_header(data, size, &version, &tar_size) &&
         version == FATBIN_VERSION;
}
