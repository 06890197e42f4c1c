/* response_file.c: @FILE arguments (response_file.h). */
#include "response_file.h"

#include "diag.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Deeper nesting than this is taken for a file that names itself. */
#define MAX_DEPTH 16

struct args {
  char **v;
  int n, cap;
};

static void push(struct args *a, char *s) {
  if (a->n + 1 >= a->cap) {
    a->cap = a->cap ? 2 * a->cap : 64;
    a->v = realloc(a->v, (size_t)a->cap * sizeof *a->v);
    if (!a->v)
      BUG("out of memory");
  }
  a->v[a->n++] = s;
  a->v[a->n] = NULL;
}

static int add(struct args *a, const char *arg, int depth);

/* The arguments of file `path` (text, size bytes), each added in turn. */
static int add_text(struct args *a, const char *path, const char *text, size_t size, int depth) {
  char *word = malloc(size + 1);
  if (!word)
    BUG("out of memory");
  size_t i = 0;
  while (i < size) {
    while (i < size && isspace((unsigned char)text[i]))
      i++;
    if (i == size)
      break;
    size_t len = 0;
    char quote = 0;
    for (; i < size && (quote || !isspace((unsigned char)text[i])); i++) {
      char c = text[i];
      if (c == '\\' && i + 1 < size) {
        word[len++] = text[++i];
      } else if (quote && c == quote) {
        quote = 0;
      } else if (!quote && (c == '\'' || c == '"')) {
        quote = c;
      } else {
        word[len++] = c;
      }
    }
    if (quote) {
      free(word);
      return diag_error("response file '%s': unterminated %s quote", path,
                        quote == '"' ? "double" : "single");
    }
    word[len] = '\0';
    if (add(a, word, depth + 1) != 0) {
      free(word);
      return -1;
    }
  }
  free(word);
  return 0;
}

/* Reads response file `path` into a, or returns 1 when it cannot be opened
 * and `optional` (an @FILE that is then an ordinary argument). */
static int add_file(struct args *a, const char *path, int depth, int optional) {
  if (depth > MAX_DEPTH)
    return diag_error("response file '%s' nested more than %d deep (does it include itself?)", path,
                      MAX_DEPTH);
  FILE *f = fopen(path, "rb");
  if (!f) {
    if (optional)
      return 1;
    return diag_error("cannot read options file '%s': %s", path, strerror(errno));
  }
  char *text = NULL;
  size_t size = 0, cap = 0;
  for (;;) {
    if (size == cap) {
      cap = cap ? 2 * cap : 4096;
      text = realloc(text, cap);
      if (!text)
        BUG("out of memory");
    }
    size_t got = fread(text + size, 1, cap - size, f);
    size += got;
    if (got == 0)
      break;
  }
  int bad = ferror(f);
  fclose(f);
  if (bad) {
    free(text);
    return diag_error("cannot read response file '%s'", path);
  }
  int rc = add_text(a, path, text, size, depth);
  free(text);
  return rc;
}

static char *copy(const char *s) {
  char *c = strdup(s);
  if (!c)
    BUG("out of memory");
  return c;
}

static int add(struct args *a, const char *arg, int depth) {
  if (arg[0] == '@' && arg[1]) {
    int rc = add_file(a, arg + 1, depth, 1);
    if (rc <= 0)
      return rc;
  }
  push(a, copy(arg));
  return 0;
}

int response_files_expand(int argc, char **argv, int *out_argc, char ***out_argv) {
  struct args a = {0};
  push(&a, copy(argc > 0 ? argv[0] : "gpucc"));
  for (int i = 1; i < argc; i++) {
    const char *file = NULL;
    if (!strcmp(argv[i], "--options-file") || !strcmp(argv[i], "-optf")) {
      if (i + 1 >= argc)
        return diag_error("missing argument to '%s'", argv[i]);
      file = argv[++i];
    } else if (!strncmp(argv[i], "--options-file=", 15)) {
      file = argv[i] + 15;
    }
    if (file ? add_file(&a, file, 1, 0) != 0 : add(&a, argv[i], 0) != 0)
      return -1;
  }
  *out_argc = a.n;
  *out_argv = a.v;
  return 0;
}
