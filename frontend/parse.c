/* parse.c: reading one input file into a verified module.
 *
 * MLIR's parser accepts both text and bytecode and verifies after parsing;
 * its errors arrive through the diagnostic handler in context.c. What MLIR
 * would silently accept but a user would not mean, an empty file, is an
 * error here. */
#include "frontend.h"

#include "diag.h"
#include "tmp.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/Pass.h>

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* True when the file holds nothing but whitespace and // comments. */
static int is_blank(const char *data, size_t size) {
  for (size_t i = 0; i < size; i++) {
    if (data[i] == '/' && i + 1 < size && data[i + 1] == '/') {
      while (i < size && data[i] != '\n')
        i++;
      continue;
    }
    if (!isspace((unsigned char)data[i]))
      return 0;
  }
  return 1;
}

/* Standard input is copied to a temp file (MLIR's parser reads files); its
 * diagnostics then name "<stdin>" instead of that file. */
static const char *stdin_copy(void) {
  const char *path = tmp_path("stdin", ".mlir");
  if (!path)
    return NULL;
  FILE *out = fopen(path, "wb");
  if (!out) {
    diag_error("cannot create '%s': %s", path, strerror(errno));
    return NULL;
  }
  char buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, stdin)) > 0)
    fwrite(buf, 1, n, out);
  int bad = ferror(stdin) || fflush(out) != 0 || ferror(out);
  if (fclose(out) != 0 || bad) {
    diag_error("cannot read standard input");
    return NULL;
  }
  frontend_alias_file(path, "<stdin>");
  return path;
}

int frontend_parse(const char *path, MlirModule *out) {
  if (!strcmp(path, "-") && !(path = stdin_copy()))
    return -1;
  FILE *f = fopen(path, "rb");
  if (!f)
    return diag_error("cannot open '%s': %s", path, strerror(errno));
  char probe[4096];
  size_t n = fread(probe, 1, sizeof probe, f);
  int more = !feof(f);
  fclose(f);
  if (!more && is_blank(probe, n)) {
    diag_at(DIAG_ERROR, frontend_display_name(path), 1, 1, "empty input: no operations to compile");
    return -1;
  }
  MlirModule m = mlirModuleCreateParseFromFile(frontend_context(), mlirStringRefCreateFromCString(path));
  if (mlirModuleIsNull(m)) {
    if (diag_error_count() == 0)
      diag_at(DIAG_ERROR, path, 0, 0, "cannot parse input");
    return -1;
  }
  *out = m;
  return 0;
}

/* Collects the pipeline parser's message; MLIR requires a callback. */
static void append_message(MlirStringRef s, void *ud) {
  char *buf = ud;
  size_t len = strlen(buf);
  snprintf(buf + len, 1024 - len, "%.*s", (int)s.length, s.data);
}

int frontend_run_pipeline(MlirModule module, const char *pipeline) {
  char message[1024] = "";
  MlirContext ctx = mlirModuleGetContext(module);
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  MlirOpPassManager opm = mlirPassManagerGetAsOpPassManager(pm);
  MlirLogicalResult r = mlirParsePassPipeline(opm, mlirStringRefCreateFromCString(pipeline), append_message, message);
  if (mlirLogicalResultIsFailure(r)) {
    mlirPassManagerDestroy(pm);
    return diag_error("internal: pass pipeline '%s' does not parse: %s", pipeline, message);
  }
  r = mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module));
  mlirPassManagerDestroy(pm);
  return mlirLogicalResultIsFailure(r) ? -1 : 0;
}

size_t frontend_gpu_modules(MlirModule module, MlirOperation **ops) {
  size_t n = 0, cap = 0;
  *ops = NULL;
  MlirBlock body = mlirModuleGetBody(module);
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
    if (name.length != 10 || memcmp(name.data, "gpu.module", 10) != 0)
      continue;
    if (n == cap) {
      cap = cap ? cap * 2 : 8;
      MlirOperation *grown = realloc(*ops, cap * sizeof **ops);
      if (!grown)
        BUG("out of memory");
      *ops = grown;
    }
    (*ops)[n++] = op;
  }
  return n;
}

char *frontend_symbol_name(MlirOperation op) {
  MlirAttribute a = mlirOperationGetInherentAttributeByName(op, mlirStringRefCreateFromCString("sym_name"));
  if (mlirAttributeIsNull(a) || !mlirAttributeIsAString(a))
    return strdup("");
  MlirStringRef s = mlirStringAttrGetValue(a);
  char *r = malloc(s.length + 1);
  if (!r)
    BUG("out of memory");
  memcpy(r, s.data, s.length);
  r[s.length] = '\0';
  return r;
}
