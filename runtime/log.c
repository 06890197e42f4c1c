/* log.c: GPUCC_LOG tracing, and the string helper the messages use.
 *
 * With GPUCC_LOG set to anything but "" or "0", the runtime tells on stderr
 * which driver it loaded, which device it opened and which object of each
 * module it chose and why: the questions a user asks when a program runs on
 * the wrong GPU or falls back to PTX JIT. Without it the runtime is silent. */
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt.h"

/* -1: not read yet; the environment is read once, lazily (reading it twice
 * concurrently is harmless: both threads store the same value). */
static atomic_int rt_log_state = -1;

int rt_log_enabled(void) {
  int s = atomic_load_explicit(&rt_log_state, memory_order_relaxed);
  if (s < 0) {
    const char *v = getenv("GPUCC_LOG");
    s = v && *v && strcmp(v, "0") != 0;
    atomic_store_explicit(&rt_log_state, s, memory_order_relaxed);
  }
  return s;
}

void rt_log(const char *fmt, ...) {
  if (!rt_log_enabled())
    return;
  char buf[2048];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  fprintf(stderr, "gpucc: log: %s\n", buf);
}

void rt_appendf(char *buf, size_t len, const char *fmt, ...) {
  size_t used = strnlen(buf, len);
  if (used + 1 >= len)
    return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf + used, len - used, fmt, ap);
  va_end(ap);
}
