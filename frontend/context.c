/* context.c: the MLIR context and the diagnostic bridge.
 *
 * MLIR reports through the context's handler; we turn each diagnostic's
 * location into file:line:col (looking through call-site, fused and name
 * locations) and print it with diag.h. Notes that only dump the failing
 * operation's IR are dropped: they bury the message under pages of IR. */
#include "frontend.h"

#include "crash.h"
#include "diag.h"
#include "launch_mismatch.h"

#include <llvm-c/ErrorHandling.h>
#include <mlir-c/Diagnostics.h>
#include <mlir-c/RegisterEverything.h>
#include <mlir-c/Dialect/GPU.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static MlirContext ctx;
static int have_ctx;
static const char *activity;

struct strbuf {
  char *data;
  size_t len, cap;
};

static void strbuf_append(MlirStringRef s, void *ud) {
  struct strbuf *b = ud;
  if (b->len + s.length + 1 > b->cap) {
    size_t cap = (b->cap + s.length + 1) * 2;
    char *n = realloc(b->data, cap);
    if (!n)
      BUG("out of memory"); /* a cut text would give a wrong cache key */
    b->data = n;
    b->cap = cap;
  }
  memcpy(b->data + b->len, s.data, s.length);
  b->len += s.length;
  b->data[b->len] = '\0';
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

static enum diag_severity severity_of(MlirDiagnosticSeverity s) {
  switch (s) {
  case MlirDiagnosticError: return DIAG_ERROR;
  case MlirDiagnosticWarning: return DIAG_WARNING;
  case MlirDiagnosticNote: return DIAG_NOTE;
  case MlirDiagnosticRemark: return DIAG_REMARK;
  }
  return DIAG_ERROR;
}

/* The text of d's "see current operation" note (the op in generic form),
 * malloc'ed, or NULL. */
static char *current_operation(MlirDiagnostic d) {
  for (intptr_t i = 0, n = mlirDiagnosticGetNumNotes(d); i < n; i++) {
    struct strbuf note = {0};
    mlirDiagnosticPrint(mlirDiagnosticGetNote(d, i), strbuf_append, &note);
    if (note.data && strncmp(note.data, "see current operation", 21) == 0)
      return note.data;
    free(note.data);
  }
  return NULL;
}

static void emit(MlirDiagnostic d, enum diag_severity sev) {
  struct strbuf msg = {0};
  mlirDiagnosticPrint(d, strbuf_append, &msg);
  const char *text = msg.data ? msg.data : "";
  if (sev == DIAG_NOTE && strncmp(text, "see current operation", 21) == 0) {
    free(msg.data);
    return;
  }
  char file[1024];
  unsigned line = 0, col = 0;
  int located = resolve_location(mlirDiagnosticGetLocation(d), file, sizeof file, &line, &col, 0);
  /* MLIR's launch type check names the argument, not the types. */
  char *op = sev == DIAG_ERROR ? current_operation(d) : NULL;
  char *explained = op ? frontend_launch_mismatch_explained(text, op, located ? file : NULL) : NULL;
  if (explained)
    text = explained;
  if (located)
    diag_at(sev, frontend_display_name(file), line, col, "%s", text);
  else
    diag_at(sev, NULL, 0, 0, "%s", text);
  free(explained);
  free(op);
  free(msg.data);
}

/* While a lowering pipeline runs, the first error is held back (and later
 * ones dropped): frontend_lower turns it into one "cannot lower" message. */
static struct frontend_held_error *held;

void frontend_hold_errors(struct frontend_held_error *h) {
  held = h;
  if (h)
    memset(h, 0, sizeof *h);
}

static int hold(MlirDiagnostic d, MlirDiagnosticSeverity s) {
  if (!held)
    return 0;
  if (s != MlirDiagnosticError)
    return s == MlirDiagnosticNote; /* notes belong to an error held or dropped */
  if (held->count++ == 0) {
    struct strbuf msg = {0};
    mlirDiagnosticPrint(d, strbuf_append, &msg);
    snprintf(held->message, sizeof held->message, "%s", msg.data ? msg.data : "");
    free(msg.data);
    held->located = resolve_location(mlirDiagnosticGetLocation(d), held->file, sizeof held->file,
                                     &held->line, &held->col, 0);
  }
  return 1;
}

int frontend_location(MlirLocation loc, char *file, size_t size, unsigned *line, unsigned *col) {
  char f[1024];
  if (!resolve_location(loc, f, sizeof f, line, col, 0))
    return 0;
  snprintf(file, size, "%s", frontend_display_name(f));
  return 1;
}

int frontend_same_location(MlirLocation loc, const char *file, unsigned line, unsigned col) {
  char f[1024];
  unsigned l = 0, c = 0;
  return resolve_location(loc, f, sizeof f, &l, &c, 0) && l == line && c == col && !strcmp(f, file);
}

static MlirLogicalResult on_diagnostic(MlirDiagnostic d, void *ud) {
  MlirDiagnosticSeverity s = mlirDiagnosticGetSeverity(d);
  /* Remarks (e.g. device-library lookups) are noise for a driver user. */
  if (s == MlirDiagnosticRemark || hold(d, s))
    return mlirLogicalResultSuccess();
  emit(d, severity_of(s));
  for (intptr_t i = 0, n = mlirDiagnosticGetNumNotes(d); i < n; i++)
    emit(mlirDiagnosticGetNote(d, i), DIAG_NOTE);
  if (s == MlirDiagnosticError && activity)
    diag_note("in %s", activity);
  return mlirLogicalResultSuccess();
}

void frontend_set_activity(const char *what) { activity = what; }

char *frontend_print_op(MlirOperation op, int debug_info, size_t *len) {
  struct strbuf b = {0};
  MlirOpPrintingFlags flags = mlirOpPrintingFlagsCreate();
  /* Every op printed here was verified when it was parsed or normalized.
   * Without this the printer verifies it again, each time: for a whole
   * program that includes the gpu.container_module check, which looks up
   * every launch's kernel among the top-level ops (launches x modules), so
   * the cache keys and the blob tag of 1,000 modules and 10,000 launches
   * cost more than the rest of the front end. */
  mlirOpPrintingFlagsAssumeVerified(flags);
  /* A nested op (a gpu.module, for its cache key) is printed on its own:
   * otherwise the printer numbers the values of the whole program around it
   * first, and printing every module costs modules x program. */
  mlirOpPrintingFlagsUseLocalScope(flags);
  if (debug_info)
    mlirOpPrintingFlagsEnableDebugInfo(flags, true, false);
  mlirOperationPrintWithFlags(op, flags, strbuf_append, &b);
  mlirOpPrintingFlagsDestroy(flags);
  if (!b.data && !(b.data = calloc(1, 1)))
    BUG("out of memory");
  *len = b.len;
  return b.data;
}

static const char *alias_path, *alias_display;

void frontend_alias_file(const char *path, const char *display) {
  alias_path = path;
  alias_display = display;
  diag_set_source_file(display, path); /* its lines are in path */
}

const char *frontend_display_name(const char *path) {
  return alias_path && !strcmp(path, alias_path) ? alias_display : path;
}

/* LLVM's fatal errors (an unsupported PTX version, a missing libcall) end the
 * process: they are internal errors, reported as a crash is (crash.h),
 * naming what was being compiled. */
static void on_llvm_fatal(const char *reason) {
  static char what[2048];
  snprintf(what, sizeof what, "LLVM fatal error: %s%s%s%s", reason, activity ? " (in " : "",
           activity ? activity : "", activity ? ")" : "");
  crash_fatal(what);
}

int frontend_init(void) {
  if (have_ctx)
    return 0;
  MlirDialectRegistry reg = mlirDialectRegistryCreate();
  mlirRegisterAllDialects(reg);
  ctx = mlirContextCreateWithRegistry(reg, false);
  mlirDialectRegistryDestroy(reg);
  mlirRegisterAllLLVMTranslations(ctx);
  mlirRegisterAllPasses();
  mlirContextAttachDiagnosticHandler(ctx, on_diagnostic, NULL, NULL);
  LLVMInstallFatalErrorHandler(on_llvm_fatal);
  /* Load the dialects whose ops, types and attributes gpucc builds by hand.
   * An op made before its dialect is loaded gets an unregistered name, which
   * loading the dialect later (a pass does) frees under it. */
  static const char *const built[] = {"gpu", "arith", "scf", "llvm", "memref", "func", "cf"};
  for (size_t i = 0; i < sizeof built / sizeof built[0]; i++)
    if (mlirDialectIsNull(mlirContextGetOrLoadDialect(ctx, mlirStringRefCreateFromCString(built[i]))))
      BUG("a dialect gpucc builds ops of is not registered");
  have_ctx = 1;
  return 0;
}

MlirContext frontend_context(void) { return ctx; }

void frontend_shutdown(void) {
  if (have_ctx)
    mlirContextDestroy(ctx);
  have_ctx = 0;
}

/* A message at op's location (file:line:col) when it resolves to one. */
static void report_at(enum diag_severity sev, MlirOperation op, const char *fmt, va_list ap) {
  char msg[1024];
  vsnprintf(msg, sizeof msg, fmt, ap);
  char file[1024];
  unsigned line = 0, col = 0;
  if (resolve_location(mlirOperationGetLocation(op), file, sizeof file, &line, &col, 0))
    diag_at(sev, frontend_display_name(file), line, col, "%s", msg);
  else if (sev == DIAG_ERROR)
    diag_error("%s", msg);
  else
    diag_warning("%s", msg);
}

void frontend_warning_at(MlirOperation op, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  report_at(DIAG_WARNING, op, fmt, ap);
  va_end(ap);
}

int frontend_error_at(MlirOperation op, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  report_at(DIAG_ERROR, op, fmt, ap);
  va_end(ap);
  return -1;
}
