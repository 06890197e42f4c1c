/* context.c: the MLIR context and the diagnostic bridge.
 *
 * MLIR reports through the context's handler; we turn each diagnostic's
 * location into file:line:col (looking through call-site, fused and name
 * locations: ir/locations.c) and print it with diag.h, unless a lowering
 * pipeline holds errors back (ir/pipeline.c). Notes that only dump the
 * failing operation's IR are dropped: they bury the message under pages of
 * IR. */
#include "frontend.h"

#include "crash.h"
#include "diag.h"
#include "launch_mismatch.h"

#include <llvm-c/ErrorHandling.h>
#include <mlir-c/Diagnostics.h>
#include <mlir-c/RegisterEverything.h>
#include <mlir-c/Dialect/GPU.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static MlirContext ctx;
static int have_ctx;

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
    char *note = ir_diagnostic_text(mlirDiagnosticGetNote(d, i));
    if (note && strncmp(note, "see current operation", 21) == 0)
      return note;
    free(note);
  }
  return NULL;
}

static void emit(MlirDiagnostic d, enum diag_severity sev) {
  char *msg = ir_diagnostic_text(d);
  const char *text = msg ? msg : "";
  if (sev == DIAG_NOTE && strncmp(text, "see current operation", 21) == 0) {
    free(msg);
    return;
  }
  char file[1024];
  unsigned line = 0, col = 0;
  int located = ir_resolve_location(mlirDiagnosticGetLocation(d), file, sizeof file, &line, &col);
  /* MLIR's launch type check names the argument, not the types. */
  char *op = sev == DIAG_ERROR ? current_operation(d) : NULL;
  char *explained = op ? frontend_launch_mismatch_explained(text, op, located ? file : NULL) : NULL;
  if (explained)
    text = explained;
  if (located)
    diag_at(sev, ir_display_name(file), line, col, "%s", text);
  else
    diag_at(sev, NULL, 0, 0, "%s", text);
  free(explained);
  free(op);
  free(msg);
}

static MlirLogicalResult on_diagnostic(MlirDiagnostic d, void *ud) {
  MlirDiagnosticSeverity s = mlirDiagnosticGetSeverity(d);
  /* Remarks (e.g. device-library lookups) are noise for a driver user. */
  if (s == MlirDiagnosticRemark || ir_hold_diagnostic(d, s))
    return mlirLogicalResultSuccess();
  emit(d, severity_of(s));
  for (intptr_t i = 0, n = mlirDiagnosticGetNumNotes(d); i < n; i++)
    emit(mlirDiagnosticGetNote(d, i), DIAG_NOTE);
  const char *activity = ir_activity();
  if (s == MlirDiagnosticError && activity)
    diag_note("in %s", activity);
  return mlirLogicalResultSuccess();
}

/* LLVM's fatal errors (an unsupported PTX version, a missing libcall) end the
 * process: they are internal errors, reported as a crash is (crash.h),
 * naming what was being compiled. */
static void on_llvm_fatal(const char *reason) {
  static char what[2048];
  const char *activity = ir_activity();
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
