/* test_util.h: what the fatbin unit tests share: CHECK/REQUIRE that count
 * and report without assert() (which NDEBUG compiles away), a deterministic
 * random generator so failures reproduce, and small blob helpers. Each test
 * program is one .c file that includes this once. */
#ifndef GPUCC_FATBIN_TEST_UTIL_H
#define GPUCC_FATBIN_TEST_UTIL_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fatbin.h"

static int checks, failures;

#define CHECK(cond)                                                            \
  do {                                                                         \
    checks++;                                                                  \
    if (!(cond)) {                                                             \
      failures++;                                                              \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
    }                                                                          \
  } while (0)

/* For conditions the rest of a test cannot do without. */
#define REQUIRE(cond)                                                          \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "%s:%d: requirement failed: %s\n", __FILE__, __LINE__,   \
              #cond);                                                          \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

static uint64_t rng_state = 0x9e3779b97f4a7c15u;
static inline uint64_t rng_next(void) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return rng_state;
}

static inline unsigned char *dup_bytes(const void *p, size_t n) {
  unsigned char *d = malloc(n ? n : 1);
  REQUIRE(d);
  if (n)
    memcpy(d, p, n);
  return d;
}

static inline uint64_t le64_at(const unsigned char *p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; i--)
    v = v << 8 | p[i];
  return v;
}

/* Header plus payload, without the writer's padding to 8 bytes. */
static inline size_t blob_len(const unsigned char *blob) {
  return FATBIN_HEADER_SIZE + (size_t)le64_at(blob + 16);
}

static inline void *write_blob_mode(const struct fatbin_entry *e, size_t n,
                                    const struct fatbin_meta *meta,
                                    enum fatbin_compress mode, size_t *size) {
  void *blob;
  char err[256] = "";
  int r = fatbin_write_ex(e, n, meta, mode, &blob, size, err, sizeof err);
  if (r != 0)
    fprintf(stderr, "fatbin_write_ex: %s\n", err);
  REQUIRE(r == 0);
  return blob;
}

/* True when object i of fb reads back as exactly size bytes of data. */
static inline int object_is(const struct fatbin *fb, size_t i, const void *data,
                            size_t size) {
  const void *got;
  size_t got_size;
  void *to_free;
  char err[256];
  if (fatbin_read_object(fb, i, &got, &got_size, &to_free, err, sizeof err) != 0) {
    fprintf(stderr, "fatbin_read_object(%zu): %s\n", i, err);
    return 0;
  }
  int same = got_size == size && (size == 0 || memcmp(got, data, size) == 0);
  free(to_free);
  return same;
}

static inline int finish(const char *name) {
  printf("%s: %d checks, %d failed\n", name, checks, failures);
  return failures ? 1 : 0;
}

#endif
