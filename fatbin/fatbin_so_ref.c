/* fatbin_so_ref.c: the host target's library references (SO_REF).
 *
 * The host kernels of every gpu.module of a program are linked into one
 * shared object, carried once (SO_LIB); each module's archive names it by
 * hash and says which symbol prefix is its own. The driver writes these
 * references, the lowering names the symbols, the runtime reads them: all
 * through here, so that the three agree. */
#include <stdio.h>
#include <string.h>

#include "fatbin_private.h"

void fatbin_so_ref_prefix(size_t module, char *buf, size_t size) {
  snprintf(buf, size, "__gpucc_m%zu.", module);
}

size_t fatbin_so_ref_write(const unsigned char lib_sha256[FATBIN_SHA256_SIZE], const char *prefix,
                           char buf[FATBIN_SO_REF_MAX_SIZE + 1]) {
  char hex[2 * FATBIN_SHA256_SIZE + 1];
  fatbin_sha256_hex(lib_sha256, hex);
  int n = snprintf(buf, FATBIN_SO_REF_MAX_SIZE + 1, "%s %.*s\n", hex, FATBIN_SO_REF_MAX_PREFIX,
                   prefix);
  return n < 0 ? 0 : (size_t)n;
}

int fatbin_so_ref_read(const void *data, size_t size, unsigned char lib_sha256[FATBIN_SHA256_SIZE],
                       char prefix[FATBIN_SO_REF_MAX_PREFIX + 1]) {
  struct fatbin_entry e = {.module = "?", .vendor = FATBIN_VENDOR_HOST, .target = "host",
                           .format = FATBIN_FORMAT_SO_REF};
  if (fatbin_check_object(&e, data, size, NULL, 0) != 0)
    return -1;
  const unsigned char *d = data;
  for (size_t i = 0; i < FATBIN_SHA256_SIZE; i++) {
    unsigned hi = d[2 * i], lo = d[2 * i + 1];
    hi = hi <= '9' ? hi - '0' : hi - 'a' + 10;
    lo = lo <= '9' ? lo - '0' : lo - 'a' + 10;
    lib_sha256[i] = (unsigned char)(hi << 4 | lo);
  }
  size_t n = size - (2 * FATBIN_SHA256_SIZE + 1) - 1;
  memcpy(prefix, d + 2 * FATBIN_SHA256_SIZE + 1, n);
  prefix[n] = '\0';
  return 0;
}
