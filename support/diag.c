/* diag.c: formatting and counting of diagnostics; see diag.h.
 * Everything goes to stderr, one message per line, so tools and tests can
 * match "file:line:col: error:" reliably. */
#include "diag.h"

#include <stdio.h>
#include <stdlib.h>

static const char *program = "gpucc";
static int werror;
static int errors;

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
  if (!file)
    fprintf(stderr, "%s: ", program);
  else if (line && col)
    fprintf(stderr, "%s:%u:%u: ", file, line, col);
  else if (line)
    fprintf(stderr, "%s:%u: ", file, line);
  else
    fprintf(stderr, "%s: ", file);
  fprintf(stderr, "%s: ", severity_name(sev));
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
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
