/* runner_random.c: rtsrand, rtrand, rtdrand and shuffle, seeded random numbers
 * for MLIR programs.
 *
 * Upstream implements them with std::mt19937, std::uniform_int_distribution
 * and std::shuffle, so a program's "random" data, and what its FileCheck
 * lines expect, are what libstdc++ draws. We draw the same numbers: the
 * generator is the standard 32-bit Mersenne Twister (its output is fixed by
 * the C++ standard), and the mapping to a range follows libstdc++'s rules:
 *  - a range of fewer than 2^32 values takes one 32-bit draw, multiplied by
 *    the number of values in 64 bits; the high half is the result, and a
 *    draw whose low half falls under (2^32 mod n) is redrawn (Lemire's
 *    method, which keeps the result unbiased);
 *  - exactly 2^32 values: the draw itself;
 *  - more: the high 32 bits are drawn first, recursively, then the low 32
 *    bits, and the pair is redrawn when it lands outside the range;
 *  - shuffle is Fisher-Yates from the front, swapping element i with one of
 *    0..i; for fewer than 2^16 elements it takes two positions from one draw
 *    (x uniform in [0, (i+1)(i+2)), positions x / (i+2) and x % (i+2) for
 *    elements i and i+1), after one single swap when the count is even. */
#include <stdlib.h>

#include "runner.h"

enum { mt_words = 624, mt_shift = 397 };

struct rt_random {
  uint32_t state[mt_words];
  int next; /* index of the next word to temper; mt_words: regenerate first */
};

static void mt_seed(struct rt_random *g, uint64_t seed) {
  g->state[0] = (uint32_t)seed; /* the seed is taken modulo 2^32 */
  for (uint32_t i = 1; i < mt_words; i++) {
    uint32_t prev = g->state[i - 1];
    g->state[i] = 1812433253u * (prev ^ prev >> 30) + i;
  }
  g->next = mt_words;
}

static void mt_regenerate(struct rt_random *g) {
  for (int k = 0; k < mt_words; k++) {
    uint32_t y = (g->state[k] & 0x80000000u) |
                 (g->state[(k + 1) % mt_words] & 0x7fffffffu);
    g->state[k] = g->state[(k + mt_shift) % mt_words] ^ y >> 1 ^
                  ((y & 1) ? 0x9908b0dfu : 0);
  }
  g->next = 0;
}

static uint32_t mt_draw(struct rt_random *g) {
  if (g->next >= mt_words)
    mt_regenerate(g);
  uint32_t y = g->state[g->next++];
  y ^= y >> 11;
  y ^= y << 7 & 0x9d2c5680u;
  y ^= y << 15 & 0xefc60000u;
  y ^= y >> 18;
  return y;
}

/* Uniform in [0, max], drawn as libstdc++ does (see the head comment). */
static uint64_t uniform(struct rt_random *g, uint64_t max) {
  const uint64_t draw_max = UINT32_MAX;
  if (max < draw_max) {
    uint32_t count = (uint32_t)(max + 1);
    uint64_t product = (uint64_t)mt_draw(g) * count;
    uint32_t low = (uint32_t)product;
    if (low < count) {
      uint32_t threshold = (uint32_t)-count % count;
      while (low < threshold) {
        product = (uint64_t)mt_draw(g) * count;
        low = (uint32_t)product;
      }
    }
    return product >> 32;
  }
  if (max == draw_max)
    return mt_draw(g);
  /* high is at most max with its low 32 bits cleared: the sum cannot wrap */
  uint64_t value;
  do
    value = (uniform(g, max >> 32) << 32) + mt_draw(g);
  while (value > max);
  return value;
}

static void swap(uint64_t *a, uint64_t *b) {
  uint64_t t = *a;
  *a = *b;
  *b = t;
}

RT_EXPORT void *rtsrand(uint64_t seed) {
  struct rt_random *g = malloc(sizeof *g);
  if (!g) {
    rt_error("rtsrand: cannot allocate a random number generator");
    return NULL;
  }
  mt_seed(g, seed);
  return g;
}

RT_EXPORT uint64_t rtrand(void *g, uint64_t m) { return uniform(g, m); }

RT_EXPORT void rtdrand(void *g) { free(g); }

RT_EXPORT void _mlir_ciface_shuffle(struct rt_ranked_memref *m, void *generator) {
  struct rt_random *g = generator;
  /* LLVM 22 writes from aligned + offset, contiguously (the stride is not
   * applied); older versions ignored the offset too. */
  uint64_t *values = (uint64_t *)m->aligned + m->offset;
  uint64_t n = (uint64_t)m->sizes_and_strides[0];
  for (uint64_t i = 0; i < n; i++)
    values[i] = i;
  if (n == 0)
    return;
  if (UINT32_MAX / n < n) {
    for (uint64_t i = 1; i < n; i++)
      swap(&values[i], &values[uniform(g, i)]);
    return;
  }
  uint64_t i = 1;
  if (n % 2 == 0) {
    swap(&values[1], &values[uniform(g, 1)]);
    i = 2;
  }
  for (; i < n; i += 2) {
    uint64_t choices = i + 1, next_choices = i + 2;
    uint64_t x = uniform(g, choices * next_choices - 1);
    swap(&values[i], &values[x / next_choices]);
    swap(&values[i + 1], &values[x % next_choices]);
  }
}
