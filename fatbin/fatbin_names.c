/* fatbin_names.c: the names of vendors, formats and compression modes, as
 * they appear in manifests, in `gpucc-fatbin list` and on the command line
 * (--fatbin-compress=), and the lookups in the vendor table.
 *
 * A vendor's and its formats' names are in its row (fatbin_vendors.c), the
 * compression modes' in the table below: the single places that tie an id
 * to its spelling, so the writer, the reader and the tool cannot disagree. */
#include <string.h>

#include "fatbin_private.h"

static const char *const fatbin_compress_names[] = {
    [FATBIN_COMPRESS_NONE] = "none",
    [FATBIN_COMPRESS_FAST] = "fast",
    [FATBIN_COMPRESS_SIZE] = "size",
};

#define FATBIN_COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

/* An id no row has (a caller's bug or a cast from bad data) gets NULL; the
 * writer checks for it, and the reader skips entries whose names no row
 * has. */
const struct fatbin_vendor_row *fatbin_vendor_find(enum fatbin_vendor v) {
  for (const struct fatbin_vendor_row *const *r = fatbin_vendors; *r; r++)
    if ((*r)->vendor == v)
      return *r;
  return NULL;
}

const struct fatbin_format_row *fatbin_format_find(enum fatbin_format f,
                                                   const struct fatbin_vendor_row **vendor) {
  for (const struct fatbin_vendor_row *const *r = fatbin_vendors; *r; r++) {
    for (size_t i = 0; i < (*r)->nformats; i++) {
      if ((*r)->formats[i].format != f)
        continue;
      if (vendor)
        *vendor = *r;
      return &(*r)->formats[i];
    }
  }
  return NULL;
}

const char *fatbin_vendor_name(enum fatbin_vendor v) {
  const struct fatbin_vendor_row *r = fatbin_vendor_find(v);
  return r ? r->name : NULL;
}

const char *fatbin_format_name(enum fatbin_format f) {
  const struct fatbin_format_row *r = fatbin_format_find(f, NULL);
  return r ? r->name : NULL;
}

int fatbin_format_is_text(enum fatbin_format f) {
  const struct fatbin_format_row *r = fatbin_format_find(f, NULL);
  return r && r->text;
}

/* An out-of-range mode gets NULL rather than a read past the table. */
const char *fatbin_compress_name(enum fatbin_compress c) {
  if ((unsigned)c >= FATBIN_COUNT_OF(fatbin_compress_names))
    return NULL;
  return fatbin_compress_names[c];
}

int fatbin_vendor_parse(const char *name, enum fatbin_vendor *out) {
  for (const struct fatbin_vendor_row *const *r = fatbin_vendors; name && *r; r++) {
    if (strcmp(name, (*r)->name) == 0) {
      *out = (*r)->vendor;
      return 0;
    }
  }
  return -1;
}

int fatbin_format_parse(const char *name, enum fatbin_format *out) {
  for (const struct fatbin_vendor_row *const *r = fatbin_vendors; name && *r; r++) {
    for (size_t i = 0; i < (*r)->nformats; i++) {
      if (strcmp(name, (*r)->formats[i].name) == 0) {
        *out = (*r)->formats[i].format;
        return 0;
      }
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
