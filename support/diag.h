/* diag.h: the one place gpucc prints diagnostics.
 *
 * Driver errors read "gpucc: error: message"; source errors read
 * "file:line:col: error: message", as gcc and clang print them, followed by
 * the source line and a caret under the column when the file can be read
 * (clang's layout):
 *
 *   prog.mlir:10:5: error: 'gpu.launch_func' op ...
 *       gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) ...
 *       ^
 *
 * MLIR's diagnostics are routed here by the frontend. Functions that report
 * an error return -1 so that call sites can write `return diag_error(...)`. */
#ifndef GPUCC_DIAG_H
#define GPUCC_DIAG_H

#include <stdarg.h>
#include <stddef.h>

enum diag_severity { DIAG_ERROR, DIAG_WARNING, DIAG_NOTE, DIAG_REMARK };

/* Name printed before driver-level messages ("gpucc"). */
void diag_set_program(const char *name);
/* Colors for "error:"/"warning:"/"note:" and locations: 1 always, 0 never,
 * -1 when stderr is a terminal (and TERM is not "dumb"). */
void diag_set_color(int mode);

/* Source line and caret under located messages: on (default) or off
 * (-fno-caret-diagnostics). */
void diag_set_caret(int on);

/* Messages about `shown` read their source lines from `path`: standard
 * input is read from its copy, a bytecode input from its text. Both
 * strings are copied. */
void diag_set_source_file(const char *shown, const char *path);

/* One located line as shown under a message: `text` (malloc'ed, no
 * newline; tabs expanded, a very long line cut to a window around the
 * column, marked "...") and the caret's column in it, from 0. */
struct diag_snippet {
  char *text;
  size_t caret_column;
};
/* Returns 0 and fills *out when `file` (or the file it stands for) can be
 * read and holds text at line:col (col may be one past the line's end);
 * -1 otherwise, when the message is printed alone, as before. */
int diag_source_snippet(const char *file, unsigned line, unsigned col, struct diag_snippet *out);

/* Treat warnings as errors (-Werror). */
void diag_set_werror(int on);

/* Prints "<file>:<line>:<col>: <severity>: <message>", or, when file is NULL,
 * "<program>: <severity>: <message>". line/col of 0 are left out. */
void diag_at(enum diag_severity sev, const char *file, unsigned line,
             unsigned col, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
void diag_vat(enum diag_severity sev, const char *file, unsigned line,
              unsigned col, const char *fmt, va_list ap);

int diag_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void diag_warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void diag_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Number of errors reported so far (warnings count under -Werror). */
int diag_error_count(void);
/* Whether this process has said anything to the user: a diagnostic of
 * any severity, or a job's output it passed on (diag_passed_on). A run
 * that said nothing may later be replayed from the cache in silence. */
int diag_said_anything(void);
void diag_passed_on(void);

/* Internal bug: prints file:line and aborts. */
#define BUG(msg) diag_bug(__FILE__, __LINE__, msg)
_Noreturn void diag_bug(const char *file, int line, const char *msg);

#endif
