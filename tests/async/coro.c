/* coro.c: the helpers of the async runtime's tests and the stand-in
 * coroutine (see async_test.h). */
#include <signal.h>
#include <time.h>
#include <unistd.h>

#include "async_test.h"

void sleep_ms(long ms) {
  struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
  nanosleep(&ts, NULL);
}

void expect_no_live_objects(void) {
  EVENTUALLY(async_live_objects() == 0);
}

int64_t refs_of(void *object) {
  return atomic_load(&((struct async_object *)object)->refs);
}

pthread_t main_thread;

void fail_after(unsigned seconds) {
  signal(SIGALRM, SIG_DFL);
  alarm(seconds);
}

/* CORO_REAWAIT: the stack depth below the first frame on each thread. */
static _Thread_local uintptr_t stack_top;
atomic_uintptr_t coro_deepest;

void coro_resume(void *handle) {
  struct coro *c = handle;
  int hits = atomic_fetch_add(&c->hits, 1) + 1;
  if (pthread_equal(pthread_self(), main_thread))
    atomic_store(&c->on_main, true);
  switch (c->action) {
  case CORO_COUNT:
    break;
  case CORO_EMPLACE:
    mlirAsyncRuntimeEmplaceToken(c->token);
    break;
  case CORO_ERROR:
    mlirAsyncRuntimeSetTokenError(c->token);
    break;
  case CORO_BLOCK_THEN_EMPLACE:
    mlirAsyncRuntimeAwaitToken(c->wait);
    mlirAsyncRuntimeEmplaceToken(c->token);
    break;
  case CORO_REAWAIT: {
    char here;
    uintptr_t at = (uintptr_t)&here;
    if (!stack_top || at > stack_top)
      stack_top = at;
    uintptr_t depth = stack_top - at;
    uintptr_t seen = atomic_load(&coro_deepest);
    while (depth > seen && !atomic_compare_exchange_weak(&coro_deepest, &seen, depth)) {
    }
    if (hits < c->limit)
      mlirAsyncRuntimeAwaitTokenAndExecute(c->wait, c, coro_resume);
    else
      mlirAsyncRuntimeEmplaceToken(c->token);
    break;
  }
  }
}
