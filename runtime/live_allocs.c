/* live_allocs.c: the set of live gpu.alloc pointers; see live_allocs.h.
 *
 * Every gpu.alloc and gpu.dealloc pays for it, so it is kept small and
 * uncontended: the pointers are spread over 64 shards by a hash of their
 * address, each an open-addressing table of its own under its own lock
 * (threads that allocate at once rarely meet). The lock is a spinlock that
 * yields the processor while it waits: held for a few loads and stores, it
 * costs one atomic exchange where a mutex costs two read-modify-writes,
 * which is a third of what the registry adds to an allocation. A table is at most half full,
 * counting the tombstones that removals leave, and is rebuilt (twice as big
 * when it is more than a quarter full of live pointers, the same size
 * otherwise, which sweeps the tombstones) when it would be more. The tables
 * stay allocated until exit; they hold only addresses. */
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

#include "live_allocs.h"

#define SHARDS 64
#define MIN_SLOTS 16
#define TOMBSTONE ((uintptr_t)1) /* no allocation is at address 1 */

struct shard {
  atomic_bool locked;
  uintptr_t *slots; /* 0: empty */
  size_t nslots;    /* a power of two, or 0 */
  size_t used;      /* live + tombstones */
  size_t live;
  char pad[64];     /* one shard per cache line, or near */
};

static struct shard rt_shards[SHARDS];

static void rt_lock(struct shard *s) {
  while (atomic_exchange_explicit(&s->locked, 1, memory_order_acquire))
    while (atomic_load_explicit(&s->locked, memory_order_relaxed))
      sched_yield();
}

static void rt_unlock(struct shard *s) {
  atomic_store_explicit(&s->locked, 0, memory_order_release);
}

/* Allocations are at least 16-byte aligned: the low bits say nothing. */
static uint64_t rt_hash(uintptr_t p) { return (uint64_t)(p >> 4) * 0x9E3779B97F4A7C15ull; }

/* The top bits pick the shard, the bits below them the slot. */
static struct shard *rt_shard(uint64_t h) { return &rt_shards[h >> 58]; }
static size_t rt_start(uint64_t h, size_t nslots) { return (size_t)(h >> 20) & (nslots - 1); }

static void rt_put(uintptr_t *slots, size_t nslots, uintptr_t p) {
  for (size_t i = rt_start(rt_hash(p), nslots);; i = (i + 1) & (nslots - 1))
    if (slots[i] == 0) {
      slots[i] = p;
      return;
    }
}

/* Rebuilds s with room for one more pointer. Returns 0, or -1 (out of
 * memory, s unchanged). */
static int rt_rebuild(struct shard *s) {
  size_t n = s->nslots ? s->nslots : MIN_SLOTS;
  while ((s->live + 1) * 4 > n)
    n *= 2;
  uintptr_t *slots = calloc(n, sizeof *slots);
  if (!slots)
    return -1;
  for (size_t i = 0; i < s->nslots; i++)
    if (s->slots[i] > TOMBSTONE)
      rt_put(slots, n, s->slots[i]);
  free(s->slots);
  s->slots = slots;
  s->nslots = n;
  s->used = s->live;
  return 0;
}

int rt_live_add(void *ptr) {
  uintptr_t p = (uintptr_t)ptr;
  uint64_t h = rt_hash(p);
  struct shard *s = rt_shard(h);
  int rc = 0;
  rt_lock(s);
  if ((s->used + 1) * 2 > s->nslots)
    rc = rt_rebuild(s);
  if (rc == 0) {
    size_t i = rt_start(h, s->nslots);
    while (s->slots[i] > TOMBSTONE)
      i = (i + 1) & (s->nslots - 1);
    /* A tombstone is reused, but its pointer may sit further on: it cannot,
     * since ptr is not live (the contract). */
    s->used += s->slots[i] == 0;
    s->slots[i] = p;
    s->live++;
  }
  rt_unlock(s);
  return rc;
}

int rt_live_remove(void *ptr) {
  uintptr_t p = (uintptr_t)ptr;
  uint64_t h = rt_hash(p);
  struct shard *s = rt_shard(h);
  int found = 0;
  rt_lock(s);
  if (s->nslots) {
    for (size_t i = rt_start(h, s->nslots); s->slots[i] != 0; i = (i + 1) & (s->nslots - 1))
      if (s->slots[i] == p) {
        s->slots[i] = TOMBSTONE;
        s->live--;
        found = 1;
        break;
      }
  }
  rt_unlock(s);
  return found;
}
