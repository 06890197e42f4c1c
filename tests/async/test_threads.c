/* test_threads.c: the runtime under many threads at once: await-and-execute
 * registrations racing the emplace, and many producers filling one group. */
#include <sched.h>

#include "async_test.h"

/* Many threads register coroutines on one token while another emplaces it:
 * each runs exactly once, whether it came before the emplace or after. */
enum { REGISTRARS = 8, PER_REGISTRAR = 2000 };

static AsyncToken *shared_token;
static struct coro registered[REGISTRARS][PER_REGISTRAR];
static atomic_int registrations;

static void *register_many(void *arg) {
  struct coro *mine = arg;
  for (int i = 0; i < PER_REGISTRAR; i++) {
    mine[i] = (struct coro){.action = CORO_COUNT};
    mlirAsyncRuntimeAwaitTokenAndExecute(shared_token, &mine[i], coro_resume);
    atomic_fetch_add(&registrations, 1);
  }
  return NULL;
}

static void *emplace_midway(void *arg) {
  while (atomic_load(&registrations) < REGISTRARS * PER_REGISTRAR / 2)
    sched_yield();
  mlirAsyncRuntimeEmplaceToken(shared_token);
  return NULL;
}

void test_await_execute_threads(void) {
  shared_token = mlirAsyncRuntimeCreateToken();
  pthread_t threads[REGISTRARS + 1];
  for (int i = 0; i < REGISTRARS; i++)
    CHECK(pthread_create(&threads[i], NULL, register_many, registered[i]) == 0);
  CHECK(pthread_create(&threads[REGISTRARS], NULL, emplace_midway, NULL) == 0);
  for (int i = 0; i <= REGISTRARS; i++)
    pthread_join(threads[i], NULL);
  for (int i = 0; i < REGISTRARS; i++)
    for (int j = 0; j < PER_REGISTRAR; j++)
      EVENTUALLY(atomic_load(&registered[i][j].hits) == 1);
  sleep_ms(20);
  for (int i = 0; i < REGISTRARS; i++)
    for (int j = 0; j < PER_REGISTRAR; j++)
      CHECK(atomic_load(&registered[i][j].hits) == 1);
  mlirAsyncRuntimeDropRef(shared_token, 1);
  expect_no_live_objects();
}

/* Producers on many threads fill one group with tokens and values, made
 * available here, by a worker, or in error; consumers register on the group
 * meanwhile. Every rank is handed out once; the group ends in error. */
enum { PRODUCERS = 8, PER_PRODUCER = 1500, MEMBERS = PRODUCERS * PER_PRODUCER };

static AsyncGroup *stress_group;
static atomic_uchar rank_seen[MEMBERS];
static struct coro stress_tasks[MEMBERS];
static struct coro group_waiters[PRODUCERS];

static void *produce_members(void *arg) {
  int p = (int)(intptr_t)arg;
  for (int i = 0; i < PER_PRODUCER; i++) {
    int n = p * PER_PRODUCER + i;
    if (i % 5 == 4) {
      AsyncValue *v = mlirAsyncRuntimeCreateValue(sizeof(int));
      int64_t rank = mlirAsyncRuntimeAddTokenToGroup((AsyncToken *)v, stress_group);
      CHECK(rank >= 0 && rank < MEMBERS && !atomic_exchange(&rank_seen[rank], 1));
      *(int *)mlirAsyncRuntimeGetValueStorage(v) = n;
      mlirAsyncRuntimeEmplaceValue(v);
      mlirAsyncRuntimeDropRef(v, 1);
      continue;
    }
    AsyncToken *t = mlirAsyncRuntimeCreateToken();
    int64_t rank = mlirAsyncRuntimeAddTokenToGroup(t, stress_group);
    CHECK(rank >= 0 && rank < MEMBERS && !atomic_exchange(&rank_seen[rank], 1));
    if (i % 2 == 0) {
      mlirAsyncRuntimeEmplaceToken(t);
    } else {
      enum coro_action action = n % 997 == 1 ? CORO_ERROR : CORO_EMPLACE;
      stress_tasks[n] = (struct coro){.action = action, .token = t};
      mlirAsyncRuntimeExecute(&stress_tasks[n], coro_resume);
    }
    mlirAsyncRuntimeDropRef(t, 1);
    if (i == PER_PRODUCER / 2) {
      group_waiters[p] = (struct coro){.action = CORO_COUNT};
      mlirAsyncRuntimeAwaitAllInGroupAndExecute(stress_group, &group_waiters[p], coro_resume);
    }
  }
  return NULL;
}

void test_stress(void) {
  fail_after(60);
  stress_group = mlirAsyncRuntimeCreateGroup(MEMBERS);
  pthread_t threads[PRODUCERS];
  for (int p = 0; p < PRODUCERS; p++)
    CHECK(pthread_create(&threads[p], NULL, produce_members, (void *)(intptr_t)p) == 0);
  mlirAsyncRuntimeAwaitAllInGroup(stress_group);
  for (int p = 0; p < PRODUCERS; p++)
    pthread_join(threads[p], NULL);
  CHECK(mlirAsyncRuntimeIsGroupError(stress_group));
  for (int n = 0; n < MEMBERS; n++)
    CHECK(atomic_load(&rank_seen[n]) == 1);
  for (int p = 0; p < PRODUCERS; p++)
    EVENTUALLY(atomic_load(&group_waiters[p].hits) == 1);
  mlirAsyncRuntimeDropRef(stress_group, 1);
  expect_no_live_objects();
}
