/* locations.c: where an op is, as diagnostics show it, and messages there.
 *
 * A location is resolved to its first file:line:col, looking through
 * call-site, name and fused locations; a file can be shown under another
 * name (standard input as "<stdin>"). The work in progress that MLIR errors
 * name ("in device code for sm_90") is kept here too, set by whoever
 * compiles and read by the frontend's diagnostic handler. */
#include "ir.h"

#include "diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *activity;

void ir_set_activity(const char *what) { activity = what; }

const char *ir_activity(void) { return activity; }

static const char *alias_path, *alias_display;

void ir_alias_file(const char *path, const char *display) {
  alias_path = path;
  alias_display = display;
  diag_set_source_file(display, path); /* its lines are in path */
}

const char *ir_display_name(const char *path) {
  return alias_path && !strcmp(path, alias_path) ? alias_display : path;
}

/* Finds the first file:line:col inside a location. Returns 1 if found. */
static int resolve_location(MlirLocation loc, char *file, size_t file_size,
                            unsigned *line, unsigned *col, int depth) {
  if (depth > 16 || mlirLocationIsNull(loc))
    return 0;
  if (mlirLocationIsAFileLineColRange(loc)) {
    MlirStringRef name = mlirIdentifierStr(mlirLocationFileLineColRangeGetFilename(loc));
    snprintf(file, file_size, "%.*s", (int)name.length, name.data);
    *line = (unsigned)mlirLocationFileLineColRangeGetStartLine(loc);
    *col = (unsigned)mlirLocationFileLineColRangeGetStartColumn(loc);
    return 1;
  }
  if (mlirLocationIsACallSite(loc))
    return resolve_location(mlirLocationCallSiteGetCallee(loc), file, file_size, line, col, depth + 1) ||
           resolve_location(mlirLocationCallSiteGetCaller(loc), file, file_size, line, col, depth + 1);
  if (mlirLocationIsAName(loc))
    return resolve_location(mlirLocationNameGetChildLoc(loc), file, file_size, line, col, depth + 1);
  if (mlirLocationIsAFused(loc)) {
    intptr_t n = mlirLocationFusedGetNumLocations(loc);
    MlirLocation *locs = calloc(n ? (size_t)n : 1, sizeof *locs);
    if (!locs)
      return 0;
    mlirLocationFusedGetLocations(loc, locs);
    int found = 0;
    for (intptr_t i = 0; i < n && !found; i++)
      found = resolve_location(locs[i], file, file_size, line, col, depth + 1);
    free(locs);
    return found;
  }
  return 0;
}

int ir_resolve_location(MlirLocation loc, char *file, size_t size, unsigned *line,
                              unsigned *col) {
  return resolve_location(loc, file, size, line, col, 0);
}

int ir_location(MlirLocation loc, char *file, size_t size, unsigned *line, unsigned *col) {
  char f[1024];
  if (!resolve_location(loc, f, sizeof f, line, col, 0))
    return 0;
  snprintf(file, size, "%s", ir_display_name(f));
  return 1;
}

int ir_same_location(MlirLocation loc, const char *file, unsigned line, unsigned col) {
  char f[1024];
  unsigned l = 0, c = 0;
  return resolve_location(loc, f, sizeof f, &l, &c, 0) && l == line && c == col && !strcmp(f, file);
}

/* A message at op's location (file:line:col) when it resolves to one. */
static void report_at(enum diag_severity sev, MlirOperation op, const char *fmt, va_list ap) {
  char msg[1024];
  vsnprintf(msg, sizeof msg, fmt, ap);
  char file[1024];
  unsigned line = 0, col = 0;
  if (resolve_location(mlirOperationGetLocation(op), file, sizeof file, &line, &col, 0))
    diag_at(sev, ir_display_name(file), line, col, "%s", msg);
  else if (sev == DIAG_ERROR)
    diag_error("%s", msg);
  else
    diag_warning("%s", msg);
}

void ir_warning_at(MlirOperation op, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  report_at(DIAG_WARNING, op, fmt, ap);
  va_end(ap);
}

int ir_error_at(MlirOperation op, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  report_at(DIAG_ERROR, op, fmt, ap);
  va_end(ap);
  return -1;
}
