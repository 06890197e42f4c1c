/* fatbin_common.c: the small pieces the writer, the reader and the ELF
 * scanner share: the fixed 24-byte blob header, the rule for names, a
 * growable byte buffer, and the error helper.
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

/* Whether a ustar header can hold path: in its 100-byte name field, or
 * split at a '/' into a prefix of at most 155 bytes and a non-empty name of
 * at most 100 (the rule libarchive's ustar writer follows). */
static int fatbin_ustar_fits(const char *path) {
  size_t len = strlen(path);
  if (len <= 100)
    return 1;
  for (const char *p = strchr(path, '/'); p; p = strchr(p + 1, '/')) {
    size_t prefix = (size_t)(p - path), rest = len - prefix - 1;
    if (prefix <= 155 && rest > 0 && rest <= 100)
      return 1;
  }
  return 0;
}

char *fatbin_member_path(const struct fatbin_entry *e) {
  const char *fmt = fatbin_format_name(e->format);
  size_t n = strlen(e->module) + strlen(e->target) + strlen(fmt) + 3;
  char *s = malloc(n);
  if (!s)
    return NULL;
  snprintf(s, n, "%s/%s.%s", e->module, e->target, fmt);
  if (fatbin_ustar_fits(s))
    return s;
  /* Too long for ustar (a module name over 155 bytes, say): the member gets
   * a short name derived from the long one, and the manifest's file= field
   * is what ties it to its module and target. Readers only ever look
   * members up by file=, so every reader, older ones included, reads it;
   * no pax or GNU extension header is needed, which the reader refuses. */
  unsigned char sum[FATBIN_SHA256_SIZE];
  char hex[2 * FATBIN_SHA256_SIZE + 1];
  fatbin_sha256(s, strlen(s), sum);
  fatbin_sha256_hex(sum, hex);
  free(s);
  n = sizeof FATBIN_LONG_NAME_DIR + sizeof hex + strlen(fmt) + 2;
  s = malloc(n);
  if (s)
    snprintf(s, n, FATBIN_LONG_NAME_DIR "/%s.%s", hex, fmt);
  return s;
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
