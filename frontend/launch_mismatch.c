/* launch_mismatch.c: what MLIR's "type of function argument N does not
 * match" leaves out, the two types.
 *
 * The check is MLIR's (the gpu.container_module verifier, while parsing),
 * and a module that fails verification is gone before gpucc sees it, so the
 * types come from what is left: the launch as the verifier's note prints it
 * in generic form (its operand types, and which of them are the kernel's
 * by operandSegmentSizes, whose second-last segment is kernelOperands) and
 * the kernel's signature in the source text (`gpu.module @k` ... `@f(` up to
 * the matching ')', the N-th parameter's type as written). Whatever does not
 * read as expected leaves MLIR's message as it is: this only adds words. */
#include "launch_mismatch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MISMATCH "'gpu.launch_func' op type of function argument "

/* Bracket depth through (), [], {} and <>, with '->' not closing and
 * string literals skipped. Returns the position after s[i]'s token. */
static size_t step(const char *s, size_t i, int *depth) {
  char c = s[i];
  if (c == '"') {
    for (i++; s[i] && s[i] != '"'; i++)
      if (s[i] == '\\' && s[i + 1])
        i++;
    return s[i] ? i + 1 : i;
  }
  if (c == '(' || c == '[' || c == '{' || c == '<')
    ++*depth;
  else if ((c == ')' || c == ']' || c == '}' || (c == '>' && !(i > 0 && s[i - 1] == '-'))) && *depth > 0)
    --*depth;
  return i + 1;
}

/* Where the bracket opened at s[open] closes, or NULL. */
static const char *closing(const char *s, size_t open) {
  int depth = 0;
  for (size_t i = open; s[i];) {
    i = step(s, i, &depth);
    if (depth == 0)
      return s + i - 1;
  }
  return NULL;
}

/* The n-th (from 0) top-level comma-separated item of s[0, len), trimmed,
 * malloc'ed; NULL when there are fewer. */
static char *item(const char *s, size_t len, size_t n) {
  char *copy = strndup(s, len);
  if (!copy)
    return NULL;
  len = strlen(copy);
  size_t start = 0, k = 0;
  int depth = 0;
  for (size_t i = 0; i <= len;) {
    if (i == len || (copy[i] == ',' && depth == 0)) {
      if (k++ == n) {
        while (start < i && (copy[start] == ' ' || copy[start] == '\n' || copy[start] == '\t'))
          start++;
        while (i > start && (copy[i - 1] == ' ' || copy[i - 1] == '\n' || copy[i - 1] == '\t'))
          i--;
        char *r = strndup(copy + start, i - start);
        free(copy);
        return r;
      }
      start = ++i;
      continue;
    }
    i = step(copy, i, &depth);
  }
  free(copy);
  return NULL;
}

/* The type of kernel operand n from the verifier's generic form of the
 * launch: `"gpu.launch_func"(...) <{kernel = @k::@f, operandSegmentSizes =
 * array<i32: ...>}> : (types) -> ()`. Also the kernel's symbol. */
static char *actual_type(const char *op, size_t n, char **kernel) {
  const char *segs = strstr(op, "operandSegmentSizes = array<i32:");
  const char *sym = strstr(op, "kernel = @");
  if (!segs || !sym)
    return NULL;
  size_t counts[32], nsegs = 0;
  for (const char *p = segs + strlen("operandSegmentSizes = array<i32:"); nsegs < 32;) {
    char *end;
    unsigned long v = strtoul(p, &end, 10);
    if (end == p)
      return NULL;
    counts[nsegs++] = v;
    p = end + strspn(end, " ");
    if (*p != ',')
      break;
    p++;
  }
  if (nsegs < 2)
    return NULL;
  size_t at = n;
  for (size_t i = 0; i + 2 < nsegs; i++)
    at += counts[i];
  if (n >= counts[nsegs - 2])
    return NULL;
  /* The function type: the first top-level " : (" after the op's name. */
  int depth = 0;
  const char *types = NULL;
  for (size_t i = strlen("\"gpu.launch_func\""); op[i] && !types;) {
    if (depth == 0 && !strncmp(op + i, " : (", 4))
      types = op + i + 3;
    else
      i = step(op, i, &depth);
  }
  const char *close = types ? closing(types, 0) : NULL;
  if (!close)
    return NULL;
  sym += strlen("kernel = ");
  size_t symlen = 0;
  for (int d = 0; sym[symlen] && !(d == 0 && (sym[symlen] == ',' || sym[symlen] == '}'));)
    symlen = step(sym, symlen, &d);
  *kernel = strndup(sym, symlen);
  return item(types + 1, (size_t)(close - types - 1), at);
}

static char *read_text(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  size_t cap = 1 << 16, len = 0;
  char *s = malloc(cap);
  for (size_t got; s && (got = fread(s + len, 1, cap - len - 1, f)) > 0;) {
    len += got;
    if (cap - len - 1 == 0) {
      char *g = realloc(s, cap *= 2);
      if (!g)
        free(s);
      s = g;
    }
  }
  fclose(f);
  if (s)
    s[len] = '\0';
  return s;
}

/* `name` at p, followed by something that cannot continue a symbol. */
static int symbol_at(const char *p, const char *name) {
  size_t n = strlen(name);
  return !strncmp(p, name, n) && (p[n] == '(' || p[n] == ' ' || p[n] == '{' || p[n] == '[' ||
                                  p[n] == '<' || p[n] == '\n' || p[n] == '\t' || p[n] == '\r');
}

/* Parameter n's type as written in the kernel's signature in the source:
 * `gpu.module @k` ... `@f(%a: f32 {attrs}, ...)` (or `@f(f32, ...)`). */
static char *expected_type(const char *path, const char *kernel, size_t n) {
  const char *sep = strstr(kernel, "::");
  if (!sep || kernel[0] != '@')
    return NULL;
  char *module = strndup(kernel, (size_t)(sep - kernel)), *func = strdup(sep + 2);
  char *text = read_text(path), *type = NULL;
  const char *body = NULL, *end = NULL;
  for (const char *p = text; p && (p = strstr(p, "gpu.module")) && !body; p++) {
    const char *q = p + strlen("gpu.module");
    q += strspn(q, " \t");
    if (module && symbol_at(q, module) && (body = strchr(q, '{')))
      end = closing(body, 0);
  }
  /* The definition: "func @f(" (gpu.func, func.func, llvm.func), not a
   * call of it. */
  for (const char *p = body; p && end && func && (p = strstr(p, func)) && p < end && !type; p++) {
    if (p - body < 5 || strncmp(p - 5, "func ", 5) != 0 || p[strlen(func)] != '(')
      continue;
    const char *open = p + strlen(func), *close = closing(open, 0);
    char *param = close ? item(open + 1, (size_t)(close - open - 1), n) : NULL;
    if (!param)
      break;
    const char *t = param;
    if (t[0] == '%') { /* "%a: f32 {attrs} loc(...)": after the first top-level ':' */
      int depth = 0;
      size_t i = 0;
      while (t[i] && !(depth == 0 && t[i] == ':'))
        i = step(t, i, &depth);
      t = t[i] ? t + i + 1 + strspn(t + i + 1, " \t") : NULL;
    }
    if (t) {
      int depth = 0;
      size_t i = 0, last = 0;
      while (t[i] && !(depth == 0 && (t[i] == '{' || !strncmp(t + i, " loc(", 5)))) {
        i = step(t, i, &depth);
        if (t[i - 1] != ' ')
          last = i;
      }
      type = last ? strndup(t, last) : NULL;
    }
    free(param);
  }
  free(text);
  free(module);
  free(func);
  return type;
}

char *frontend_launch_mismatch_explained(const char *message, const char *op_note, const char *source) {
  unsigned n;
  int used = 0;
  if (strncmp(message, MISMATCH, strlen(MISMATCH)) != 0 || !op_note ||
      sscanf(message + strlen(MISMATCH), "%u does not match%n", &n, &used) != 1 ||
      message[strlen(MISMATCH) + (size_t)used] != '\0')
    return NULL;
  const char *op = strstr(op_note, "\"gpu.launch_func\"");
  char *kernel = NULL;
  char *got = op ? actual_type(op, n, &kernel) : NULL;
  char *want = got && kernel && source ? expected_type(source, kernel, n) : NULL;
  char *r = NULL;
  if (got && want && asprintf(&r, "%s: expected %s, got %s", message, want, got) < 0)
    r = NULL;
  else if (got && !want && asprintf(&r, "%s: got %s", message, got) < 0)
    r = NULL;
  free(kernel);
  free(got);
  free(want);
  return r;
}
