/* runner_sort.c: _mlir_ciface_stdSort{I64,F64,F32}, ascending in place.
 *
 * Upstream calls std::sort, which is not stable: where elements compare
 * equal but differ (0 and -0), their final order is whatever its introsort
 * leaves, and that shows in printed output. So we sort by the same steps as
 * libstdc++, and equal elements end where they end there:
 *  - while a range has more than 16 elements: the median of its second,
 *    middle and last elements is swapped to the front and the rest is
 *    partitioned around it (scanning from both ends, swapping pairs); the
 *    right part is sorted first, recursively, the left part by the loop;
 *    after 2 * floor(log2 n) levels a range is heapsorted instead;
 *  - then one insertion sort over the whole array.
 * NaN breaks std::sort's ordering rules (upstream may then read outside the
 * array); here the scans are bounded, so the result is some permutation. */
#include <string.h>

#include "runner.h"

enum { small_range = 16 };

struct sort {
  char *base;
  size_t size; /* bytes per element, at most 8 */
  bool (*less)(const void *a, const void *b);
};

static char *at(const struct sort *s, int64_t i) { return s->base + (size_t)i * s->size; }

static bool less(const struct sort *s, int64_t i, int64_t j) {
  return s->less(at(s, i), at(s, j));
}

static void load(const struct sort *s, void *value, int64_t i) {
  memcpy(value, at(s, i), s->size);
}

static void store(const struct sort *s, int64_t i, const void *value) {
  memcpy(at(s, i), value, s->size);
}

static void move(const struct sort *s, int64_t to, int64_t from) {
  memcpy(at(s, to), at(s, from), s->size);
}

static void swap(const struct sort *s, int64_t i, int64_t j) {
  char t[8];
  load(s, t, i);
  move(s, i, j);
  store(s, j, t);
}

/* ---- the heap, for ranges that partitioning fails to split ---- */

/* Moves value up from hole towards top while its parent is less. */
static void sift_up(const struct sort *s, int64_t first, int64_t hole, int64_t top,
                    const void *value) {
  int64_t parent = (hole - 1) / 2;
  while (hole > top && s->less(at(s, first + parent), value)) {
    move(s, first + hole, first + parent);
    hole = parent;
    parent = (hole - 1) / 2;
  }
  store(s, first + hole, value);
}

/* Fills hole by moving the larger child up all the way to a leaf, then puts
 * value there and sifts it up. */
static void sift_down(const struct sort *s, int64_t first, int64_t hole, int64_t len,
                      const void *value) {
  int64_t top = hole, child = hole;
  while (child < (len - 1) / 2) {
    child = 2 * (child + 1);
    if (less(s, first + child, first + child - 1))
      child--;
    move(s, first + hole, first + child);
    hole = child;
  }
  if (len % 2 == 0 && child == (len - 2) / 2) {
    child = 2 * (child + 1);
    move(s, first + hole, first + child - 1);
    hole = child - 1;
  }
  sift_up(s, first, hole, top, value);
}

static void heap_sort(const struct sort *s, int64_t first, int64_t last) {
  int64_t len = last - first;
  char value[8];
  if (len >= 2)
    for (int64_t parent = (len - 2) / 2; parent >= 0; parent--) {
      load(s, value, first + parent);
      sift_down(s, first, parent, len, value);
    }
  while (last - first > 1) {
    last--;
    load(s, value, last);
    move(s, last, first);
    sift_down(s, first, 0, last - first, value);
  }
}

/* ---- partitioning ---- */

static void median_to_first(const struct sort *s, int64_t result, int64_t a, int64_t b,
                            int64_t c) {
  int64_t median;
  if (less(s, a, b))
    median = less(s, b, c) ? b : less(s, a, c) ? c : a;
  else
    median = less(s, a, c) ? a : less(s, b, c) ? c : b;
  swap(s, result, median);
}

/* Partitions [first + 1, last) around the pivot at first; returns where the
 * right part starts. */
static int64_t partition(const struct sort *s, int64_t first, int64_t last) {
  int64_t pivot = first, lo = first + 1, hi = last;
  for (;;) {
    while (lo < last && less(s, lo, pivot))
      lo++;
    hi--;
    while (hi > pivot && less(s, pivot, hi))
      hi--;
    if (lo >= hi)
      return lo;
    swap(s, lo, hi);
    lo++;
  }
}

static void introsort(const struct sort *s, int64_t first, int64_t last, int depth) {
  while (last - first > small_range) {
    if (depth == 0) {
      heap_sort(s, first, last);
      return;
    }
    depth--;
    median_to_first(s, first, first + 1, first + (last - first) / 2, last - 1);
    int64_t cut = partition(s, first, last);
    introsort(s, cut, last, depth);
    last = cut;
  }
}

/* ---- insertion sort ---- */

/* Moves element i left past the greater elements before it. Upstream does
 * not test for the front (a smaller element is known to be there); the test
 * changes nothing then and keeps NaN input inside the array. */
static void insert_left(const struct sort *s, int64_t i) {
  char value[8];
  load(s, value, i);
  while (i > 0 && s->less(value, at(s, i - 1))) {
    move(s, i, i - 1);
    i--;
  }
  store(s, i, value);
}

static void insertion_sort(const struct sort *s, int64_t first, int64_t last) {
  char value[8];
  for (int64_t i = first + 1; i < last; i++) {
    if (less(s, i, first)) {
      load(s, value, i);
      memmove(at(s, first + 1), at(s, first), (size_t)(i - first) * s->size);
      store(s, first, value);
    } else {
      insert_left(s, i);
    }
  }
}

static int floor_log2(uint64_t n) {
  int log = 0;
  while (n >>= 1)
    log++;
  return log;
}

static void sort(char *base, uint64_t n, size_t size,
                 bool (*less_fn)(const void *, const void *)) {
  if (n == 0)
    return;
  struct sort s = {base, size, less_fn};
  int64_t count = (int64_t)n;
  introsort(&s, 0, count, 2 * floor_log2(n));
  if (count > small_range) {
    insertion_sort(&s, 0, small_range);
    for (int64_t i = small_range; i < count; i++)
      insert_left(&s, i);
  } else {
    insertion_sort(&s, 0, count);
  }
}

static bool less_i64(const void *a, const void *b) {
  int64_t x, y;
  memcpy(&x, a, sizeof x);
  memcpy(&y, b, sizeof y);
  return x < y;
}

static bool less_f64(const void *a, const void *b) {
  double x, y;
  memcpy(&x, a, sizeof x);
  memcpy(&y, b, sizeof y);
  return x < y;
}

static bool less_f32(const void *a, const void *b) {
  float x, y;
  memcpy(&x, a, sizeof x);
  memcpy(&y, b, sizeof y);
  return x < y;
}

/* The n elements at aligned + offset; upstream requires stride 1. */
static char *first_element(const struct rt_ranked_memref *m, size_t size) {
  return (char *)m->aligned + m->offset * (int64_t)size;
}

RT_EXPORT void _mlir_ciface_stdSortI64(uint64_t n, struct rt_ranked_memref *m) {
  sort(first_element(m, sizeof(int64_t)), n, sizeof(int64_t), less_i64);
}

RT_EXPORT void _mlir_ciface_stdSortF64(uint64_t n, struct rt_ranked_memref *m) {
  sort(first_element(m, sizeof(double)), n, sizeof(double), less_f64);
}

RT_EXPORT void _mlir_ciface_stdSortF32(uint64_t n, struct rt_ranked_memref *m) {
  sort(first_element(m, sizeof(float)), n, sizeof(float), less_f32);
}
