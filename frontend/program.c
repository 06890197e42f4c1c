/* program.c: an MLIR input as the driver holds it; see program.h. */
#include "program.h"

#include "diag.h"
#include "frontend.h"

#include <mlir-c/BuiltinAttributes.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct program {
  MlirModule module;
  size_t nmodules;
  MlirOperation *mods; /* the top-level gpu.modules */
  char **names;
};

int program_load(const char *path, struct program **out) {
  struct program *p = calloc(1, sizeof *p);
  if (!p)
    BUG("out of memory");
  if (frontend_parse(path, &p->module) != 0 || frontend_normalize(p->module) != 0) {
    free(p);
    return -1;
  }
  p->nmodules = frontend_gpu_modules(p->module, &p->mods);
  p->names = calloc(p->nmodules + 1, sizeof *p->names);
  if (!p->names)
    BUG("out of memory");
  for (size_t m = 0; m < p->nmodules; m++)
    p->names[m] = frontend_symbol_name(p->mods[m]);
  *out = p;
  return 0;
}

MlirModule program_mlir(const struct program *p) { return p->module; }

size_t program_module_count(const struct program *p) { return p->nmodules; }

const char *program_module_name(const struct program *p, size_t m) { return p->names[m]; }

char *program_text(const struct program *p, size_t *len) {
  return frontend_print_op(mlirModuleGetOperation(p->module), 0, len);
}

char *program_module_text(const struct program *p, size_t m, int debug_info, size_t *len) {
  return frontend_print_op(p->mods[m], debug_info, len);
}

int program_defines(const struct program *p, const char *name) {
  MlirStringRef want = mlirStringRefCreateFromCString(name);
  for (MlirOperation op = mlirBlockGetFirstOperation(mlirModuleGetBody(p->module)); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    MlirStringRef kind = mlirIdentifierStr(mlirOperationGetName(op));
    int is_func = (kind.length == 9 && memcmp(kind.data, "func.func", 9) == 0) ||
                  (kind.length == 9 && memcmp(kind.data, "llvm.func", 9) == 0);
    MlirAttribute sym = mlirOperationGetInherentAttributeByName(op, mlirStringRefCreateFromCString("sym_name"));
    if (!is_func || mlirAttributeIsNull(sym) || !mlirStringRefEqual(mlirStringAttrGetValue(sym), want))
      continue;
    MlirRegion body = mlirOperationGetRegion(op, 0);
    if (!mlirBlockIsNull(mlirRegionGetFirstBlock(body)))
      return 1; /* a body: a definition */
  }
  return 0;
}

int program_write(const struct program *p, const char *path) {
  return frontend_write_op(mlirModuleGetOperation(p->module), path);
}

static void write_chunk(MlirStringRef s, void *ud) { fwrite(s.data, 1, s.length, ud); }

int frontend_write_op(MlirOperation op, const char *path) {
  FILE *f = fopen(path, "w");
  if (!f)
    return diag_error("cannot open '%s' for writing: %s", path, strerror(errno));
  mlirOperationPrint(op, write_chunk, f);
  fputc('\n', f);
  int bad = fflush(f) != 0 || ferror(f);
  if (fclose(f) != 0 || bad)
    return diag_error("cannot write '%s'", path);
  return 0;
}
