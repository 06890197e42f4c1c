/* symname_test.c: the symbol-name code of support/symname.h.
 *
 * Plain names stay as they are; every other name, random byte strings with
 * a fixed seed included, comes back exactly from its mangled form, which is
 * made of [A-Za-z0-9_] only, starts with the prefix and never meets a
 * plain name or another mangled one; text that only looks mangled is not
 * taken for a mangled name; messages show the program's spelling. */
#include "symname.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

#define CHECK(cond, ...)                                                                           \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                                         \
      fprintf(stderr, __VA_ARGS__);                                                                \
      fputc('\n', stderr);                                                                         \
      failures++;                                                                                  \
    }                                                                                              \
  } while (0)

static int safe_chars(const char *s) {
  for (; *s; s++)
    if (!symname_alnum((unsigned char)*s) && *s != '_')
      return 0;
  return 1;
}

/* Mangles name, checks the result's form, demangles it back. Returns the
 * mangled name (caller frees). */
static char *round_trip(const char *name, size_t len) {
  char *m = symname_mangle(name, len);
  if (!m) {
    CHECK(0, "mangle returned NULL for a %zu-byte name", len);
    return NULL;
  }
  CHECK(safe_chars(m) && m[0] && !(m[0] >= '0' && m[0] <= '9'), "'%s' is not an identifier", m);
  CHECK(strcmp(m, "_") != 0, "'_' is no PTX identifier");
  if (symname_is_plain(name, len)) {
    CHECK(strlen(m) == len && memcmp(m, name, len) == 0, "plain '%s' changed to '%s'", name, m);
    size_t n;
    CHECK(symname_demangle(m, &n) == NULL, "plain '%s' taken for a mangled name", m);
    return m;
  }
  CHECK(strncmp(m, SYMNAME_PREFIX, SYMNAME_PREFIX_LEN) == 0, "'%s' lacks the prefix", m);
  /* What gpucc adds to a kernel's name or makes itself never comes out. */
  CHECK(strstr(m + SYMNAME_PREFIX_LEN, "__gpucc_t") == NULL, "'%s' holds a host entry suffix", m);
  size_t n = 0;
  char *back = symname_demangle(m, &n);
  CHECK(back && n == len && memcmp(back, name, len) == 0, "'%s' does not come back", m);
  free(back);
  return m;
}

static void check_plain(void) {
  static const char *const plain[] = {"kernels", "K", "a_b", "_x", "__x", "x9", "MOD_", "a__gpuc",
                                      NULL};
  static const char *const not_plain[] = {"", "_", "9", "1lead", "a b", "a.b", "a/b", "é", "k%1",
                                          "a$b", "a@b", "__gpucc_", "__gpucc__x", "x__gpucc_thread",
                                          "__gpucc", NULL};
  for (size_t i = 0; plain[i]; i++)
    CHECK(symname_is_plain(plain[i], strlen(plain[i])), "'%s' should be plain", plain[i]);
  for (size_t i = 0; not_plain[i]; i++)
    CHECK(!symname_is_plain(not_plain[i], strlen(not_plain[i])), "'%s' should be mangled",
          not_plain[i]);
  CHECK(!symname_is_plain("a\0b", 3), "a NUL should be mangled");
}

static void check_examples(void) {
  static const struct {
    const char *name;
    size_t len;
    const char *mangled;
  } ex[] = {
      {"my mod", 6, "__gpucc__my_20mod"},
      {"a.b_c", 5, "__gpucc__a_2Eb__c"},
      {"", 0, "__gpucc__"},
      {"a\0b", 3, "__gpucc__a_00b"},
      {"__gpucc__x", 10, "__gpucc______gpucc____x"},
      {"\xc3\xa9", 2, "__gpucc___C3_A9"},
  };
  for (size_t i = 0; i < sizeof ex / sizeof ex[0]; i++) {
    char *m = round_trip(ex[i].name, ex[i].len);
    CHECK(m && strcmp(m, ex[i].mangled) == 0, "'%s' mangled to '%s', want '%s'", ex[i].name,
          m ? m : "(null)", ex[i].mangled);
    free(m);
  }
}

/* Spellings that look mangled but that symname_mangle never makes. */
static void check_not_mangled(void) {
  static const char *const fake[] = {"__gpucc__a_2e",  "__gpucc__a_", "__gpucc__a_G0",
                                     "__gpucc__abc",   "__gpucc__a_2", "__gpucc__a__gpucc_thread",
                                     "__gpucc_ipowi_i32", "__gpucc", NULL};
  for (size_t i = 0; fake[i]; i++) {
    size_t n;
    char *d = symname_demangle(fake[i], &n);
    CHECK(d == NULL, "'%s' taken for a mangled name", fake[i]);
    free(d);
    char *shown = symname_display(fake[i], 1);
    CHECK(shown && strcmp(shown, fake[i]) == 0, "'%s' shown as '%s'", fake[i], shown);
    free(shown);
  }
}

static void check_display(void) {
  static const struct {
    const char *name;
    size_t len;
    const char *plain, *quoted;
  } ex[] = {
      {"kernels", 7, "kernels", "kernels"},
      {"my mod", 6, "my mod", "\"my mod\""},
      {"a\nb\0c", 5, "a\\0Ab\\00c", "\"a\\0Ab\\00c\""},
      {"q\"\\", 3, "q\"\\5C", "\"q\\22\\5C\""},
      {"\xc3\xa9", 2, "\xc3\xa9", "\"\xc3\xa9\""},
      {"", 0, "", "\"\""},
  };
  for (size_t i = 0; i < sizeof ex / sizeof ex[0]; i++) {
    char *m = symname_mangle(ex[i].name, ex[i].len);
    char *p = m ? symname_display(m, 0) : NULL, *q = m ? symname_display(m, 1) : NULL;
    CHECK(p && strcmp(p, ex[i].plain) == 0, "'%s' shown as '%s', want '%s'", m, p, ex[i].plain);
    CHECK(q && strcmp(q, ex[i].quoted) == 0, "'%s' quoted as '%s', want '%s'", m, q,
          ex[i].quoted);
    free(m);
    free(p);
    free(q);
  }
}

/* Random names (fixed seed), biased towards '_' and the prefix's letters so
 * that near-misses occur; every pair of distinct names gets distinct
 * mangled names. */
static void check_random(void) {
  enum { N = 3000 };
  static char *mangled[N];
  static char names[N][24];
  static size_t lens[N];
  uint64_t state = 0x9e3779b97f4a7c15ull;
  static const char bias[] = "__gpucc_gpucc__aZ9";
  for (size_t i = 0; i < N; i++) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    lens[i] = (size_t)(state >> 59) % 24;
    for (size_t k = 0; k < lens[i]; k++) {
      state = state * 6364136223846793005ull + 1442695040888963407ull;
      unsigned r = (unsigned)(state >> 33);
      names[i][k] = (r & 1) ? bias[(r >> 1) % (sizeof bias - 1)] : (char)(r >> 8);
    }
    mangled[i] = round_trip(names[i], lens[i]);
  }
  for (size_t i = 0; i < N; i++)
    for (size_t j = i + 1; j < N; j++) {
      int same = lens[i] == lens[j] && memcmp(names[i], names[j], lens[i]) == 0;
      if (mangled[i] && mangled[j] && !same)
        CHECK(strcmp(mangled[i], mangled[j]) != 0, "two names mangled to '%s'", mangled[i]);
    }
  for (size_t i = 0; i < N; i++)
    free(mangled[i]);
}

int main(void) {
  check_plain();
  check_examples();
  check_not_mangled();
  check_display();
  check_random();
  if (failures) {
    fprintf(stderr, "%d failures\n", failures);
    return 1;
  }
  puts("ok");
  return 0;
}
