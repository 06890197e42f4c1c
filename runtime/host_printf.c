/* host_printf.c: gpu.printf for kernels running on the CPU.
 *
 * The kernel passes what CUDA's vprintf receives: the format and a pointer
 * to the arguments packed as a C struct, each at its natural alignment, with
 * floats promoted to double and small integers to int. We walk the format,
 * take each argument from the buffer and format it with the C library, then
 * write the whole message in one call so lines of concurrent threads do not
 * interleave. A `*` width or precision takes an int from the buffer, as in C;
 * it is written into the conversion as a number, so that each conversion is
 * still one snprintf call with one value.
 *
 * The format is not trusted: gpucc checks it at compile time
 * (frontend/printf_check.c), but a program may be built otherwise, and the
 * argument buffer carries no types or size. So every conversion is parsed
 * and judged before any argument is read, each within fixed bounds; what no
 * gpu.printf can pass is refused: %s and %n (no pointer is ever
 * dereferenced), %lc, long double, positional arguments, unknown
 * conversions, widths or precisions over 1 MiB (CUDA's whole printf buffer;
 * no allocation of gigabytes), and any conversion when `args` is NULL. The
 * first refused conversion prints `<bad format>`; as the place of later
 * arguments is then unknown, the rest of the format is copied as it is and
 * no further argument is read. */
#include "host_abi.h"
#include "rt.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct out {
  char *buf;
  size_t len, cap;
};

static void put(struct out *o, const char *s, size_t n) {
  if (o->len + n + 1 > o->cap) {
    size_t cap = (o->cap + n + 1) * 2;
    char *b = realloc(o->buf, cap);
    if (!b)
      return;
    o->buf = b;
    o->cap = cap;
  }
  memcpy(o->buf + o->len, s, n);
  o->len += n;
  o->buf[o->len] = '\0';
}

static const unsigned char *take(const unsigned char *p, size_t size, void *out) {
  uintptr_t a = ((uintptr_t)p + size - 1) & ~(uintptr_t)(size - 1);
  memcpy(out, (const void *)a, size);
  return (const unsigned char *)(a + size);
}

/* Formats one conversion and appends it, however long it is: a %f of
 * 1e300 or a width of 1000 must not be cut at some buffer size. */
static void put_formatted(struct out *o, const char *spec, ...) {
  char small[256];
  va_list ap;
  va_start(ap, spec);
  int n = vsnprintf(small, sizeof small, spec, ap);
  va_end(ap);
  if (n < 0)
    return;
  if ((size_t)n < sizeof small) {
    put(o, small, (size_t)n);
    return;
  }
  char *big = malloc((size_t)n + 1);
  if (!big)
    return;
  va_start(ap, spec);
  vsnprintf(big, (size_t)n + 1, spec, ap);
  va_end(ap);
  put(o, big, (size_t)n);
  free(big);
}

#define BAD_FORMAT "<bad format>"
/* The largest width or precision; the same bound as printf_check.c. */
#define FIELD_MAX (1L << 20)

/* What a conversion reads from the argument buffer. */
enum kind { KIND_BAD, KIND_INT, KIND_LONG, KIND_LLONG, KIND_SIZE, KIND_INTMAX, KIND_PTRDIFF,
            KIND_DOUBLE, KIND_POINTER };

/* One conversion, parsed before anything is read. `spec` is the conversion
 * for snprintf: the flags once each, then the width and precision (a `*` is
 * replaced by its value later), the length modifier and the conversion;
 * every part is bounded, so it always fits. */
struct conv {
  char flags[6];
  long width, precision; /* -1: none; -2: a `*` */
  char length[3];
  char c;
  enum kind kind;
};

/* A decimal number of at most FIELD_MAX, or -1 when larger. */
static long parse_field(const char **f) {
  long v = 0;
  for (; **f >= '0' && **f <= '9'; (*f)++)
    if (v >= 0 && (v = v * 10 + (**f - '0')) > FIELD_MAX)
      v = -1; /* keep reading digits, but the conversion is refused */
  return v;
}

/* Parses the conversion after a '%' at *f and advances past it; a NUL ends
 * it early (kind KIND_BAD, *f on the NUL). */
static void parse_conv(const char **f, struct conv *c) {
  memset(c, 0, sizeof *c);
  c->kind = KIND_BAD;
  size_t nflags = 0;
  for (; **f && strchr("-+ #0", **f); (*f)++)
    if (!memchr(c->flags, **f, nflags))
      c->flags[nflags++] = **f; /* at most the five distinct flags */
  int too_big = 0;
  c->width = -1;
  if (**f == '*') {
    c->width = -2;
    (*f)++;
  } else if (**f >= '0' && **f <= '9') {
    too_big |= (c->width = parse_field(f)) < 0;
  }
  c->precision = -1;
  if (**f == '.') {
    (*f)++;
    if (**f == '*') {
      c->precision = -2;
      (*f)++;
    } else {
      too_big |= (c->precision = parse_field(f)) < 0;
    }
  }
  size_t nlen = 0;
  if ((**f == 'h' || **f == 'l') && (*f)[1] == **f)
    nlen = 2;
  else if (**f && strchr("hlzjtL", **f))
    nlen = 1;
  memcpy(c->length, *f, nlen);
  *f += nlen;
  if (!**f || too_big) {
    if (**f)
      (*f)++;
    return;
  }
  c->c = *(*f)++;
  const char *len = c->length;
  if (strchr("diouxX", c->c)) {
    if (!strcmp(len, "") || !strcmp(len, "h") || !strcmp(len, "hh"))
      c->kind = KIND_INT;
    else if (!strcmp(len, "l"))
      c->kind = KIND_LONG;
    else if (!strcmp(len, "ll"))
      c->kind = KIND_LLONG;
    else if (!strcmp(len, "z"))
      c->kind = KIND_SIZE;
    else if (!strcmp(len, "j"))
      c->kind = KIND_INTMAX;
    else if (!strcmp(len, "t"))
      c->kind = KIND_PTRDIFF;
  } else if (c->c == 'c') {
    if (!*len)
      c->kind = KIND_INT;
  } else if (strchr("fFeEgGaA", c->c)) {
    if (!*len || !strcmp(len, "l"))
      c->kind = KIND_DOUBLE;
  } else if (c->c == 'p') {
    if (!*len)
      c->kind = KIND_POINTER;
  }
}

/* Takes the int of a `*`. Returns 0, or -1 when it is over FIELD_MAX. */
static int take_star(const unsigned char **p, long *out) {
  int v;
  *p = take(*p, sizeof v, &v);
  *out = v;
  return v > FIELD_MAX || v < -FIELD_MAX ? -1 : 0;
}

/* Reads the conversion's arguments and appends its text. Returns 0, or -1
 * when a `*` value is refused (nothing appended). */
static int format_conv(struct out *o, const struct conv *c, const unsigned char **p) {
  long width = c->width, precision = c->precision;
  if (width == -2 && take_star(p, &width) != 0)
    return -1;
  if (precision == -2 && take_star(p, &precision) != 0)
    return -1;
  /* A negative `*` width is the `-` flag and its absolute value, which the
   * number written ("-3") says; a negative precision counts as none. */
  char spec[40];
  int n = snprintf(spec, sizeof spec, "%%%s", c->flags);
  if (c->width != -1)
    n += snprintf(spec + n, sizeof spec - (size_t)n, "%ld", width);
  if (c->precision != -1 && precision >= 0)
    n += snprintf(spec + n, sizeof spec - (size_t)n, ".%ld", precision);
  snprintf(spec + n, sizeof spec - (size_t)n, "%s%c", c->length, c->c);
  switch (c->kind) {
  case KIND_INT: {
    int v;
    *p = take(*p, sizeof v, &v);
    put_formatted(o, spec, v);
    break;
  }
  case KIND_LONG: {
    long v;
    *p = take(*p, sizeof v, &v);
    put_formatted(o, spec, v);
    break;
  }
  case KIND_LLONG: {
    long long v;
    *p = take(*p, sizeof v, &v);
    put_formatted(o, spec, v);
    break;
  }
  case KIND_SIZE: {
    size_t v;
    *p = take(*p, sizeof v, &v);
    put_formatted(o, spec, v);
    break;
  }
  case KIND_INTMAX: {
    intmax_t v;
    *p = take(*p, sizeof v, &v);
    put_formatted(o, spec, v);
    break;
  }
  case KIND_PTRDIFF: {
    ptrdiff_t v;
    *p = take(*p, sizeof v, &v);
    put_formatted(o, spec, v);
    break;
  }
  case KIND_DOUBLE: {
    double v;
    *p = take(*p, sizeof v, &v);
    put_formatted(o, spec, v);
    break;
  }
  case KIND_POINTER: {
    /* Only the value is printed; nothing is read through it. */
    uintptr_t v;
    *p = take(*p, sizeof v, &v);
    put_formatted(o, spec, (void *)v);
    break;
  }
  case KIND_BAD:
    return -1;
  }
  return 0;
}

RT_EXPORT int gpuccHostPrintf(const char *format, const void *args) {
  struct out o = {0};
  const unsigned char *p = args;
  const char *f = format ? format : BAD_FORMAT;
  while (*f) {
    if (*f != '%') {
      const char *next = strchr(f, '%');
      size_t n = next ? (size_t)(next - f) : strlen(f);
      put(&o, f, n);
      f += n;
      continue;
    }
    if (f[1] == '%') {
      put(&o, "%", 1);
      f += 2;
      continue;
    }
    f++;
    struct conv c;
    parse_conv(&f, &c);
    if (c.kind == KIND_BAD || !p || format_conv(&o, &c, &p) != 0) {
      put(&o, BAD_FORMAT, strlen(BAD_FORMAT));
      put(&o, f, strlen(f));
      break;
    }
  }
  int written = 0;
  if (o.buf) {
    written = (int)o.len;
    flockfile(stdout);
    fwrite(o.buf, 1, o.len, stdout);
    fflush(stdout);
    funlockfile(stdout);
    free(o.buf);
  }
  return written;
}
