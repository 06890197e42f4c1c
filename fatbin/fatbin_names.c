/* fatbin_names.c: the names of vendors, formats and compression modes, as
 * they appear in manifests, in `gpucc-fatbin list` and on the command line
 * (--fatbin-compress=).
 *
 * The tables are the single place that ties an enum value to its spelling, so
 * the writer, the reader and the tool cannot disagree. */
#include <string.h>

#include "fatbin_private.h"

static const char *const fatbin_vendor_names[] = {
    [FATBIN_VENDOR_NVIDIA] = "nvidia",
    [FATBIN_VENDOR_AMD] = "amd",
    [FATBIN_VENDOR_HOST] = "host",
};

static const char *const fatbin_format_names[] = {
    [FATBIN_FORMAT_CUBIN] = "cubin",
    [FATBIN_FORMAT_PTX] = "ptx",
    [FATBIN_FORMAT_HSACO] = "hsaco",
    [FATBIN_FORMAT_SO] = "so",
    [FATBIN_FORMAT_SO_LIB] = "solib",
    [FATBIN_FORMAT_SO_REF] = "soref",
};

static const char *const fatbin_compress_names[] = {
    [FATBIN_COMPRESS_NONE] = "none",
    [FATBIN_COMPRESS_FAST] = "fast",
    [FATBIN_COMPRESS_SIZE] = "size",
};

#define FATBIN_COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

/* An out-of-range enum (a caller's bug or a cast from bad data) gets NULL
 * rather than a read past the table; the writer checks for it. */
const char *fatbin_vendor_name(enum fatbin_vendor v) {
  if ((unsigned)v >= FATBIN_COUNT_OF(fatbin_vendor_names))
    return NULL;
  return fatbin_vendor_names[v];
}

const char *fatbin_format_name(enum fatbin_format f) {
  if ((unsigned)f >= FATBIN_COUNT_OF(fatbin_format_names))
    return NULL;
  return fatbin_format_names[f];
}

const char *fatbin_compress_name(enum fatbin_compress c) {
  if ((unsigned)c >= FATBIN_COUNT_OF(fatbin_compress_names))
    return NULL;
  return fatbin_compress_names[c];
}

int fatbin_vendor_parse(const char *name, enum fatbin_vendor *out) {
  for (size_t i = 0; name && i < FATBIN_COUNT_OF(fatbin_vendor_names); i++) {
    if (strcmp(name, fatbin_vendor_names[i]) == 0) {
      *out = (enum fatbin_vendor)i;
      return 0;
    }
  }
  return -1;
}

int fatbin_format_parse(const char *name, enum fatbin_format *out) {
  for (size_t i = 0; name && i < FATBIN_COUNT_OF(fatbin_format_names); i++) {
    if (strcmp(name, fatbin_format_names[i]) == 0) {
      *out = (enum fatbin_format)i;
      return 0;
    }
  }
  return -1;
}

int fatbin_compress_parse(const char *name, enum fatbin_compress *out) {
  for (size_t i = 0; name && i < FATBIN_COUNT_OF(fatbin_compress_names); i++) {
    if (strcmp(name, fatbin_compress_names[i]) == 0) {
      *out = (enum fatbin_compress)i;
      return 0;
    }
  }
  return -1;
}
