/* error.c: how the runtime reports failures.
 *
 * Compiled code calls mgpu* functions that return nothing or a bare pointer,
 * so a failure cannot travel back to the caller: it is reported here, in one
 * line that says which mgpu function failed, in which driver call, and the
 * driver's error name and text. By default the line goes to stderr and the
 * program exits with status 1: continuing after a failed allocation or launch
 * only produces wrong results later. A host program can install its own
 * handler (gpuccSetErrorHandler) to log, clean up, or carry on; the failing
 * mgpu function then returns without effect. A kernel that faulted on a GPU
 * is reported in the host backend's words instead (rt_error_fault,
 * kernel_fault.h), through the same handler. stdout is flushed before
 * either line, so that what the program printed comes first. */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel_fault.h"
#include "rt.h"

static pthread_mutex_t rt_handler_lock = PTHREAD_MUTEX_INITIALIZER;
static gpuccErrorHandler rt_handler;
static void *rt_handler_data;

RT_EXPORT void gpuccSetErrorHandler(gpuccErrorHandler handler, void *user_data) {
  pthread_mutex_lock(&rt_handler_lock);
  rt_handler = handler;
  rt_handler_data = user_data;
  pthread_mutex_unlock(&rt_handler_lock);
}

/* Formats into a malloc'ed string; NULL when out of memory. */
static char *rt_vformat(const char *fmt, va_list ap) {
  va_list again;
  va_copy(again, ap);
  int n = vsnprintf(NULL, 0, fmt, ap);
  char *s = n >= 0 ? malloc((size_t)n + 1) : NULL;
  if (s)
    vsnprintf(s, (size_t)n + 1, fmt, again);
  va_end(again);
  return s;
}

/* The handler in place now (NULL: the default), and its data. */
static gpuccErrorHandler rt_current_handler(void **data) {
  pthread_mutex_lock(&rt_handler_lock);
  gpuccErrorHandler handler = rt_handler;
  *data = rt_handler_data;
  pthread_mutex_unlock(&rt_handler_lock);
  return handler;
}

void rt_error(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *msg = rt_vformat(fmt, ap);
  va_end(ap);
  const char *text = msg ? msg : "out of memory while reporting an error";
  void *data;
  gpuccErrorHandler handler = rt_current_handler(&data);

  if (handler) {
    handler(text, data);
    free(msg);
    return;
  }
  /* What the program printed comes first, also where stdout and stderr
   * are one file; one fprintf so that concurrent reports do not interleave
   * mid-line. */
  fflush(stdout);
  fprintf(stderr, "gpucc: runtime error: %s\n", text);
  free(msg);
  exit(1);
}

void rt_error_fault(const char *line) {
  static const char prefix[] = "gpucc: ";
  void *data;
  gpuccErrorHandler handler = rt_current_handler(&data);
  if (handler) {
    handler(strncmp(line, prefix, sizeof prefix - 1) == 0 ? line + sizeof prefix - 1 : line,
            data);
    return;
  }
  /* What the program printed before is what finds the kernel: first. */
  fflush(stdout);
  fprintf(stderr, "%s\n", line);
  exit(1);
}

void rt_warning(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *msg = rt_vformat(fmt, ap);
  va_end(ap);
  if (msg)
    fprintf(stderr, "gpucc: runtime warning: %s\n", msg);
  free(msg);
}

void rt_format_failure(char *buf, size_t len, const char *fn,
                       const struct rt_backend *b, const struct rt_err *e,
                       const char *context) {
  if (!e->call) {
    snprintf(buf, len, "%s: %s", fn, e->detail);
    return;
  }
  const char *name = b && b->error_name ? b->error_name(e->code) : NULL;
  const char *text = b && b->error_string ? b->error_string(e->code) : NULL;
  char code[32];
  if (!name) {
    snprintf(code, sizeof code, "error %d", e->code);
    name = code;
  }
  snprintf(buf, len, "%s: %s failed: %s", fn, e->call, name);
  if (text && *text)
    rt_appendf(buf, len, " (%s)", text);
  if (context && *context)
    rt_appendf(buf, len, " %s", context);
  if (e->detail[0])
    rt_appendf(buf, len, ": %s", e->detail);
}

void rt_error_failure(const char *fn, const struct rt_backend *b,
                      const struct rt_err *e, const char *context) {
  char buf[8192];
  rt_format_failure(buf, sizeof buf, fn, b, e, context);
  rt_error("%s", buf);
}

int rt_fail(struct rt_err *e, const char *call, int code) {
  e->call = call;
  e->code = code;
  e->detail[0] = '\0';
  return -1;
}

int rt_fail_msg(struct rt_err *e, const char *fmt, ...) {
  e->call = NULL;
  e->code = 0;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(e->detail, sizeof e->detail, fmt, ap);
  va_end(ap);
  return -1;
}
