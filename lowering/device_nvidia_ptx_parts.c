/* device_nvidia_ptx_parts.c: PTX in parts; see device_nvidia_ptx_parts.h.
 *
 * ptxas compiles one module on one core; a module of many kernels is the
 * longest step of a one-target build. Parts compiled at once and joined by
 * nvlink take the time of the largest part plus nvlink's (bench.compile's
 * 64 kernels on two cores: 0.18 s whole, 0.13 s in two parts). The kernels
 * come out as ptxas makes them (the relocatable objects differ from a
 * whole compile only in how parameters are addressed before linking).
 *
 * The PTX is read as a sequence of top-level items: a directive that ends
 * with its line (.version, .target, .address_size, .file), or a
 * declaration or definition that ends with a ';' or with the '}' that
 * closes its body, at nesting depth zero. Comments and strings are skipped
 * while scanning; the comments before an item belong to it. */
#include "device_nvidia_ptx_parts.h"

#include "diag.h"

#include <stdlib.h>
#include <string.h>

enum item_kind {
  ITEM_HEADER, /* .version, .target, .address_size: every part, even empty ones */
  ITEM_SHARED, /* copied into every part */
  ITEM_ENTRY,  /* a kernel: one part */
  ITEM_BLOCKER /* cannot be copied: no split */
};

struct item {
  size_t begin, end;
  enum item_kind kind;
};

struct scan {
  const char *s;
  size_t size, pos;
};

static int at(const struct scan *sc, const char *word) {
  size_t n = strlen(word);
  return sc->pos + n <= sc->size && !memcmp(sc->s + sc->pos, word, n);
}

/* Skips a comment or a string at pos, if one starts there. Returns 0 when
 * none does, -1 when it does not end. */
static int skip_comment_or_string(struct scan *sc) {
  if (at(sc, "//")) {
    while (sc->pos < sc->size && sc->s[sc->pos] != '\n')
      sc->pos++;
    return 1;
  }
  if (at(sc, "/*")) {
    const char *end = NULL;
    for (size_t i = sc->pos + 2; i + 1 < sc->size && !end; i++)
      if (sc->s[i] == '*' && sc->s[i + 1] == '/')
        end = sc->s + i;
    if (!end)
      return -1;
    sc->pos = (size_t)(end - sc->s) + 2;
    return 1;
  }
  if (sc->s[sc->pos] == '"') {
    for (sc->pos++; sc->pos < sc->size && sc->s[sc->pos] != '"'; sc->pos++)
      if (sc->s[sc->pos] == '\\')
        sc->pos++;
    if (sc->pos >= sc->size)
      return -1;
    sc->pos++;
    return 1;
  }
  return 0;
}

static int is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

/* Skips white space and comments. -1: a comment that does not end. */
static int skip_blank(struct scan *sc) {
  while (sc->pos < sc->size) {
    if (is_space(sc->s[sc->pos])) {
      sc->pos++;
      continue;
    }
    if (sc->s[sc->pos] == '"')
      return 0;
    int r = skip_comment_or_string(sc);
    if (r < 0)
      return -1;
    if (r == 0)
      return 0;
  }
  return 0;
}

/* Whether the item's head (its text up to its first '(', '{', '=' or ';')
 * has the directive word, as a whole word. */
static int head_has(const char *s, size_t begin, size_t end, const char *word) {
  size_t n = strlen(word);
  for (size_t i = begin; i + n <= end; i++) {
    char c = s[i];
    if (c == '(' || c == '{' || c == '=' || c == ';')
      return 0;
    if (!memcmp(s + i, word, n) && (i + n == end || !(s[i + n] == '_' || s[i + n] == '.' ||
                                                      (s[i + n] >= 'a' && s[i + n] <= 'z') ||
                                                      (s[i + n] >= '0' && s[i + n] <= '9'))))
      return 1;
  }
  return 0;
}

static enum item_kind classify(const char *s, size_t begin, size_t end) {
  if (head_has(s, begin, end, ".section"))
    return ITEM_BLOCKER;
  if (head_has(s, begin, end, ".entry"))
    return head_has(s, begin, end, ".weak") || head_has(s, begin, end, ".common") ? ITEM_BLOCKER
                                                                                   : ITEM_ENTRY;
  if (head_has(s, begin, end, ".extern"))
    return ITEM_SHARED;
  if (head_has(s, begin, end, ".visible") || head_has(s, begin, end, ".weak") ||
      head_has(s, begin, end, ".common") || head_has(s, begin, end, ".global"))
    return ITEM_BLOCKER;
  if (head_has(s, begin, end, ".func") || head_has(s, begin, end, ".const") ||
      head_has(s, begin, end, ".shared"))
    return ITEM_SHARED;
  return ITEM_BLOCKER; /* what it does not know, it does not copy */
}

/* The next item from sc->pos (its comments first); *done at the end of
 * the text. Returns 0, or -1 when the text cannot be read as items. */
static int next_item(struct scan *sc, struct item *it, int *done) {
  it->begin = sc->pos;
  if (skip_blank(sc) != 0)
    return -1;
  if (sc->pos >= sc->size) {
    *done = 1;
    return 0;
  }
  static const char *const line_directives[] = {".version", ".target", ".address_size", ".file"};
  for (size_t i = 0; i < sizeof line_directives / sizeof line_directives[0]; i++)
    if (at(sc, line_directives[i])) {
      while (sc->pos < sc->size && sc->s[sc->pos] != '\n')
        sc->pos++;
      it->end = sc->pos;
      it->kind = i < 3 ? ITEM_HEADER : ITEM_SHARED;
      return 0;
    }
  size_t head = sc->pos;
  int depth = 0;
  while (sc->pos < sc->size) {
    int r = skip_comment_or_string(sc);
    if (r < 0)
      return -1;
    if (r > 0)
      continue;
    char c = sc->s[sc->pos++];
    if (c == '{' || c == '(' || c == '[')
      depth++;
    else if (c == '}' || c == ')' || c == ']') {
      if (--depth < 0)
        return -1;
      if (depth == 0 && c == '}') {
        /* A body ends the item; an initializer's '}' comes before its ';'. */
        size_t p = sc->pos;
        while (p < sc->size && (sc->s[p] == ' ' || sc->s[p] == '\t'))
          p++;
        if (p < sc->size && sc->s[p] == ';')
          continue;
        break;
      }
    } else if (c == ';' && depth == 0)
      break;
  }
  if (depth != 0)
    return -1;
  it->end = sc->pos;
  it->kind = classify(sc->s, head, it->end);
  return 0;
}

static void append(char **buf, size_t *len, const char *s, size_t n) {
  char *grown = realloc(*buf, *len + n + 1);
  if (!grown)
    BUG("out of memory");
  memcpy(grown + *len, s, n);
  *len += n;
  grown[*len] = '\0';
  *buf = grown;
}

size_t nvidia_ptx_parts(const char *ptx, size_t size, size_t n, char **parts, size_t *sizes) {
  struct item *items = NULL;
  size_t nitems = 0, entries = 0;
  int blocked = 0, done = 0;
  struct scan sc = {ptx, size, 0};
  while (!done && !blocked) {
    struct item it;
    if (next_item(&sc, &it, &done) != 0) {
      blocked = 1;
      break;
    }
    if (done)
      break;
    struct item *grown = realloc(items, (nitems + 1) * sizeof *items);
    if (!grown)
      BUG("out of memory");
    items = grown;
    items[nitems++] = it;
    entries += it.kind == ITEM_ENTRY;
    blocked |= it.kind == ITEM_BLOCKER;
  }
  size_t tail = sc.pos; /* what follows the last item: part 0's */
  for (size_t i = 0; i < n; i++) {
    parts[i] = NULL;
    sizes[i] = 0;
    append(&parts[i], &sizes[i], "", 0);
  }
  size_t filled = 0;
  if (blocked || entries == 0) {
    append(&parts[0], &sizes[0], ptx, size);
    for (size_t i = 1; i < n; i++)
      for (size_t k = 0; k < nitems; k++)
        if (items[k].kind == ITEM_HEADER)
          append(&parts[i], &sizes[i], ptx + items[k].begin, items[k].end - items[k].begin);
    filled = 1;
  } else {
    size_t e = 0, last = n; /* the part that got the previous kernel */
    for (size_t k = 0; k < nitems; k++) {
      const struct item *it = &items[k];
      if (it->kind == ITEM_ENTRY) {
        /* Kernel e goes to the part whose contiguous share holds it. */
        size_t part = e * n / entries;
        append(&parts[part], &sizes[part], ptx + it->begin, it->end - it->begin);
        filled += part != last;
        last = part;
        e++;
        continue;
      }
      for (size_t i = 0; i < n; i++)
        append(&parts[i], &sizes[i], ptx + it->begin, it->end - it->begin);
    }
    append(&parts[0], &sizes[0], ptx + tail, size - tail);
  }
  for (size_t i = 0; i < n; i++)
    append(&parts[i], &sizes[i], "\n", 1);
  free(items);
  return filled;
}
