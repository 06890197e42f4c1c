/* kernel_fault.c: which kernel a GPU's sticky launch error is about; see
 * kernel_fault.h.
 *
 * Launches are the hot path, so the per-handle memory is a fixed table of
 * (handle, kernel) slots, open addressing, without locks: a handle's slot is
 * claimed once with a compare-and-swap and never given back (a destroyed
 * stream's slot keeps its key with no kernel, and serves the next handle at
 * that address), so two threads probing for the same handle always meet in
 * the same slot. When the table is full a handle goes untracked, and its
 * faults name the last kernel launched anywhere: the message can only be
 * less precise, never wrong about there having been a fault. */
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernel_fault.h"
#include "rt.h"

#define SLOTS 4096 /* a power of two */
#define PROBES 64

struct slot {
  _Atomic(void *) key;
  _Atomic(const struct rt_kernel_id *) kernel;
};

static struct slot rt_slots[SLOTS];
static _Atomic(const struct rt_kernel_id *) rt_last_anywhere;

/* The default stream (NULL) needs a key of its own; no handle is 1. */
static void *rt_key(void *handle) { return handle ? handle : (void *)(uintptr_t)1; }

static size_t rt_hash(void *key) {
  uint64_t h = (uint64_t)(uintptr_t)key * 0x9E3779B97F4A7C15ull;
  return (size_t)(h >> 40);
}

/* The slot of handle, claimed if `claim`; NULL when absent or full. */
static struct slot *rt_slot(void *handle, int claim) {
  void *key = rt_key(handle);
  size_t h = rt_hash(key);
  for (size_t i = 0; i < PROBES; i++) {
    struct slot *s = &rt_slots[(h + i) & (SLOTS - 1)];
    void *k = atomic_load_explicit(&s->key, memory_order_acquire);
    if (k == key)
      return s;
    if (k)
      continue;
    if (!claim)
      return NULL;
    void *expected = NULL;
    if (atomic_compare_exchange_strong_explicit(&s->key, &expected, key, memory_order_acq_rel,
                                                memory_order_acquire) ||
        expected == key)
      return s;
  }
  return NULL;
}

/* Stores only what changes: a loop launching one kernel writes nothing that
 * other threads' launches would have to fetch back. */
void rt_fault_note_launch(void *stream, const struct rt_kernel_id *k) {
  if (atomic_load_explicit(&rt_last_anywhere, memory_order_relaxed) != k)
    atomic_store_explicit(&rt_last_anywhere, k, memory_order_relaxed);
  struct slot *s = rt_slot(stream, 1);
  if (s && atomic_load_explicit(&s->kernel, memory_order_relaxed) != k)
    atomic_store_explicit(&s->kernel, k, memory_order_relaxed);
}

void rt_fault_note_record(void *event, void *stream) {
  struct slot *from = rt_slot(stream, 0);
  const struct rt_kernel_id *k =
      from ? atomic_load_explicit(&from->kernel, memory_order_relaxed) : NULL;
  struct slot *to = k ? rt_slot(event, 1) : rt_slot(event, 0);
  if (to)
    atomic_store_explicit(&to->kernel, k, memory_order_relaxed);
}

void rt_fault_forget(void *handle) {
  struct slot *s = rt_slot(handle, 0);
  if (s)
    atomic_store_explicit(&s->kernel, NULL, memory_order_relaxed);
}

void rt_fault_forget_kernel(const struct rt_kernel_id *k) {
  const struct rt_kernel_id *expected = k;
  atomic_compare_exchange_strong(&rt_last_anywhere, &expected, NULL);
  for (size_t i = 0; i < SLOTS; i++) {
    expected = k;
    if (atomic_load_explicit(&rt_slots[i].kernel, memory_order_relaxed) == k)
      atomic_compare_exchange_strong(&rt_slots[i].kernel, &expected, NULL);
  }
}

int rt_fault_report(void *handle, int kind) {
  if (kind < 0)
    return 0;
  struct slot *s = rt_slot(handle, 0);
  const struct rt_kernel_id *k = s ? atomic_load_explicit(&s->kernel, memory_order_relaxed) : NULL;
  if (!k)
    k = atomic_load_explicit(&rt_last_anywhere, memory_order_relaxed);
  if (!k)
    return 0;
  char line[1024];
  rt_fault_line(line, sizeof line, k->name, k->module, (enum rt_fault)kind);
  rt_error_fault(line);
  return 1;
}

/* ---- the backends' module and function wrappers ---- */

struct rt_gpu_module *rt_gpu_module_new(void *handle) {
  struct rt_gpu_module *m = calloc(1, sizeof *m);
  if (m)
    m->handle = handle;
  return m;
}

void rt_gpu_module_free(struct rt_gpu_module *m) {
  if (!m)
    return;
  for (struct rt_gpu_function *f = m->functions, *next; f; f = next) {
    next = f->next;
    rt_fault_forget_kernel(&f->id);
    free(f->module);
    free(f->shown);
    free(f);
  }
  free(m);
}

struct rt_gpu_function *rt_gpu_function_new(struct rt_gpu_module *m, void *handle,
                                            const char *name) {
  size_t len = strlen(name);
  struct rt_gpu_function *f = calloc(1, sizeof *f + len + 1);
  if (!f)
    return NULL;
  memcpy(f->name, name, len + 1);
  f->handle = handle;
  f->id.name = f->name;
  f->next = m->functions;
  m->functions = f;
  return f;
}

void rt_gpu_function_module(void *function, const char *kernel, const char *module) {
  struct rt_gpu_function *f = function;
  if (!f->shown && strcmp(kernel, f->name) && (f->shown = strdup(kernel)))
    f->id.name = f->shown;
  if (f->module || !module || !*module || !(f->module = strdup(module)))
    return;
  f->id.module = f->module;
}
