/* test_pool.c: the worker pool: where coroutines run, its size and
 * GPUCC_ASYNC_THREADS, blocking awaits on workers, nested resumptions,
 * exit with work queued and exit from a worker. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "async_test.h"

enum { EXECUTED = 1000 };

void test_execute(void) {
  /* CTest sets GPUCC_ASYNC_THREADS=3. */
  CHECK(mlirAsyncRuntimGetNumWorkerThreads() == 3);
  static struct coro tasks[EXECUTED];
  for (int i = 0; i < EXECUTED; i++) {
    tasks[i] = (struct coro){.action = CORO_EMPLACE, .token = mlirAsyncRuntimeCreateToken()};
    mlirAsyncRuntimeExecute(&tasks[i], coro_resume);
  }
  for (int i = 0; i < EXECUTED; i++) {
    mlirAsyncRuntimeAwaitToken(tasks[i].token);
    mlirAsyncRuntimeDropRef(tasks[i].token, 1);
  }
  for (int i = 0; i < EXECUTED; i++)
    CHECK(atomic_load(&tasks[i].hits) == 1 && !atomic_load(&tasks[i].on_main));
  expect_no_live_objects();
}

/* Blocking awaits on workers, with GPUCC_ASYNC_THREADS=1 (CTest): a pool
 * that did not replace its blocked workers would hang (the alarm fails it).
 * First 16 coroutines that block on a gate opened by one queued after them,
 * then a chain: coroutine i blocks until coroutine i+1 is done, queued in
 * order, so that every thread blocks before the last link can run. */
enum { BLOCKERS = 16, CHAIN = 48 };

void test_blocking_in_worker(void) {
  fail_after(20);
  CHECK(mlirAsyncRuntimGetNumWorkerThreads() == 1);
  AsyncToken *gate = mlirAsyncRuntimeCreateToken();
  static struct coro blockers[BLOCKERS];
  for (int i = 0; i < BLOCKERS; i++) {
    blockers[i] = (struct coro){.action = CORO_BLOCK_THEN_EMPLACE,
                                .wait = gate,
                                .token = mlirAsyncRuntimeCreateToken()};
    mlirAsyncRuntimeExecute(&blockers[i], coro_resume);
  }
  struct coro opener = {.action = CORO_EMPLACE, .token = gate};
  mlirAsyncRuntimeExecute(&opener, coro_resume);
  for (int i = 0; i < BLOCKERS; i++) {
    mlirAsyncRuntimeAwaitToken(blockers[i].token);
    mlirAsyncRuntimeDropRef(blockers[i].token, 1);
  }
  mlirAsyncRuntimeDropRef(gate, 1);

  static struct coro chain[CHAIN];
  AsyncToken *done[CHAIN];
  for (int i = 0; i < CHAIN; i++)
    done[i] = mlirAsyncRuntimeCreateToken();
  for (int i = 0; i < CHAIN; i++) {
    chain[i] = i + 1 < CHAIN ? (struct coro){.action = CORO_BLOCK_THEN_EMPLACE,
                                             .wait = done[i + 1],
                                             .token = done[i]}
                             : (struct coro){.action = CORO_EMPLACE, .token = done[i]};
    mlirAsyncRuntimeExecute(&chain[i], coro_resume);
  }
  mlirAsyncRuntimeAwaitToken(done[0]);
  for (int i = 0; i < CHAIN; i++) {
    mlirAsyncRuntimeAwaitToken(done[i]);
    mlirAsyncRuntimeDropRef(done[i], 1);
  }
  expect_no_live_objects();
}

/* A coroutine that re-awaits an available token 20000 times: resumed at
 * once each time, but never more than a few dozen frames deep. */
void test_nesting(void) {
  fail_after(20);
  AsyncToken *ready = mlirAsyncRuntimeCreateToken();
  mlirAsyncRuntimeEmplaceToken(ready);
  struct coro c = {.action = CORO_REAWAIT, .wait = ready,
                   .token = mlirAsyncRuntimeCreateToken(), .limit = 20000};
  mlirAsyncRuntimeExecute(&c, coro_resume);
  mlirAsyncRuntimeAwaitToken(c.token);
  CHECK(atomic_load(&c.hits) == 20000);
  /* 32 nested resumptions of a small frame; unbounded, 20000 would be MBs. */
  CHECK(atomic_load(&coro_deepest) < 256 * 1024);
  mlirAsyncRuntimeDropRef(c.token, 1);
  mlirAsyncRuntimeDropRef(ready, 1);
  expect_no_live_objects();
}

enum { DRAINED = 20 };
static atomic_int drained;

static void slow_task(void *handle) {
  sleep_ms(10);
  atomic_fetch_add(&drained, 1);
}

static void report_drained(void) {
  fprintf(stderr, "tasks finished at exit: %d of %d\n", atomic_load(&drained), DRAINED);
}

/* Work still queued when main returns is finished before the process goes:
 * report_drained, registered before the pool's handler, runs after it. */
void test_exit_drain(void) {
  atexit(report_drained);
  for (int i = 0; i < DRAINED; i++)
    mlirAsyncRuntimeExecute(NULL, slow_task);
}

static AsyncToken *never; /* global: reachable, not a leak, at exit */

static void exit_task(void *handle) {
  sleep_ms(50);
  exit(7);
}

/* exit() from a coroutine while another worker is blocked for ever: the
 * pool's exit handler must not wait for either. */
void test_exit_from_worker(void) {
  fail_after(20);
  never = mlirAsyncRuntimeCreateToken();
  static struct coro stuck;
  stuck = (struct coro){.action = CORO_BLOCK_THEN_EMPLACE, .wait = never, .token = NULL};
  mlirAsyncRuntimeExecute(&stuck, coro_resume);
  mlirAsyncRuntimeExecute(NULL, exit_task);
  mlirAsyncRuntimeAwaitToken(never);
}

void test_threads_env_bad(void) {
  CHECK(mlirAsyncRuntimGetNumWorkerThreads() == sysconf(_SC_NPROCESSORS_ONLN));
}

/* The line goes to stdout: read it back through a pipe. */
void test_thread_id(void) {
  int fds[2];
  CHECK(pipe(fds) == 0);
  fflush(stdout);
  int saved = dup(1);
  CHECK(saved >= 0 && dup2(fds[1], 1) == 1);
  mlirAsyncRuntimePrintCurrentThreadId();
  CHECK(dup2(saved, 1) == 1);
  close(fds[1]);
  char got[128] = "";
  ssize_t n = read(fds[0], got, sizeof got - 1);
  CHECK(n > 0);
  got[n] = '\0';
  char want[128];
  snprintf(want, sizeof want, "Current thread id: %lu\n", (unsigned long)pthread_self());
  CHECK(strcmp(got, want) == 0);
}
