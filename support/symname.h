/* symname.h: gpu.module and kernel names that every object can carry.
 *
 * MLIR lets a symbol be any string (@"my mod", @"a.b", @"é", @"k\00x", @"");
 * PTX, AMD assembly, ELF symbol versions (an '@'), C strings (a NUL) and
 * file names ('/') cannot take most of them. So the frontend renames such a
 * gpu.module or kernel once, before anything is made of it, to its mangled
 * form, and everything downstream (objects, fat-binary members and manifest
 * lines, temp and --emit file names, the host code that looks kernels up)
 * sees only names made of [A-Za-z0-9_]. Messages meant for people show the
 * program's own spelling again (symname_display).
 *
 * A name is kept as it is when it matches [A-Za-z_][A-Za-z0-9_]*, is not
 * "_" alone (PTX takes no such identifier) and does not contain "__gpucc"
 * (gpucc's own symbols, and the host backend's entry points K__gpucc_thread
 * and the like, use that). Any other name becomes SYMNAME_PREFIX followed by
 * each of its bytes: a letter or digit as itself, '_' as "__", any other
 * byte as '_' and two uppercase hex digits. The code is prefix-free and kept
 * names never start with the prefix, so two names never get one mangled
 * name, and it is reversed exactly. Past its prefix a '_' is followed by
 * '_' or an uppercase hex digit, never by a lowercase letter as in the names
 * gpucc makes ("__gpucc_thread", "__gpucc_ipowi_i32"), so no mangled name
 * is one of those or one made by adding such a suffix to another.
 *
 * Header-only, libc only: the compiler side, the runtime (which links no
 * support library) and gpucc-fatbin all use it. Functions returning a string
 * return a malloc'ed one that the caller frees, or NULL when out of memory. */
#ifndef GPUCC_SYMNAME_H
#define GPUCC_SYMNAME_H

#include <stdlib.h>
#include <string.h>

#define SYMNAME_PREFIX "__gpucc__"
#define SYMNAME_PREFIX_LEN (sizeof SYMNAME_PREFIX - 1)

static inline int symname_alnum(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/* Whether the name (len bytes, NULs allowed) is kept as it is. */
static inline int symname_is_plain(const char *name, size_t len) {
  if (len == 0 || (len == 1 && name[0] == '_'))
    return 0;
  if (name[0] >= '0' && name[0] <= '9')
    return 0;
  for (size_t i = 0; i < len; i++) {
    unsigned char c = (unsigned char)name[i];
    if (!symname_alnum(c) && c != '_')
      return 0;
    if (c == '_' && len - i >= 7 && memcmp(name + i, "__gpucc", 7) == 0)
      return 0;
  }
  return 1;
}

/* The name as objects carry it: itself when plain, else mangled.
 * NUL-terminated. */
static inline char *symname_mangle(const char *name, size_t len) {
  int plain = symname_is_plain(name, len);
  if (len > ((size_t)-1 - SYMNAME_PREFIX_LEN - 1) / 3)
    return NULL;
  char *out = malloc(plain ? len + 1 : SYMNAME_PREFIX_LEN + 3 * len + 1);
  if (!out)
    return NULL;
  if (plain) {
    memcpy(out, name, len);
    out[len] = '\0';
    return out;
  }
  static const char hex[] = "0123456789ABCDEF";
  char *o = out;
  memcpy(o, SYMNAME_PREFIX, SYMNAME_PREFIX_LEN);
  o += SYMNAME_PREFIX_LEN;
  for (size_t i = 0; i < len; i++) {
    unsigned char c = (unsigned char)name[i];
    if (symname_alnum(c)) {
      *o++ = (char)c;
    } else {
      *o++ = '_';
      if (c == '_') {
        *o++ = '_';
      } else {
        *o++ = hex[c >> 4];
        *o++ = hex[c & 15];
      }
    }
  }
  *o = '\0';
  return out;
}

static inline int symname_hex(char c) {
  return c >= '0' && c <= '9' ? c - '0' : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* The name a mangled symbol stands for: *len bytes (NULs allowed, and a NUL
 * after them). NULL when sym is not a mangled name (a plain one stands for
 * itself; one that merely looks mangled, for itself too) or out of memory. */
static inline char *symname_demangle(const char *sym, size_t *len) {
  size_t n = strlen(sym);
  if (n < SYMNAME_PREFIX_LEN || memcmp(sym, SYMNAME_PREFIX, SYMNAME_PREFIX_LEN) != 0)
    return NULL;
  char *out = malloc(n + 1);
  if (!out)
    return NULL;
  size_t k = 0;
  for (size_t i = SYMNAME_PREFIX_LEN; i < n; i++) {
    if (symname_alnum((unsigned char)sym[i])) {
      out[k++] = sym[i];
    } else if (sym[i] == '_' && sym[i + 1] == '_') {
      out[k++] = '_';
      i++;
    } else if (sym[i] == '_' && symname_hex(sym[i + 1]) >= 0 && symname_hex(sym[i + 2]) >= 0) {
      out[k++] = (char)(symname_hex(sym[i + 1]) * 16 + symname_hex(sym[i + 2]));
      i += 2;
    } else {
      free(out);
      return NULL;
    }
  }
  /* Only what symname_mangle makes: a plain name never is mangled. */
  if (symname_is_plain(out, k)) {
    free(out);
    return NULL;
  }
  out[k] = '\0';
  *len = k;
  return out;
}

/* The program's spelling of symbol sym, for messages: the name it stands
 * for with the bytes a terminal should not get raw (below 0x20, 0x7f) and
 * '\' written as MLIR does, "\XX"; with `quoted`, a name that needed
 * mangling also in MLIR's quotes ("my mod"), '"' as \22, so that
 * '@' + it is how the program wrote it. UTF-8 stays as it is. */
static inline char *symname_display(const char *sym, int quoted) {
  size_t len;
  char *name = symname_demangle(sym, &len);
  int mangled = name != NULL;
  if (!mangled) {
    len = strlen(sym);
    name = malloc(len + 1);
    if (!name)
      return NULL;
    memcpy(name, sym, len + 1);
  }
  quoted = quoted && mangled;
  char *out = malloc(4 * len + 3);
  if (out) {
    static const char hex[] = "0123456789ABCDEF";
    char *o = out;
    if (quoted)
      *o++ = '"';
    for (size_t i = 0; i < len; i++) {
      unsigned char c = (unsigned char)name[i];
      if (c < 0x20 || c == 0x7f || c == '\\' || (quoted && c == '"')) {
        *o++ = '\\';
        *o++ = hex[c >> 4];
        *o++ = hex[c & 15];
      } else {
        *o++ = (char)c;
      }
    }
    if (quoted)
      *o++ = '"';
    *o = '\0';
  }
  free(name);
  return out;
}

#endif
