/* async.h: what the async runtime's files share (hidden, never exported).
 *
 * Tokens, values and groups are one kind of object underneath: a reference
 * count and a one-way state (pending -> available or error) with the
 * coroutines and group memberships waiting for it to change (object.c).
 * Tokens and values add nothing but the value's storage; a group counts its
 * members down and settles its object when the last one is ready (group.c).
 * Coroutines run on a lazily started worker pool (pool.c). */
#ifndef GPUCC_ASYNC_H
#define GPUCC_ASYNC_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "async_runtime.h"

enum async_kind { ASYNC_TOKEN = 1, ASYNC_VALUE, ASYNC_GROUP };

enum async_state { ASYNC_PENDING, ASYNC_AVAILABLE, ASYNC_ERROR };

/* Something to do when an object leaves ASYNC_PENDING, and, for the pool,
 * a coroutine to resume: the same node travels from an object's waiter list
 * to the pool's queue without being copied. A notification is how a layer
 * above the objects (group.c's memberships) learns of the change without
 * object.c calling it. */
struct async_task {
  struct async_task *next;
  enum { ASYNC_TASK_RESUME, ASYNC_TASK_NOTIFY } kind;
  CoroResume resume;         /* ASYNC_TASK_RESUME: resume(handle) */
  void *handle;
  /* ASYNC_TASK_NOTIFY: notify(arg, error), run by the settling thread at
   * once, after the task is freed. */
  void (*notify)(void *arg, bool error);
  void *arg;
};

struct async_object {
  atomic_int_fast64_t refs;
  enum async_kind kind;
  /* Written under lock; read without it by the error queries and the
   * awaits' fast path (acquire: the producer's writes are visible). */
  _Atomic int state;
  pthread_mutex_t lock;
  pthread_cond_t settled;     /* broadcast when state leaves PENDING */
  struct async_task *waiters; /* under lock; newest first */
};

struct async_token {
  struct async_object obj;
};

struct async_value {
  struct async_object obj;
  void *storage;
};

struct async_group {
  struct async_object obj;
  int64_t size;                /* members it waits for */
  atomic_int_fast64_t pending; /* members not yet ready, or not yet added */
  atomic_int_fast64_t errors;  /* members that were in error */
  atomic_int_fast64_t added;   /* next rank */
};

/* ---- object.c ---- */

/* Initializes the shared part of a new object with refs references. */
void async_object_init(struct async_object *o, enum async_kind kind, int64_t refs);
/* o as an object of that kind, or a bug report on behalf of fn. */
struct async_object *async_object_check(void *o, enum async_kind kind, const char *fn);
/* Appends t to o's waiters if o is pending and returns true; false if o has
 * settled already (t is then the caller's to run or free). */
bool async_object_add_waiter(struct async_object *o, struct async_task *t);
/* Leaves PENDING for state (a bug if it already has), wakes blocking
 * awaiters, then runs notifications here and queues resumptions on the pool.
 * Takes no reference: the caller must hold one. */
void async_object_settle(struct async_object *o, enum async_state state, const char *fn);
/* Blocks until o leaves PENDING (see pool.c for worker threads). */
void async_object_wait(struct async_object *o);
/* Resumes the coroutine once o has left PENDING: now if it has. */
void async_object_then(struct async_object *o, CoroHandle handle, CoroResume resume,
                       const char *fn);
enum async_state async_object_state(struct async_object *o);
/* Objects created and not yet freed, for tests: a leak shows as a count that
 * does not come back to zero. */
int64_t async_live_objects(void);

/* ---- pool.c ---- */

/* Queues t (ASYNC_TASK_RESUME) for a worker thread, which frees it after
 * resuming; runs it here if the pool has shut down. */
void async_pool_submit(struct async_task *t);
/* Around a blocking wait: when the caller is a worker, the pool counts it as
 * blocked and starts another thread if queued work would otherwise have none
 * to run it. Returns whether the caller is a worker (pass it to _end). */
bool async_pool_block_begin(void);
void async_pool_block_end(bool was_worker);
/* Before a fatal error exits: the exit-time drain (pool.c) must not wait for
 * work that may never finish. */
void async_pool_abandon(void);

/* ---- resume.c ---- */

/* Resumes a coroutine on this thread, unless this thread is already that
 * deep in nested resumptions: then it is queued on the pool instead. fn:
 * the ABI function it does this for, for a message. */
void async_resume_here(CoroHandle handle, CoroResume resume, const char *fn);

/* ---- fail.c ---- */

/* Misuse of the ABI by the calling code: prints
 * "gpucc: runtime error: <message> (a bug in the calling code)" and aborts. */
_Noreturn void async_bug(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Out of memory in fn: a runtime error (rt_error), then abort() if an
 * installed handler returned: the ABI has no way to report a failure. */
_Noreturn void async_out_of_memory(const char *fn);
/* malloc that reports failure on behalf of fn. */
void *async_alloc(size_t size, const char *fn);

#endif
