/* diag_source.c: the source line shown under a located diagnostic; see
 * diag.h (diag_source_snippet).
 *
 * The file is read whole and kept (the last one only: a run's messages are
 * usually about one input, often many about the same one). Columns are
 * MLIR's and gcc's: bytes from 1. The shown line expands tabs to 8 columns
 * and counts a UTF-8 character as one column, so that the caret lands under
 * the character on a terminal. Anything that is not plainly text (a NUL or
 * other control byte on the line, a bytecode file), a blank line, a line or
 * column past the end, or a file that cannot be read gives no snippet: the message is
 * printed alone, as before. */
#include "diag.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Lines longer than this many bytes are shown as a window around the
 * column: a dense constant on one line is megabytes. */
#define WINDOW 160
/* Larger files are not read for a snippet. */
#define MAX_SOURCE (256u << 20)

struct alias {
  char *shown, *path;
};
static struct alias *aliases;
static size_t naliases;

void diag_set_source_file(const char *shown, const char *path) {
  for (size_t i = 0; i < naliases; i++)
    if (!strcmp(aliases[i].shown, shown)) {
      char *p = strdup(path);
      if (p) {
        free(aliases[i].path);
        aliases[i].path = p;
      }
      return;
    }
  struct alias *n = realloc(aliases, (naliases + 1) * sizeof *n);
  if (!n)
    return; /* the messages just come without their line */
  aliases = n;
  char *s = strdup(shown), *p = strdup(path);
  if (!s || !p) {
    free(s);
    free(p);
    return;
  }
  aliases[naliases++] = (struct alias){s, p};
}

static const char *real_path(const char *shown) {
  for (size_t i = 0; i < naliases; i++)
    if (!strcmp(aliases[i].shown, shown))
      return aliases[i].path;
  return shown;
}

static struct {
  char *path;
  char *data;
  size_t size;
} cached;

/* The whole file, or NULL. A file that changed since it was cached is not
 * noticed: gpucc reads each input once, before any message about it. */
static const char *source_of(const char *path, size_t *size) {
  if (cached.path && !strcmp(cached.path, path)) {
    *size = cached.size;
    return cached.data;
  }
  FILE *f = fopen(path, "rb");
  struct stat st;
  if (!f)
    return NULL;
  char *data = NULL;
  size_t n = 0;
  if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) && (size_t)st.st_size <= MAX_SOURCE &&
      (data = malloc((size_t)st.st_size + 1)))
    n = fread(data, 1, (size_t)st.st_size, f);
  fclose(f);
  char *name = strdup(path);
  if (!data || !name || n != (size_t)st.st_size) {
    free(data);
    free(name);
    return NULL;
  }
  free(cached.path);
  free(cached.data);
  cached.path = name;
  cached.data = data;
  cached.size = n;
  *size = n;
  return data;
}

static int continuation(unsigned char c) { return (c & 0xc0) == 0x80; }

/* Appends s[from, to) to out at display column *width, tabs expanded. */
static size_t put_shown(char *out, size_t at, const char *s, size_t from, size_t to, size_t *width) {
  for (size_t i = from; i < to; i++) {
    if (s[i] == '\t') {
      do
        out[at++] = ' ';
      while (++*width % 8);
      continue;
    }
    out[at++] = s[i];
    *width += !continuation((unsigned char)s[i]);
  }
  return at;
}

int diag_source_snippet(const char *file, unsigned line, unsigned col, struct diag_snippet *out) {
  size_t size;
  const char *text = source_of(real_path(file), &size);
  if (!text || line == 0 || col == 0)
    return -1;
  const char *p = text, *end = text + size;
  for (unsigned l = 1; l < line; l++) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    if (!nl)
      return -1;
    p = nl + 1;
  }
  const char *nl = memchr(p, '\n', (size_t)(end - p));
  size_t len = (size_t)((nl ? nl : end) - p);
  if (len > 0 && p[len - 1] == '\r')
    len--;
  size_t c = col - 1;
  if (c > len)
    return -1;
  int blank = 1;
  for (size_t i = 0; i < len; i++) {
    if (((unsigned char)p[i] < 0x20 && p[i] != '\t') || p[i] == 0x7f)
      return -1; /* not text: a binary file, or a location that lies */
    blank &= p[i] == ' ' || p[i] == '\t';
  }
  if (blank)
    return -1; /* nothing to point at (an empty input) */
  size_t from = 0, to = len;
  if (len > WINDOW) {
    from = c > WINDOW / 2 ? c - WINDOW / 2 : 0;
    to = from + WINDOW < len ? from + WINDOW : len;
    while (from < c && continuation((unsigned char)p[from]))
      from++;
    while (to > c && to < len && continuation((unsigned char)p[to]))
      to--;
  }
  /* Each byte is at most 8 columns (a tab), plus the two "..." marks. */
  char *s = malloc(8 * (to - from) + 8);
  if (!s)
    return -1;
  size_t at = 0, width = 0;
  if (from > 0) {
    memcpy(s, "...", 3);
    at = width = 3;
  }
  at = put_shown(s, at, p, from, c, &width);
  out->caret_column = width;
  at = put_shown(s, at, p, c, to, &width);
  if (to < len) {
    memcpy(s + at, "...", 3);
    at += 3;
  }
  s[at] = '\0';
  out->text = s;
  return 0;
}
