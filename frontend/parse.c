/* parse.c: reading one input file into a verified module.
 *
 * MLIR's parser verifies after parsing; its errors arrive through the
 * diagnostic handler in context.c. Bytecode is turned into text in a child
 * process first (bytecode.c). What MLIR
 * would silently accept but a user would not mean, an empty file, is an
 * error here, and so is nesting deeper than NESTING_LIMIT. */
#include "frontend.h"

#include "crash.h"
#include "diag.h"
#include "tmp.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>

/* How deep (, [ and { may nest, as clang's -fbracket-depth does (256 there
 * too). Real programs stay far below; without a limit MLIR's parser and
 * every pass after it recurse once per level, and no stack is enough for
 * a fuzzer's 100,000 levels. */
#define NESTING_LIMIT 256

/* Finds the first bracket that opens level NESTING_LIMIT + 1, skipping
 * string literals (with their escapes) and // comments, where brackets
 * mean nothing. Returns 1 with its line and column (bytes, from 1). The
 * scan only counts: unbalanced brackets are the parser's to report. A '<'
 * counts only right after a name (tuple<, memref<, #gpu.x<), so that
 * comparisons do not; '>' only when it is not part of '->' or '>='. A
 * stray '>' lowers the count, so mistakes err towards no error. */
static int too_deep(const char *data, size_t size, unsigned *line, unsigned *col) {
  unsigned l = 1, c = 1;
  long depth = 0;
  for (size_t i = 0; i < size; i++, c++) {
    char ch = data[i];
    if (ch == '\n') {
      l++;
      c = 0;
    } else if (ch == '/' && i + 1 < size && data[i + 1] == '/') {
      while (i + 1 < size && data[i + 1] != '\n')
        i++;
    } else if (ch == '"') {
      for (i++, c++; i < size && data[i] != '"' && data[i] != '\n'; i++, c++)
        if (data[i] == '\\' && i + 1 < size && data[i + 1] != '\n') {
          i++;
          c++;
        }
      if (i < size && data[i] == '\n')
        i--, c--; /* an unterminated string ends at its line */
    } else if (ch == '(' || ch == '[' || ch == '{') {
      if (++depth > NESTING_LIMIT) {
        *line = l;
        *col = c;
        return 1;
      }
    } else if (ch == '<' && i > 0 && (isalnum((unsigned char)data[i - 1]) || data[i - 1] == '_')) {
      if (++depth > NESTING_LIMIT) {
        *line = l;
        *col = c;
        return 1;
      }
    } else if ((ch == ')' || ch == ']' || ch == '}') && depth > 0) {
      depth--;
    } else if (ch == '>' && depth > 0 && !(i > 0 && data[i - 1] == '-') &&
               !(i + 1 < size && data[i + 1] == '=')) {
      depth--;
    }
  }
  return 0;
}

/* MLIR bytecode starts with "ML\xefR" (bytecode.c reads it). */
static int is_bytecode(const char *data, size_t size) {
  return size >= 4 && memcmp(data, "ML\xefR", 4) == 0;
}

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
  ir_alias_file(path, "<stdin>");
  return path;
}

int frontend_parse(const char *path, MlirModule *out) {
  const char *arg = path;
  if (!strcmp(path, "-") && !(path = stdin_copy()))
    return -1;
  const char *shown = ir_display_name(path);
  char quoted[4200];
  snprintf(quoted, sizeof quoted, "'%s'", shown);
  crash_set_input(arg, path);
  crash_set_stage("parsing", quoted);
  FILE *f = fopen(path, "rb");
  if (!f)
    return diag_error("cannot open '%s': %s", path, strerror(errno));
  fclose(f);
  void *data;
  size_t n;
  if (tmp_read_file(path, &data, &n) != 0)
    return -1;
  if (is_bytecode(data, n)) {
    free(data);
    /* Read in a child; what comes back is text, checked as text below. */
    if (frontend_bytecode_to_text(path, shown, &path) != 0 || tmp_read_file(path, &data, &n) != 0)
      return -1;
  }
  int blank = is_blank(data, n);
  unsigned line = 0, col = 0;
  int deep = !blank && too_deep(data, n, &line, &col);
  free(data);
  if (blank) {
    diag_at(DIAG_ERROR, shown, 1, 1, "empty input: no operations to compile");
    return -1;
  }
  if (deep) {
    diag_at(DIAG_ERROR, shown, line, col, "nesting too deep (limit %d)", NESTING_LIMIT);
    return -1;
  }
  if (crash_planted("parse"))
    raise(SIGSEGV);
  MlirModule m = mlirModuleCreateParseFromFile(frontend_context(), mlirStringRefCreateFromCString(path));
  if (mlirModuleIsNull(m)) {
    if (diag_error_count() == 0)
      diag_at(DIAG_ERROR, path, 0, 0, "cannot parse input");
    return -1;
  }
  /* program_load normalizes next; the note stays until a job names its
   * own stage. */
  crash_set_stage("normalizing", quoted);
  *out = m;
  return 0;
}
