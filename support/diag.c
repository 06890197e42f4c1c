/* diag.c: formatting and counting of diagnostics; see diag.h.
 * Everything goes to stderr, one message per line, so tools and tests can
 * match "file:line:col: error:" reliably. */
#include "diag.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *program = "gpucc";
static int werror;
static int errors;
static int color;

void diag_set_color(int mode) {
  if (mode < 0) {
    /* NO_COLOR (no-color.org): set and not empty, no color unless asked. */
    const char *term = getenv("TERM"), *no_color = getenv("NO_COLOR");
    mode = isatty(2) && term && strcmp(term, "dumb") != 0 && !(no_color && *no_color);
  }
  color = mode;
}

/* gcc's palette: bold locations, red errors, magenta warnings, cyan notes. */
static const char *severity_color(enum diag_severity sev) {
  switch (sev) {
  case DIAG_ERROR: return "\033[1;31m";
  case DIAG_WARNING: return "\033[1;35m";
  case DIAG_NOTE: return "\033[1;36m";
  case DIAG_REMARK: return "\033[1;32m";
  }
  return "";
}

void diag_set_program(const char *name) { program = name; }
void diag_set_werror(int on) { werror = on; }
int diag_error_count(void) { return errors; }

static const char *severity_name(enum diag_severity sev) {
  switch (sev) {
  case DIAG_ERROR: return "error";
  case DIAG_WARNING: return "warning";
  case DIAG_NOTE: return "note";
  case DIAG_REMARK: return "remark";
  }
  return "error";
}

void diag_vat(enum diag_severity sev, const char *file, unsigned line,
              unsigned col, const char *fmt, va_list ap) {
  if (sev == DIAG_WARNING && werror)
    sev = DIAG_ERROR;
  if (sev == DIAG_ERROR)
    errors++;
  /* One message is one write, so that lines from parallel jobs (which are
   * forked children sharing stderr) never interleave. */
  char buf[8192];
  size_t n = 0;
#define PUT(...) (n += (size_t)snprintf(buf + n, n < sizeof buf ? sizeof buf - n : 0, __VA_ARGS__))
  if (color)
    PUT("\033[1m");
  if (!file)
    PUT("%s: ", program);
  else if (line && col)
    PUT("%s:%u:%u: ", file, line, col);
  else if (line)
    PUT("%s:%u: ", file, line);
  else
    PUT("%s: ", file);
  if (color)
    PUT("\033[0m%s%s:\033[0m ", severity_color(sev), severity_name(sev));
  else
    PUT("%s: ", severity_name(sev));
  if (n < sizeof buf)
    n += (size_t)vsnprintf(buf + n, sizeof buf - n, fmt, ap);
  if (n >= sizeof buf - 1)
    n = sizeof buf - 2;
  buf[n++] = '\n';
#undef PUT
  fwrite(buf, 1, n, stderr);
}

void diag_at(enum diag_severity sev, const char *file, unsigned line,
             unsigned col, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  diag_vat(sev, file, line, col, fmt, ap);
  va_end(ap);
}

int diag_error(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  diag_vat(DIAG_ERROR, NULL, 0, 0, fmt, ap);
  va_end(ap);
  return -1;
}

void diag_warning(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  diag_vat(DIAG_WARNING, NULL, 0, 0, fmt, ap);
  va_end(ap);
}

void diag_note(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  diag_vat(DIAG_NOTE, NULL, 0, 0, fmt, ap);
  va_end(ap);
}

void diag_bug(const char *file, int line, const char *msg) {
  fprintf(stderr, "%s: internal error: %s:%d: %s\n", program, file, line, msg);
  abort();
}
