/* xstr.c: see xstr.h. */
#include "xstr.h"

#include "diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

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
