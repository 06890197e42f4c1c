/* test_spirv_reflect.c: runtime/spirv_reflect.c on its own (no Vulkan):
 * what it reads from the assembled test kernels, and that mangled modules
 * (bytes flipped, words cut off) come back as errors, never as a crash or
 * an out-of-bounds read (built with AddressSanitizer where the runtime's
 * sanitizer variants are). Usage: test_spirv_reflect SPV_DIR */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spirv_reflect.h"

#define CHECK(c)                                                                      \
  do {                                                                                \
    if (!(c)) {                                                                       \
      fprintf(stderr, "CHECK FAILED %s:%d: %s\n", __FILE__, __LINE__, #c);           \
      exit(1);                                                                        \
    }                                                                                 \
  } while (0)

static unsigned char *slurp(const char *dir, const char *name, size_t *size) {
  char path[1024];
  snprintf(path, sizeof path, "%s/%s.spv", dir, name);
  FILE *f = fopen(path, "rb");
  CHECK(f != NULL);
  unsigned char *d = malloc(1 << 16);
  CHECK(d != NULL);
  *size = fread(d, 1, 1 << 16, f);
  fclose(f);
  return d;
}

static int has_cap(const struct spirv_module *m, uint32_t cap) {
  for (size_t i = 0; i < m->ncaps; i++)
    if (m->caps[i] == cap)
      return 1;
  return 0;
}

static void check_vadd(const unsigned char *d, size_t size) {
  struct spirv_module m = {0};
  char err[256];
  CHECK(spirv_reflect(d, size, &m, err, sizeof err) == 0);
  const struct spirv_entry *e = spirv_find_entry(&m, "vadd");
  CHECK(e && m.nentries == 1 && !spirv_find_entry(&m, "other"));
  static const uint32_t offsets[] = {0, 8, 16, 24, 32}, sizes[] = {8, 8, 8, 4, 8};
  CHECK(e->nparams == 5 && e->push_size == 40 && e->local[0] == 0);
  for (int i = 0; i < 5; i++)
    CHECK(e->params[i].offset == offsets[i] && e->params[i].size == sizes[i] &&
          e->params[i].pointer == (i < 3));
  CHECK(has_cap(&m, 1) && has_cap(&m, 11) && has_cap(&m, 5347) && m.ncaps == 3);
  CHECK(m.nexts == 1 && strcmp(m.exts[0], "SPV_KHR_physical_storage_buffer") == 0);
  CHECK(!m.descriptors);
  spirv_module_free(&m);
}

static void check_fixed(const unsigned char *d, size_t size) {
  struct spirv_module m = {0};
  char err[256];
  CHECK(spirv_reflect(d, size, &m, err, sizeof err) == 0);
  const struct spirv_entry *e = spirv_find_entry(&m, "fixed");
  /* Its push constant is used in a function the entry point calls. */
  CHECK(e && e->nparams == 2 && e->push_size == 16 && e->params[0].pointer);
  CHECK(e->local[0] == 64 && e->local[1] == 1 && e->local[2] == 1);
  CHECK(m.version == 0x00010300);
  spirv_module_free(&m);
}

/* Mangled copies: each either reads or says why not. */
static void mangle(const unsigned char *d, size_t size, unsigned seed) {
  unsigned char *copy = malloc(size);
  CHECK(copy != NULL);
  size_t errors = 0;
  for (int round = 0; round < 20000; round++) {
    memcpy(copy, d, size);
    seed = seed * 1103515245u + 12345u;
    size_t n = size;
    if (round % 3 == 0)
      n = (seed >> 8) % (size / 4 + 1) * 4; /* cut off at a word */
    else
      for (int k = 0; k < 1 + (int)(seed >> 28); k++) {
        seed = seed * 1103515245u + 12345u;
        copy[5 * 4 + (seed >> 8) % (size - 20)] ^= (unsigned char)(1u << (seed >> 29));
      }
    unsigned char *exact = malloc(n ? n : 1); /* so that a read past n is caught */
    CHECK(exact != NULL);
    memcpy(exact, copy, n);
    struct spirv_module m = {0};
    char err[256] = "";
    if (spirv_reflect(exact, n, &m, err, sizeof err) != 0) {
      CHECK(err[0] != '\0');
      errors++;
    }
    spirv_module_free(&m);
    free(exact);
  }
  fprintf(stderr, "mangled: %zu of 20000 refused\n", errors);
  CHECK(errors > 0);
  free(copy);
}

int main(int argc, char **argv) {
  CHECK(argc == 2);
  size_t vsize, fsize;
  unsigned char *vadd = slurp(argv[1], "vadd", &vsize), *fixed = slurp(argv[1], "fixed", &fsize);
  check_vadd(vadd, vsize);
  check_fixed(fixed, fsize);
  mangle(vadd, vsize, 1);
  mangle(fixed, fsize, 2);
  free(vadd);
  free(fixed);
  fprintf(stderr, "spirv_reflect ok\n");
  return 0;
}
