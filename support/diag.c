/* diag.c: formatting and counting of diagnostics; see diag.h.
 * Everything goes to stderr; a message's first line is always
 * "file:line:col: error: ...", so tools and tests can match it reliably.
 * A located message is followed by its source line and a caret under the
 * column, as clang and mlir-opt show them (diag_source.c reads the line). */
#include "diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *program = "gpucc";
static int werror;
static int errors;
static int said; /* diagnostics printed, or output passed on */
static int color;
static int caret = 1;

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
void diag_set_caret(int on) { caret = on; }
void diag_set_werror(int on) { werror = on; }
int diag_error_count(void) { return errors; }
int diag_said_anything(void) { return said > 0; }
void diag_passed_on(void) { said++; }

static const char *severity_name(enum diag_severity sev) {
  switch (sev) {
  case DIAG_ERROR: return "error";
  case DIAG_WARNING: return "warning";
  case DIAG_NOTE: return "note";
  case DIAG_REMARK: return "remark";
  }
  return "error";
}

/* A message under construction: one buffer, so that it leaves in one write
 * and lines from parallel jobs (forked children sharing stderr) never
 * interleave. Out of memory, it keeps what it has. */
struct text {
  char *s;
  size_t len, cap;
};

static void text_vadd(struct text *t, const char *fmt, va_list ap) {
  va_list again;
  va_copy(again, ap);
  int n = vsnprintf(NULL, 0, fmt, again);
  va_end(again);
  if (n < 0)
    return;
  if (t->len + (size_t)n + 1 > t->cap) {
    size_t cap = (t->len + (size_t)n + 1) * 2;
    char *s = realloc(t->s, cap);
    if (!s)
      return;
    t->s = s;
    t->cap = cap;
  }
  vsnprintf(t->s + t->len, t->cap - t->len, fmt, ap);
  t->len += (size_t)n;
}

static void text_add(struct text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void text_add(struct text *t, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  text_vadd(t, fmt, ap);
  va_end(ap);
}

/* The source line and the caret line, when the location is a line and
 * column of a file that can be read as text. */
static void add_snippet(struct text *t, const char *file, unsigned line, unsigned col) {
  struct diag_snippet sn;
  if (!caret || !file || !line || !col || diag_source_snippet(file, line, col, &sn) != 0)
    return;
  text_add(t, "%s\n%*s%s^%s\n", sn.text, (int)sn.caret_column, "", color ? "\033[1;32m" : "",
           color ? "\033[0m" : "");
  free(sn.text);
}

void diag_vat(enum diag_severity sev, const char *file, unsigned line,
              unsigned col, const char *fmt, va_list ap) {
  if (sev == DIAG_WARNING && werror)
    sev = DIAG_ERROR;
  if (sev == DIAG_ERROR)
    errors++;
  said++;
  va_list spare; /* for the message alone, if there is no memory */
  va_copy(spare, ap);
  struct text t = {0};
  if (color)
    text_add(&t, "\033[1m");
  if (!file)
    text_add(&t, "%s: ", program);
  else if (line && col)
    text_add(&t, "%s:%u:%u: ", file, line, col);
  else if (line)
    text_add(&t, "%s:%u: ", file, line);
  else
    text_add(&t, "%s: ", file);
  if (color)
    text_add(&t, "\033[0m%s%s:\033[0m ", severity_color(sev), severity_name(sev));
  else
    text_add(&t, "%s: ", severity_name(sev));
  text_vadd(&t, fmt, ap);
  text_add(&t, "\n");
  add_snippet(&t, file, line, col);
  if (t.s)
    fwrite(t.s, 1, t.len, stderr);
  else /* no memory even for the message: its text alone */
    vfprintf(stderr, fmt, spare), fputc('\n', stderr);
  va_end(spare);
  free(t.s);
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
