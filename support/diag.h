/* diag.h: the one place gpucc prints diagnostics.
 *
 * Driver errors read "gpucc: error: message"; source errors read
 * "file:line:col: error: message", as gcc and clang print them. MLIR's
 * diagnostics are routed here by the frontend. Functions that report an error
 * return -1 so that call sites can write `return diag_error(...)`. */
#ifndef GPUCC_DIAG_H
#define GPUCC_DIAG_H

#include <stdarg.h>

enum diag_severity { DIAG_ERROR, DIAG_WARNING, DIAG_NOTE, DIAG_REMARK };

/* Name printed before driver-level messages ("gpucc"). */
void diag_set_program(const char *name);
/* Colors for "error:"/"warning:"/"note:" and locations: 1 always, 0 never,
 * -1 when stderr is a terminal (and TERM is not "dumb"). */
void diag_set_color(int mode);

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

/* Internal bug: prints file:line and aborts. */
#define BUG(msg) diag_bug(__FILE__, __LINE__, msg)
_Noreturn void diag_bug(const char *file, int line, const char *msg);

#endif
