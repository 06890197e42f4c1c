/* pipeline.c: running a textual pass pipeline on a module, and holding a
 * pipeline's errors back while ir_lower (lower.c) runs one, so that
 * it can say in one line what could not be lowered. The frontend's
 * diagnostic handler (frontend/context.c) asks ir_hold_diagnostic
 * first. */
#include "ir.h"

#include "diag.h"

#include <mlir-c/Pass.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Collects the pipeline parser's message; MLIR requires a callback. */
static void append_message(MlirStringRef s, void *ud) {
  char *buf = ud;
  size_t len = strlen(buf);
  snprintf(buf + len, 1024 - len, "%.*s", (int)s.length, s.data);
}

int ir_run_pipeline(MlirModule module, const char *pipeline) {
  char message[1024] = "";
  MlirContext ctx = mlirModuleGetContext(module);
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  MlirOpPassManager opm = mlirPassManagerGetAsOpPassManager(pm);
  MlirLogicalResult r = mlirParsePassPipeline(opm, mlirStringRefCreateFromCString(pipeline), append_message, message);
  if (mlirLogicalResultIsFailure(r)) {
    mlirPassManagerDestroy(pm);
    return diag_error("internal: pass pipeline '%s' does not parse: %s", pipeline, message);
  }
  /* One verification when the pipeline is done, not one after each pass:
   * the gpu.container_module check looks every launch's kernel up among
   * the top-level ops, so each verification of a program of 1,000
   * gpu.modules and 10,000 launches costs seconds, and host lowering runs
   * dozens of passes. A pass that breaks the IR is still caught, at the
   * end of its pipeline. */
  mlirPassManagerEnableVerifier(pm, false);
  r = mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module));
  mlirPassManagerDestroy(pm);
  if (mlirLogicalResultIsFailure(r))
    return -1;
  if (!mlirOperationVerify(mlirModuleGetOperation(module)))
    return diag_error("internal: the program does not verify after '%s'", pipeline);
  return 0;
}

/* While a lowering pipeline runs, the first error is held back (and later
 * ones dropped): ir_lower turns it into one "cannot lower" message. */
static struct ir_held_error *held;

void ir_hold_errors(struct ir_held_error *h) {
  held = h;
  if (h)
    memset(h, 0, sizeof *h);
}

int ir_hold_diagnostic(MlirDiagnostic d, MlirDiagnosticSeverity s) {
  if (!held)
    return 0;
  if (s != MlirDiagnosticError)
    return s == MlirDiagnosticNote; /* notes belong to an error held or dropped */
  if (held->count++ == 0) {
    char *msg = ir_diagnostic_text(d);
    snprintf(held->message, sizeof held->message, "%s", msg ? msg : "");
    free(msg);
    held->located = ir_resolve_location(mlirDiagnosticGetLocation(d), held->file,
                                              sizeof held->file, &held->line, &held->col);
  }
  return 1;
}
