/* live_allocs.h: the pointers gpu.alloc handed out and gpu.dealloc has not
 * taken back (memory.c), so that freeing anything else (twice, or memory
 * from memref.alloc) is a located runtime error rather than a driver's or
 * glibc's abort, on every backend. Thread-safe. */
#ifndef GPUCC_RT_LIVE_ALLOCS_H
#define GPUCC_RT_LIVE_ALLOCS_H

/* Records ptr (not NULL, not live). Returns 0, or -1 when out of memory. */
int rt_live_add(void *ptr);
/* Forgets ptr. Returns 1 if it was live, 0 if not (nothing changes). */
int rt_live_remove(void *ptr);

#endif
