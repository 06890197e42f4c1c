/* host_printf.c: gpu.printf for kernels running on the CPU.
 *
 * The kernel passes what CUDA's vprintf receives: the format and a pointer
 * to the arguments packed as a C struct, each at its natural alignment, with
 * floats promoted to double and small integers to int. We walk the format,
 * take each argument from the buffer and format it with the C library, then
 * write the whole message in one call so lines of concurrent threads do not
 * interleave. */
#include "host_abi.h"
#include "rt.h"

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
    /* One conversion: flags, width, precision, length, conversion. */
    const char *start = f++;
    f += strspn(f, "-+ #0");
    f += strspn(f, "0123456789");
    if (*f == '.') {
      f++;
      f += strspn(f, "0123456789");
    }
    int longs = 0;
    while (*f == 'l' || *f == 'h' || *f == 'z' || *f == 'j' || *f == 't')
      longs += (*f == 'l' || *f == 'z' || *f == 'j' || *f == 't') ? 1 : 0, f++;
    char conv = *f ? *f++ : '\0';
    char spec[64];
    size_t speclen = (size_t)(f - start);
    if (speclen >= sizeof spec || !conv) {
      put(&o, start, (size_t)(f - start));
      continue;
    }
    memcpy(spec, start, speclen);
    spec[speclen] = '\0';
    char text[512];
    int n = 0;
    if (!args) {
      n = snprintf(text, sizeof text, "%s", spec);
    } else if (strchr("diouxXc", conv)) {
      if (longs) {
        long long v;
        p = take(p, 8, &v);
        n = snprintf(text, sizeof text, spec, v);
      } else {
        int v;
        p = take(p, 4, &v);
        n = snprintf(text, sizeof text, spec, v);
      }
    } else if (strchr("fFeEgGaA", conv)) {
      double v;
      p = take(p, 8, &v);
      n = snprintf(text, sizeof text, spec, v);
    } else if (conv == 's' || conv == 'p') {
      void *v;
      p = take(p, sizeof v, &v);
      n = conv == 's' && !v ? snprintf(text, sizeof text, "(null)") : snprintf(text, sizeof text, spec, v);
    } else {
      n = snprintf(text, sizeof text, "%s", spec);
    }
    if (n > 0)
      put(&o, text, (size_t)n < sizeof text ? (size_t)n : sizeof text - 1);
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
