/* fatbin_notes.c: what an object's own bytes say beyond its manifest entry,
 * for `gpucc-fatbin list` (its NOTES column): one line per format that has
 * something to say, its function in its vendor's row file. Kept out of
 * struct fatbin_format_row so that the many formats with nothing to add
 * need no field for it; only their objects are read (inflated, in a
 * compressed archive). */
#include <stdlib.h>

#include "fatbin_private.h"

static const struct {
  enum fatbin_format format;
  void (*notes)(const unsigned char *d, size_t size, char *buf, size_t len);
} fatbin_notes[] = {
    {FATBIN_FORMAT_SPIRV, fatbin_spirv_notes}, /* its capabilities (fatbin_vulkan.c) */
};

void fatbin_object_notes(const struct fatbin *fb, size_t i, char *buf, size_t len) {
  if (!len)
    return;
  buf[0] = '\0';
  const struct fatbin_entry *e = fatbin_get(fb, i);
  for (size_t k = 0; e && k < sizeof fatbin_notes / sizeof fatbin_notes[0]; k++) {
    if (fatbin_notes[k].format != e->format)
      continue;
    const void *data;
    size_t size;
    void *to_free;
    char err[256];
    if (fatbin_read_object(fb, i, &data, &size, &to_free, err, sizeof err) != 0)
      return; /* `gpucc-fatbin verify` says why */
    fatbin_notes[k].notes(data, size, buf, len);
    free(to_free);
    return;
  }
}
