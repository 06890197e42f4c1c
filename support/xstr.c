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
