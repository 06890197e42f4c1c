/* fatbin_member_path.c: the name an object's tar member gets in an
 * archive, which the writer (fatbin_write.c) gives it and the manifest
 * (fatbin_manifest.c) records in its file= field. Apart from
 * fatbin_common.c because it reads the vendor table (the format's name)
 * while the rows themselves build on fatbin_common.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fatbin_private.h"

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
