/* object.c: what tokens, values and groups have in common.
 *
 * An object is a reference count and a state that changes once, from pending
 * to available or error. Settling it is that change and the one place where
 * waiting code learns of it: blocking awaiters sleep on the object's
 * condition variable, coroutines registered with AwaitAndExecute (and group
 * memberships) wait in its list. The list is taken out under the lock and
 * worked through after releasing it, so that nothing runs with the object's
 * lock held; the settler's reference keeps the object alive meanwhile.
 *
 * Registered coroutines go to the worker pool rather than run on the
 * settling thread. The settler is usually a coroutine with more to do (make
 * its other results available, drop references): a resumed coroutine that
 * blocked in a plain await on one of those results would wait on the very
 * stack that is to produce it, forever. Notifications (group memberships)
 * are the runtime's own bookkeeping and run at once. This file is the
 * bottom layer of the async runtime: it calls the pool, never the kinds
 * of object built on it (group.c, token.c, value.c).
 *
 * Exports mlirAsyncRuntimeAddRef and mlirAsyncRuntimeDropRef. */
#include <stdlib.h>

#include "async.h"
#include "rt.h"

/* See async_live_objects. */
static atomic_int_fast64_t async_live;

static const char *async_kind_name(enum async_kind kind) {
  switch (kind) {
  case ASYNC_TOKEN:
    return "token";
  case ASYNC_VALUE:
    return "value";
  case ASYNC_GROUP:
    return "group";
  }
  return "object";
}

static const char *async_state_name(int state) {
  return state == ASYNC_AVAILABLE ? "available" : state == ASYNC_ERROR ? "in error" : "pending";
}

void async_object_init(struct async_object *o, enum async_kind kind, int64_t refs) {
  atomic_init(&o->refs, refs);
  o->kind = kind;
  atomic_init(&o->state, ASYNC_PENDING);
  /* With default attributes glibc's init functions cannot fail. */
  pthread_mutex_init(&o->lock, NULL);
  pthread_cond_init(&o->settled, NULL);
  o->waiters = NULL;
  atomic_fetch_add_explicit(&async_live, 1, memory_order_relaxed);
}

int64_t async_live_objects(void) {
  return atomic_load_explicit(&async_live, memory_order_acquire);
}

struct async_object *async_object_check(void *p, enum async_kind kind, const char *fn) {
  struct async_object *o = p;
  if (!o)
    async_bug("%s: NULL %s", fn, async_kind_name(kind));
  if (o->kind != kind)
    async_bug("%s: %p is not a %s", fn, p, async_kind_name(kind));
  return o;
}

/* Any kind will do (references, group membership). */
static struct async_object *async_any_object(void *p, const char *fn) {
  struct async_object *o = p;
  if (!o)
    async_bug("%s: NULL object", fn);
  if (o->kind != ASYNC_TOKEN && o->kind != ASYNC_VALUE && o->kind != ASYNC_GROUP)
    async_bug("%s: %p is not a token, value or group (freed already?)", fn, p);
  return o;
}

static void async_object_free(struct async_object *o) {
  /* A coroutine waiting for it holds a reference, or should. */
  if (o->waiters)
    async_bug("mlirAsyncRuntimeDropRef: %s %p freed while coroutines wait for it",
              async_kind_name(o->kind), (void *)o);
  pthread_cond_destroy(&o->settled);
  pthread_mutex_destroy(&o->lock);
  if (o->kind == ASYNC_VALUE)
    free(((struct async_value *)o)->storage);
  free(o);
  atomic_fetch_sub_explicit(&async_live, 1, memory_order_release);
}

RT_EXPORT void mlirAsyncRuntimeAddRef(void *object, int64_t count) {
  static const char fn[] = "mlirAsyncRuntimeAddRef";
  struct async_object *o = async_any_object(object, fn);
  if (count < 0)
    async_bug("%s: negative count %lld", fn, (long long)count);
  /* Relaxed: a new reference is only ever made from one already held. */
  int64_t before = atomic_fetch_add_explicit(&o->refs, count, memory_order_relaxed);
  if (before <= 0)
    async_bug("%s: %s %p has no references left (freed already?)", fn,
              async_kind_name(o->kind), object);
}

RT_EXPORT void mlirAsyncRuntimeDropRef(void *object, int64_t count) {
  static const char fn[] = "mlirAsyncRuntimeDropRef";
  struct async_object *o = async_any_object(object, fn);
  if (count < 0)
    async_bug("%s: negative count %lld", fn, (long long)count);
  if (count == 0)
    return;
  /* Release: this thread's uses of the object come before its freeing;
   * acquire: the thread that frees it sees everyone else's. */
  int64_t before = atomic_fetch_sub_explicit(&o->refs, count, memory_order_acq_rel);
  if (before < count)
    async_bug("%s: %lld references of %s %p dropped, it had %lld", fn, (long long)count,
              async_kind_name(o->kind), object, (long long)before);
  if (before == count)
    async_object_free(o);
}

bool async_object_add_waiter(struct async_object *o, struct async_task *t) {
  pthread_mutex_lock(&o->lock);
  bool pending = atomic_load_explicit(&o->state, memory_order_relaxed) == ASYNC_PENDING;
  if (pending) {
    t->next = o->waiters;
    o->waiters = t;
  }
  pthread_mutex_unlock(&o->lock);
  return pending;
}

void async_object_settle(struct async_object *o, enum async_state state, const char *fn) {
  pthread_mutex_lock(&o->lock);
  int was = atomic_load_explicit(&o->state, memory_order_relaxed);
  if (was != ASYNC_PENDING) {
    pthread_mutex_unlock(&o->lock);
    async_bug("%s: %s %p is %s already", fn, async_kind_name(o->kind), (void *)o,
              async_state_name(was));
  }
  /* Release: what the producer wrote (a value's storage) is visible to
   * whoever sees the new state. */
  atomic_store_explicit(&o->state, state, memory_order_release);
  struct async_task *newest = o->waiters;
  o->waiters = NULL;
  pthread_cond_broadcast(&o->settled);
  pthread_mutex_unlock(&o->lock);

  /* In the order they registered. */
  struct async_task *oldest = NULL;
  while (newest) {
    struct async_task *next = newest->next;
    newest->next = oldest;
    oldest = newest;
    newest = next;
  }
  while (oldest) {
    struct async_task *t = oldest;
    oldest = t->next;
    t->next = NULL;
    if (t->kind == ASYNC_TASK_NOTIFY) {
      void (*notify)(void *, bool) = t->notify;
      void *arg = t->arg;
      free(t);
      notify(arg, state == ASYNC_ERROR);
    } else {
      async_pool_submit(t);
    }
  }
}

enum async_state async_object_state(struct async_object *o) {
  return atomic_load_explicit(&o->state, memory_order_acquire);
}

void async_object_wait(struct async_object *o) {
  if (async_object_state(o) != ASYNC_PENDING)
    return;
  bool worker = async_pool_block_begin();
  pthread_mutex_lock(&o->lock);
  while (atomic_load_explicit(&o->state, memory_order_relaxed) == ASYNC_PENDING)
    pthread_cond_wait(&o->settled, &o->lock);
  pthread_mutex_unlock(&o->lock);
  async_pool_block_end(worker);
}

void async_object_then(struct async_object *o, CoroHandle handle, CoroResume resume,
                       const char *fn) {
  if (async_object_state(o) == ASYNC_PENDING) {
    /* Allocated before taking the lock, given back if o settled meanwhile. */
    struct async_task *t = async_alloc(sizeof *t, fn);
    *t = (struct async_task){.kind = ASYNC_TASK_RESUME, .resume = resume, .handle = handle};
    if (async_object_add_waiter(o, t))
      return;
    free(t);
  }
  async_resume_here(handle, resume, fn);
}
