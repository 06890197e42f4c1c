/* xstr.c: see xstr.h. */
#include "xstr.h"

#include "diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

char *xasprintf(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  char *s = malloc((size_t)n + 1);
  if (!s)
    BUG("out of memory");
  va_start(ap, fmt);
  vsnprintf(s, (size_t)n + 1, fmt, ap);
  va_end(ap);
  return s;
}

char *xstem(const char *path) {
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  const char *dot = strrchr(base, '.');
  size_t n = dot && dot != base ? (size_t)(dot - base) : strlen(base);
  return xasprintf("%.*s", (int)n, base);
}

char *xfile_part(const char *s) {
  size_t n = strlen(s);
  if (n <= 80)
    return xasprintf("%s", s);
  uint64_t h = 14695981039346656037ull; /* FNV-1a: stable across builds */
  for (size_t i = 0; i < n; i++)
    h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
  return xasprintf("%.64s~%016llx", s, (unsigned long long)h);
}

char *xreplace(const char *text, const char *from, const char *to) {
  size_t nfrom = strlen(from), nto = strlen(to), n = 0;
  for (const char *p = text; (p = strstr(p, from)) != NULL; p += nfrom)
    n++;
  size_t len = strlen(text) + n * nto - n * nfrom;
  char *out = malloc(len + 1);
  if (!out)
    BUG("out of memory");
  char *o = out;
  for (const char *p = text, *hit; ; p = hit + nfrom) {
    hit = strstr(p, from);
    size_t keep = hit ? (size_t)(hit - p) : strlen(p);
    memcpy(o, p, keep);
    o += keep;
    if (!hit)
      break;
    memcpy(o, to, nto);
    o += nto;
  }
  *o = '\0';
  return out;
}
