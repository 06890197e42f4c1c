/* fatbin_common.c: the small pieces the writer, the reader, the ELF
 * scanner and the vendor rows share: the fixed 24-byte blob header, the
 * rule for names, a growable byte buffer, and the error helper. They use
 * nothing else of the library, so that every other file, the rows among
 * them, may build on them (a member's path, which needs the vendor table's
 * format names, is in fatbin_member_path.c).
 *
 * The header is decoded byte by byte because blobs sit at arbitrary addresses
 * (inside a mapped executable, inside a section) and are little-endian on
 * every host. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
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

int fatbin_read_header(const void *data, size_t size, struct fatbin_header *h) {
  const unsigned char *p = data;
  if (!p || size < FATBIN_HEADER_SIZE ||
      memcmp(p, FATBIN_MAGIC, FATBIN_MAGIC_SIZE) != 0)
    return 0;
  h->version = fatbin_le32(p + 8);
  h->flags = fatbin_le32(p + 12);
  h->payload_size = fatbin_le64(p + 16);
  return 1;
}

int fatbin_version_known(uint32_t version) {
  return version >= FATBIN_VERSION_MIN && version <= FATBIN_VERSION;
}

int fatbin_is_blob(const void *data, size_t size) {
  struct fatbin_header h;
  return fatbin_read_header(data, size, &h) && fatbin_version_known(h.version);
}

int fatbin_name_ok(const char *s) {
  if (!s || !*s || strcmp(s, ".") == 0 || strcmp(s, "..") == 0)
    return 0;
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c <= ' ' || c >= 0x7f || c == '=' || c == '/')
      return 0;
  }
  return 1;
}

int fatbin_buf_reserve(struct fatbin_buf *b, size_t extra) {
  if (extra > SIZE_MAX - b->len)
    return -1;
  size_t need = b->len + extra;
  if (need <= b->cap)
    return 0;
  size_t ncap = b->cap ? b->cap : 4096;
  while (ncap < need) {
    if (ncap > SIZE_MAX / 2)
      return -1;
    ncap *= 2;
  }
  unsigned char *p = realloc(b->data, ncap);
  if (!p)
    return -1;
  b->data = p;
  b->cap = ncap;
  return 0;
}

int fatbin_buf_add(struct fatbin_buf *b, const void *data, size_t n) {
  if (fatbin_buf_reserve(b, n) != 0)
    return -1;
  if (n)
    memcpy(b->data + b->len, data, n);
  b->len += n;
  return 0;
}
