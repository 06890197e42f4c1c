/* test_objects.c: tokens, values and groups, each on its own: the reference
 * counts they start with and who drops them, states and errors, blocking
 * awaits and await-and-execute before and after the object is ready (where
 * the coroutine runs, and that it runs once), value storage, group ranks and
 * errors. */
#include <string.h>

#include "async_test.h"

void test_refcount(void) {
  /* A token: two references, one of which EmplaceToken gives up. */
  AsyncToken *t = mlirAsyncRuntimeCreateToken();
  CHECK(refs_of(t) == 2 && async_live_objects() == 1);
  mlirAsyncRuntimeAddRef(t, 2);
  mlirAsyncRuntimeDropRef(t, 3);
  CHECK(refs_of(t) == 1 && async_live_objects() == 1);
  mlirAsyncRuntimeEmplaceToken(t);
  CHECK(async_live_objects() == 0);

  /* The creator drops first: the producer's reference keeps it. */
  t = mlirAsyncRuntimeCreateToken();
  mlirAsyncRuntimeDropRef(t, 1);
  CHECK(async_live_objects() == 1);
  mlirAsyncRuntimeSetTokenError(t);
  CHECK(async_live_objects() == 0);

  /* A value, and its storage with it (ASan would see the storage leak). */
  AsyncValue *v = mlirAsyncRuntimeCreateValue(64);
  CHECK(refs_of(v) == 2);
  mlirAsyncRuntimeEmplaceValue(v);
  CHECK(refs_of(v) == 1);
  mlirAsyncRuntimeDropRef(v, 1);
  CHECK(async_live_objects() == 0);

  /* A group: one reference. */
  AsyncGroup *g = mlirAsyncRuntimeCreateGroup(0);
  CHECK(refs_of(g) == 1);
  mlirAsyncRuntimeAddRef(g, 0);
  mlirAsyncRuntimeDropRef(g, 0);
  mlirAsyncRuntimeDropRef(g, 1);
  CHECK(async_live_objects() == 0);

  /* A group keeps itself alive while a member it waits for is pending. */
  g = mlirAsyncRuntimeCreateGroup(1);
  t = mlirAsyncRuntimeCreateToken();
  CHECK(mlirAsyncRuntimeAddTokenToGroup(t, g) == 0);
  CHECK(refs_of(g) == 2);
  mlirAsyncRuntimeDropRef(g, 1);
  CHECK(async_live_objects() == 2);
  mlirAsyncRuntimeEmplaceToken(t);
  CHECK(async_live_objects() == 1); /* the group went with its last member */
  mlirAsyncRuntimeDropRef(t, 1);
  CHECK(async_live_objects() == 0);
}

/* ---- tokens ---- */

static void *emplace_later(void *token) {
  sleep_ms(50);
  mlirAsyncRuntimeEmplaceToken(token);
  return NULL;
}

void test_token(void) {
  AsyncToken *t = mlirAsyncRuntimeCreateToken();
  CHECK(!mlirAsyncRuntimeIsTokenError(t));

  /* Registered while pending: runs once, on a worker, after the emplace. */
  struct coro later = {.action = CORO_COUNT};
  mlirAsyncRuntimeAwaitTokenAndExecute(t, &later, coro_resume);
  sleep_ms(20);
  CHECK(atomic_load(&later.hits) == 0);
  mlirAsyncRuntimeAddRef(t, 1); /* ours, past the emplace */
  mlirAsyncRuntimeEmplaceToken(t);
  EVENTUALLY(atomic_load(&later.hits) == 1);
  CHECK(!atomic_load(&later.on_main));

  /* Registered once available: runs at once, here. */
  struct coro now = {.action = CORO_COUNT};
  mlirAsyncRuntimeAwaitTokenAndExecute(t, &now, coro_resume);
  CHECK(atomic_load(&now.hits) == 1 && atomic_load(&now.on_main));
  mlirAsyncRuntimeAwaitToken(t);
  CHECK(!mlirAsyncRuntimeIsTokenError(t));
  mlirAsyncRuntimeDropRef(t, 2);

  /* A blocking await wakes up when another thread emplaces. */
  t = mlirAsyncRuntimeCreateToken();
  pthread_t producer;
  CHECK(pthread_create(&producer, NULL, emplace_later, t) == 0);
  mlirAsyncRuntimeAwaitToken(t);
  CHECK(!mlirAsyncRuntimeIsTokenError(t));
  pthread_join(producer, NULL);
  mlirAsyncRuntimeDropRef(t, 1);

  sleep_ms(20);
  CHECK(atomic_load(&later.hits) == 1);
  expect_no_live_objects();
}

void test_token_error(void) {
  AsyncToken *t = mlirAsyncRuntimeCreateToken();
  struct coro waiter = {.action = CORO_COUNT};
  mlirAsyncRuntimeAwaitTokenAndExecute(t, &waiter, coro_resume);
  mlirAsyncRuntimeSetTokenError(t);
  mlirAsyncRuntimeAwaitToken(t);
  CHECK(mlirAsyncRuntimeIsTokenError(t));
  EVENTUALLY(atomic_load(&waiter.hits) == 1);
  struct coro now = {.action = CORO_COUNT};
  mlirAsyncRuntimeAwaitTokenAndExecute(t, &now, coro_resume);
  CHECK(atomic_load(&now.hits) == 1);
  mlirAsyncRuntimeDropRef(t, 1);
  expect_no_live_objects();
}

/* ---- values ---- */

struct produce {
  AsyncValue *value;
  double x;
};

static void *produce_value(void *arg) {
  struct produce *p = arg;
  sleep_ms(20);
  double *slot = mlirAsyncRuntimeGetValueStorage(p->value);
  *slot = p->x;
  mlirAsyncRuntimeEmplaceValue(p->value);
  return NULL;
}

void test_value(void) {
  /* Storage aligned as the largest power of two dividing the size, between
   * 16 and 4096, zeroed, all of it writable (ASan checks the bounds). */
  static const struct {
    int64_t size;
    uintptr_t align;
  } sizes[] = {{0, 16},   {1, 16},     {4, 16},     {12, 16},     {16, 16},    {24, 16},
               {32, 32},  {48, 16},    {64, 64},    {256, 256},   {1000, 16},  {4096, 4096},
               {8192, 4096}, {12288, 4096}};
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
    AsyncValue *v = mlirAsyncRuntimeCreateValue(sizes[i].size);
    unsigned char *s = mlirAsyncRuntimeGetValueStorage(v);
    CHECK(s != NULL);
    CHECK((uintptr_t)s % sizes[i].align == 0);
    for (int64_t b = 0; b < sizes[i].size; b++)
      CHECK(s[b] == 0);
    memset(s, 0xab, (size_t)sizes[i].size);
    mlirAsyncRuntimeEmplaceValue(v);
    mlirAsyncRuntimeDropRef(v, 1);
  }

  /* What the producer stored is what the consumer reads after awaiting. */
  struct produce p = {.value = mlirAsyncRuntimeCreateValue(sizeof(double)), .x = 2.5};
  struct coro waiter = {.action = CORO_COUNT};
  mlirAsyncRuntimeAwaitValueAndExecute(p.value, &waiter, coro_resume);
  pthread_t producer;
  CHECK(pthread_create(&producer, NULL, produce_value, &p) == 0);
  mlirAsyncRuntimeAwaitValue(p.value);
  CHECK(!mlirAsyncRuntimeIsValueError(p.value));
  CHECK(*(double *)mlirAsyncRuntimeGetValueStorage(p.value) == 2.5);
  pthread_join(producer, NULL);
  EVENTUALLY(atomic_load(&waiter.hits) == 1);
  mlirAsyncRuntimeDropRef(p.value, 1);

  /* The same when the value is ready before the await: the await's fast
   * path alone must order the read after the producer's write (TSan would
   * see a race if it did not). */
  struct produce q = {.value = mlirAsyncRuntimeCreateValue(sizeof(double)), .x = 4.5};
  CHECK(pthread_create(&producer, NULL, produce_value, &q) == 0);
  sleep_ms(100);
  mlirAsyncRuntimeAwaitValue(q.value);
  CHECK(*(double *)mlirAsyncRuntimeGetValueStorage(q.value) == 4.5);
  pthread_join(producer, NULL);
  mlirAsyncRuntimeDropRef(q.value, 1);

  /* In error. */
  AsyncValue *v = mlirAsyncRuntimeCreateValue(4);
  mlirAsyncRuntimeSetValueError(v);
  mlirAsyncRuntimeAwaitValue(v);
  CHECK(mlirAsyncRuntimeIsValueError(v));
  struct coro now = {.action = CORO_COUNT};
  mlirAsyncRuntimeAwaitValueAndExecute(v, &now, coro_resume);
  CHECK(atomic_load(&now.hits) == 1);
  mlirAsyncRuntimeDropRef(v, 1);
  expect_no_live_objects();
}

/* ---- groups ---- */

void test_group(void) {
  /* Empty: available at once. */
  AsyncGroup *g = mlirAsyncRuntimeCreateGroup(0);
  mlirAsyncRuntimeAwaitAllInGroup(g);
  CHECK(!mlirAsyncRuntimeIsGroupError(g));
  struct coro now = {.action = CORO_COUNT};
  mlirAsyncRuntimeAwaitAllInGroupAndExecute(g, &now, coro_resume);
  CHECK(atomic_load(&now.hits) == 1 && atomic_load(&now.on_main));
  mlirAsyncRuntimeDropRef(g, 1);

  /* Four members: ready and pending, one in error, one a value. */
  g = mlirAsyncRuntimeCreateGroup(4);
  AsyncToken *ready = mlirAsyncRuntimeCreateToken();
  AsyncToken *failed = mlirAsyncRuntimeCreateToken();
  AsyncToken *pending = mlirAsyncRuntimeCreateToken();
  AsyncValue *value = mlirAsyncRuntimeCreateValue(8);
  mlirAsyncRuntimeEmplaceToken(ready);
  mlirAsyncRuntimeSetTokenError(failed);
  CHECK(mlirAsyncRuntimeAddTokenToGroup(ready, g) == 0);
  CHECK(!mlirAsyncRuntimeIsGroupError(g));
  CHECK(mlirAsyncRuntimeAddTokenToGroup(failed, g) == 1);
  CHECK(mlirAsyncRuntimeIsGroupError(g));
  CHECK(mlirAsyncRuntimeAddTokenToGroup(pending, g) == 2);
  struct coro all = {.action = CORO_COUNT};
  mlirAsyncRuntimeAwaitAllInGroupAndExecute(g, &all, coro_resume);
  mlirAsyncRuntimeEmplaceToken(pending);
  /* Three of four: a group waits for members not added yet, too. */
  sleep_ms(20);
  CHECK(atomic_load(&all.hits) == 0);
  CHECK(mlirAsyncRuntimeAddTokenToGroup((AsyncToken *)value, g) == 3);
  CHECK(atomic_load(&all.hits) == 0);
  mlirAsyncRuntimeEmplaceValue(value);
  mlirAsyncRuntimeAwaitAllInGroup(g);
  EVENTUALLY(atomic_load(&all.hits) == 1);
  CHECK(!atomic_load(&all.on_main));
  CHECK(mlirAsyncRuntimeIsGroupError(g));
  mlirAsyncRuntimeDropRef(ready, 1);
  mlirAsyncRuntimeDropRef(failed, 1);
  mlirAsyncRuntimeDropRef(pending, 1);
  mlirAsyncRuntimeDropRef(value, 1);
  mlirAsyncRuntimeDropRef(g, 1);

  /* No member in error: no error. */
  g = mlirAsyncRuntimeCreateGroup(2);
  AsyncToken *a = mlirAsyncRuntimeCreateToken();
  AsyncToken *b = mlirAsyncRuntimeCreateToken();
  mlirAsyncRuntimeAddTokenToGroup(a, g);
  mlirAsyncRuntimeAddTokenToGroup(b, g);
  mlirAsyncRuntimeEmplaceToken(b);
  mlirAsyncRuntimeEmplaceToken(a);
  mlirAsyncRuntimeAwaitAllInGroup(g);
  CHECK(!mlirAsyncRuntimeIsGroupError(g));
  mlirAsyncRuntimeDropRef(a, 1);
  mlirAsyncRuntimeDropRef(b, 1);
  mlirAsyncRuntimeDropRef(g, 1);
  expect_no_live_objects();
}
