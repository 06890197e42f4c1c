/* fake_common.c: logging and configuration helpers of the fake drivers.
 *
 * Each log line is written with a single write() on a file opened with
 * O_APPEND, so lines from concurrent threads never interleave. */
#include "fake_common.h"

#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void fake_log(const char *log_env, const char *fmt, ...) {
  const char *path = getenv(log_env);
  if (!path || !*path)
    return;
  char line[1024];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(line, sizeof line - 1, fmt, ap);
  va_end(ap);
  if (n < 0)
    return;
  if ((size_t)n > sizeof line - 2)
    n = (int)(sizeof line - 2);
  line[n++] = '\n';
  int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0)
    return;
  ssize_t w = write(fd, line, (size_t)n);
  (void)w;
  close(fd);
}

int fake_should_fail(const char *fail_env, const char *call) {
  const char *list = getenv(fail_env);
  if (!list)
    return 0;
  size_t n = strlen(call);
  for (const char *p = list; *p;) {
    size_t len = strcspn(p, ",");
    if (len == n && strncmp(p, call, n) == 0)
      return 1;
    p += len;
    if (*p == ',')
      p++;
  }
  return 0;
}

long fake_env_long(const char *name, long dflt) {
  const char *v = getenv(name);
  if (!v || !*v)
    return dflt;
  return strtol(v, NULL, 0);
}

const char *fake_env_str(const char *name, const char *dflt) {
  const char *v = getenv(name);
  return v && *v ? v : dflt;
}

void fake_printable(const void *data, size_t max, char *out, size_t outlen) {
  const unsigned char *d = data;
  size_t i = 0;
  for (; d && i < max && i + 1 < outlen && d[i]; i++)
    out[i] = d[i] >= 32 && d[i] < 127 ? (char)d[i] : '.';
  out[i] = '\0';
}
