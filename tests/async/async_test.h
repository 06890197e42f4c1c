/* async_test.h: what the async runtime's test scenarios share.
 *
 * The scenarios (test_*.c, listed in main.c) run in child processes of the
 * tests/runtime harness, linked with a static copy of the async runtime so
 * that they can see async_live_objects(): every scenario that makes objects
 * ends by checking that all of them were freed, which is how a missing or
 * extra reference shows up (the asan variant adds LeakSanitizer at exit, the
 * tsan variant data races).
 *
 * Coroutines are played by plain functions: a "handle" is a struct coro and
 * resuming it runs coro_resume (coro.c), which counts, remembers whether it
 * ran on the main thread and does what the scenario asked. Scenarios that
 * would hang if the runtime were wrong fail on an alarm instead. */
#ifndef GPUCC_ASYNC_TEST_H
#define GPUCC_ASYNC_TEST_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include "async.h"
#include "harness.h"

void sleep_ms(long ms);

/* For conditions that other threads make true: fail after about 10 s. */
#define EVENTUALLY(cond)                                                                           \
  do {                                                                                             \
    for (int tries_ = 0; !(cond); tries_++) {                                                      \
      CHECK(tries_ < 10000);                                                                       \
      sleep_ms(1);                                                                                 \
    }                                                                                              \
  } while (0)

/* Every object freed: the last reference may be dropped by a worker a
 * moment after the scenario's own awaits return. */
void expect_no_live_objects(void);
/* The reference count of a token, value or group. */
int64_t refs_of(void *object);
/* A deadlock fails the scenario (the harness reports 128 + SIGALRM). */
void fail_after(unsigned seconds);

extern pthread_t main_thread;

enum coro_action {
  CORO_COUNT,              /* nothing more */
  CORO_EMPLACE,            /* make `token` available */
  CORO_ERROR,              /* set `token` in error */
  CORO_BLOCK_THEN_EMPLACE, /* block in AwaitToken(`wait`), then emplace `token` */
  CORO_REAWAIT,            /* AwaitTokenAndExecute(`wait`) until `limit` hits, then emplace */
};

struct coro {
  enum coro_action action;
  atomic_int hits;
  atomic_bool on_main; /* resumed on the main thread */
  AsyncToken *token;
  AsyncToken *wait;
  int limit;
};

void coro_resume(void *handle);
/* CORO_REAWAIT: the deepest the stack got below a thread's first frame. */
extern atomic_uintptr_t coro_deepest;

/* test_objects.c */
void test_refcount(void);
void test_token(void);
void test_token_error(void);
void test_value(void);
void test_group(void);
/* test_threads.c */
void test_await_execute_threads(void);
void test_stress(void);
/* test_pool.c */
void test_execute(void);
void test_blocking_in_worker(void);
void test_nesting(void);
void test_exit_drain(void);
void test_exit_from_worker(void);
void test_threads_env_bad(void);
void test_thread_id(void);
/* test_misuse.c */
void test_drop_too_many(void);
void test_emplace_twice(void);
void test_group_overflow(void);
void test_not_a_token(void);

#endif
