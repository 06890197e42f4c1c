/* print.c: operations and diagnostics as text: in memory (cache keys, the
 * blob tag, messages) or into a file. */
#include "ir.h"

#include "diag.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

char *ir_print_op(MlirOperation op, int debug_info, size_t *len) {
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

char *ir_diagnostic_text(MlirDiagnostic d) {
  struct strbuf b = {0};
  mlirDiagnosticPrint(d, strbuf_append, &b);
  return b.data;
}

static void write_chunk(MlirStringRef s, void *ud) { fwrite(s.data, 1, s.length, ud); }

int ir_write_op(MlirOperation op, const char *path) {
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
