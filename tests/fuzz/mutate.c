/* mutate.c: one mutant of an MLIR program, for the gpucc fuzz run.
 *
 *   mutate KIND SEED < program.mlir > mutant.mlir
 *
 * KIND is one of flip, delete, dupline, swap, deep, longid, and for
 * bytecode truncate and varint (flip and delete are byte-level too); SEED picks
 * where and how, so that the same (input, KIND, SEED) always gives the
 * same mutant and a finding reproduces from the line fuzz.sh prints. The
 * mutations are the ones that found bugs before (issue 13): random bytes,
 * lost text, repeated lines, tokens out of order, nesting far deeper than
 * any real program (MLIR's parser recurses), identifiers longer than any
 * fixed buffer. Exit 0, or 2 for bad usage or an unreadable input. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng;
static uint64_t next(void) { /* xorshift64*: small, and the same everywhere */
  rng ^= rng >> 12;
  rng ^= rng << 25;
  rng ^= rng >> 27;
  return rng * 0x2545f4914f6cdd1dull;
}
static size_t below(size_t n) { return n ? (size_t)(next() % n) : 0; }

static void put(const char *p, size_t n) { fwrite(p, 1, n, stdout); }

static int is_ident(int c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         c == '_' || c == '.' || c == '$';
}

/* The start and length of a random token (an identifier-like run, or one
 * other non-space byte) at or after a random offset; 0 when there is none. */
static size_t token(const char *s, size_t n, size_t *at) {
  for (size_t i = below(n); i < n; i++) {
    if (s[i] == ' ' || s[i] == '\n' || s[i] == '\t')
      continue;
    size_t j = i + 1;
    if (is_ident((unsigned char)s[i]))
      while (j < n && is_ident((unsigned char)s[j]))
        j++;
    *at = i;
    return j - i;
  }
  return 0;
}

/* A random line start. */
static size_t line_start(const char *s, size_t n) {
  size_t i = below(n);
  while (i > 0 && s[i - 1] != '\n')
    i--;
  return i;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: mutate flip|delete|dupline|swap|deep|longid|truncate|varint SEED < in > out\n");
    return 2;
  }
  const char *kind = argv[1];
  rng = strtoull(argv[2], NULL, 10) * 0x9e3779b97f4a7c15ull + 1;
  for (int i = 0; i < 4; i++)
    next();
  size_t cap = 1 << 16, n = 0;
  char *s = malloc(cap);
  for (size_t r; s && (r = fread(s + n, 1, cap - n, stdin)) > 0;) {
    n += r;
    if (n == cap)
      s = realloc(s, cap *= 2);
  }
  if (!s || ferror(stdin) || n == 0) {
    fprintf(stderr, "mutate: cannot read the input\n");
    return 2;
  }

  if (strcmp(kind, "flip") == 0) {
    /* 1 to 4 bytes get a random bit, or a random value. */
    for (size_t k = 1 + below(4); k > 0; k--) {
      size_t i = below(n);
      s[i] = next() & 1 ? (char)(s[i] ^ (1u << below(8))) : (char)below(256);
    }
    put(s, n);
  } else if (strcmp(kind, "truncate") == 0) {
    /* Cut short anywhere after the first 4 bytes (bytecode's magic). */
    put(s, n > 4 ? 4 + below(n - 4) : n);
  } else if (strcmp(kind, "varint") == 0) {
    /* 1 to 3 runs of 0xff or 0x80 bytes: bytecode's varints (lengths,
     * counts, offsets) then read as huge numbers or never end. */
    for (size_t k = 1 + below(3); k > 0; k--) {
      size_t i = below(n), len = 1 + below(9);
      char b = next() & 1 ? (char)0xff : (char)0x80;
      for (size_t j = i; j < n && j < i + len; j++)
        s[j] = b;
    }
    put(s, n);
  } else if (strcmp(kind, "delete") == 0) {
    size_t i = below(n), len = 1 + below(next() & 1 ? 8 : 200);
    if (len > n - i)
      len = n - i;
    put(s, i);
    put(s + i + len, n - i - len);
  } else if (strcmp(kind, "dupline") == 0) {
    size_t i = line_start(s, n), j = i;
    while (j < n && s[j] != '\n')
      j++;
    if (j < n)
      j++;
    put(s, j);
    for (size_t k = 1 + below(3); k > 0; k--)
      put(s + i, j - i);
    put(s + j, n - j);
  } else if (strcmp(kind, "swap") == 0) {
    size_t a, b, la = token(s, n, &a), lb = token(s, n, &b);
    if (!la || !lb || a == b) {
      put(s, n);
    } else {
      if (a > b) {
        size_t t = a; a = b; b = t;
        t = la; la = lb; lb = t;
      }
      if (a + la > b) /* overlapping: swap with what follows instead */
        b = a + la, lb = 0;
      put(s, a);
      put(s + b, lb);
      put(s + a + la, b - a - la);
      put(s + a, la);
      put(s + b + lb, n - b - lb);
    }
  } else if (strcmp(kind, "deep") == 0) {
    /* Thousands of nested regions or brackets before a random line. */
    size_t depth = 2000 + below(6000), i = line_start(s, n);
    put(s, i);
    switch (below(3)) {
    case 0: /* nested scf.if on a constant condition, in a function body */
      fputs("%fuzz_c = arith.constant true\n", stdout);
      for (size_t k = 0; k < depth; k++)
        fputs("scf.if %fuzz_c {\n", stdout);
      for (size_t k = 0; k < depth; k++)
        fputs("}\n", stdout);
      break;
    case 1: /* an attribute nested as deep */
      fputs("%fuzz_a = arith.constant {fuzz = ", stdout);
      for (size_t k = 0; k < depth; k++)
        putchar('[');
      putchar('1');
      for (size_t k = 0; k < depth; k++)
        putchar(']');
      fputs("} 0 : i32\n", stdout);
      break;
    default: /* brackets that never close */
      for (size_t k = 0; k < depth; k++)
        fputs("({[", stdout);
      putchar('\n');
    }
    put(s + i, n - i);
  } else if (strcmp(kind, "longid") == 0) {
    /* Every use of one @symbol or %value grows to thousands of characters,
     * consistently, so that the program may still be valid. */
    size_t at = 0;
    for (size_t tries = 0; tries < 64; tries++) {
      size_t i = below(n);
      while (i < n && s[i] != '@' && s[i] != '%')
        i++;
      if (i < n) {
        at = i;
        break;
      }
    }
    size_t e = at + 1;
    while (e < n && is_ident((unsigned char)s[e]))
      e++;
    if (s[at] != '@' && s[at] != '%') {
      put(s, n);
      return fflush(stdout) || ferror(stdout) ? 1 : 0;
    }
    size_t len = e - at, grow = 250 + below(5000);
    for (size_t i = 0; i < n;) {
      if (i + len <= n && memcmp(s + i, s + at, len) == 0 &&
          (i + len == n || !is_ident((unsigned char)s[i + len]))) {
        put(s + i, len);
        for (size_t k = 0; k < grow; k++)
          putchar('x');
        i += len;
      } else {
        putchar(s[i++]);
      }
    }
  } else {
    fprintf(stderr, "mutate: unknown kind '%s'\n", kind);
    return 2;
  }
  free(s);
  return fflush(stdout) || ferror(stdout) ? 1 : 0;
}
