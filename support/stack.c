/* stack.c: the big-stack worker thread and the interrupt watchdog; see
 * stack.h. */
#include "stack.h"

#include "interrupt.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <time.h>

struct work {
  int (*fn)(void *);
  void *arg;
  int rc;
};

static void interrupt_signals(sigset_t *s) {
  sigemptyset(s);
  sigaddset(s, SIGINT);
  sigaddset(s, SIGTERM);
  sigaddset(s, SIGHUP);
  sigaddset(s, SIGCHLD);
}

static void *worker(void *p) {
  struct work *w = p;
  sigset_t s;
  interrupt_signals(&s);
  pthread_sigmask(SIG_UNBLOCK, &s, NULL);
  w->rc = w->fn(w->arg);
  return NULL;
}

/* How long the worker has to notice a recorded signal itself (its job loop
 * does at once; only a stage inside MLIR does not) before the watchdog
 * ends the process. */
#define WATCHDOG_TICKS 5
#define TICK_NS 100000000L

int stack_run(size_t size, int (*fn)(void *), void *arg) {
  struct work w = {fn, arg, 0};
  sigset_t s, old;
  interrupt_signals(&s);
  pthread_sigmask(SIG_BLOCK, &s, &old);
  pthread_attr_t at;
  pthread_t t;
  int made = 0;
  /* Less when the address space is limited (ulimit -v): still far more
   * than the main thread has. */
  for (size_t sz = size; sz >= ((size_t)64 << 20) && !made; sz /= 2) {
    pthread_attr_init(&at);
    made = pthread_attr_setstacksize(&at, sz) == 0 && pthread_create(&t, &at, worker, &w) == 0;
    pthread_attr_destroy(&at);
  }
  if (!made) {
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return fn(arg);
  }
  for (int ticks = 0;;) {
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_nsec += TICK_NS;
    if (until.tv_nsec >= 1000000000L) {
      until.tv_sec++;
      until.tv_nsec -= 1000000000L;
    }
    int r = pthread_timedjoin_np(t, NULL, &until);
    if (r == 0)
      break;
    if (r != ETIMEDOUT && r != EINTR)
      break; /* cannot happen for a joinable thread of ours */
    if (interrupt_pending() && ++ticks >= WATCHDOG_TICKS)
      interrupt_exit();
  }
  return w.rc;
}
