/* host_printf.c: gpu.printf for kernels running on the CPU.
 *
 * The kernel passes what CUDA's vprintf receives: the format and a pointer
 * to the arguments packed as a C struct, each at its natural alignment, with
 * floats promoted to double and small integers to int. We walk the format,
 * take each argument from the buffer and format it with the C library, then
 * write the whole message in one call so lines of concurrent threads do not
 * interleave. A `*` width or precision takes an int from the buffer, as in C;
 * it is written into the conversion as a number, so that each conversion is
 * still one snprintf call with one value. */
#include "host_abi.h"
#include "rt.h"

#include <stdarg.h>
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

/* Formats one conversion and appends it, however long it is: a %s of a
 * long string or a width of 1000 must not be cut at some buffer size. */
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

/* Appends the digits of a width or precision, or of the int a `*` takes
 * from the arguments. Returns the new argument pointer; *negative is set
 * when a `*` gave a negative number. */
static const unsigned char *spec_number(const char **f, char *spec, size_t *len, size_t cap,
                                        const unsigned char *p, int *negative) {
  *negative = 0;
  if (**f == '*') {
    (*f)++;
    int v = 0;
    if (p)
      p = take(p, 4, &v);
    *negative = v < 0;
    int n = snprintf(spec + *len, cap - *len, "%d", v);
    if (n > 0)
      *len += (size_t)n < cap - *len ? (size_t)n : cap - *len - 1;
    return p;
  }
  size_t digits = strspn(*f, "0123456789");
  if (*len + digits < cap) {
    memcpy(spec + *len, *f, digits);
    *len += digits;
  }
  *f += digits;
  return p;
}

RT_EXPORT int gpuccHostPrintf(const char *format, const void *args) {
  struct out o = {0};
  const unsigned char *p = args;
  const char *f = format;
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
    /* One conversion: flags, width, precision, length, conversion. It is
     * copied into spec with any `*` replaced by its value. */
    const char *start = f++;
    char spec[96] = "%";
    size_t len = 1, flags = strspn(f, "-+ #0");
    if (flags > 16)
      flags = 16;
    memcpy(spec + len, f, flags);
    len += flags;
    f += strspn(f, "-+ #0");
    int negative;
    /* A negative `*` width is the `-` flag and its absolute value, which
     * the number written (e.g. "-3") already says. */
    p = spec_number(&f, spec, &len, 48, p, &negative);
    if (*f == '.') {
      f++;
      size_t dot = len;
      spec[len++] = '.';
      p = spec_number(&f, spec, &len, 64, p, &negative);
      if (negative) /* a negative precision counts as none */
        len = dot;
    }
    int longs = 0;
    while (*f == 'l' || *f == 'h' || *f == 'z' || *f == 'j' || *f == 't') {
      longs += (*f == 'l' || *f == 'z' || *f == 'j' || *f == 't') ? 1 : 0;
      if (len < 72)
        spec[len++] = *f;
      f++;
    }
    char conv = *f ? *f++ : '\0';
    if (!conv || len >= 72) {
      put(&o, start, (size_t)(f - start));
      continue;
    }
    spec[len++] = conv;
    spec[len] = '\0';
    if (!args) {
      put(&o, start, (size_t)(f - start));
    } else if (strchr("diouxXc", conv)) {
      if (longs) {
        long long v;
        p = take(p, 8, &v);
        put_formatted(&o, spec, v);
      } else {
        int v;
        p = take(p, 4, &v);
        put_formatted(&o, spec, v);
      }
    } else if (strchr("fFeEgGaA", conv)) {
      double v;
      p = take(p, 8, &v);
      put_formatted(&o, spec, v);
    } else if (conv == 's' || conv == 'p') {
      void *v;
      p = take(p, sizeof v, &v);
      if (conv == 's' && !v)
        put(&o, "(null)", 6);
      else
        put_formatted(&o, spec, v);
    } else {
      put(&o, start, (size_t)(f - start));
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
