/* interrupt.c: recorded signals and the cleanup that follows them; see
 * interrupt.h. Cleanup used to run inside the signal handler, where only
 * async-signal-safe calls are allowed and where it could race with the
 * code it interrupted (a child being forked, a temp file being
 * registered); now the handler writes one variable and returns. */
#include "interrupt.h"

#include "diag.h"
#include "last_words.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile sig_atomic_t pending;
static atomic_int claimed;

static void on_signal(int sig) {
  if (!pending)
    pending = sig;
}

/* Only there so that SIGCHLD interrupts ppoll (its default is to ignore). */
static void on_child(int sig) { (void)sig; }

void interrupt_init(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  /* No SA_RESTART: a blocking waitpid must return EINTR and look. */
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
  sigaction(SIGHUP, &sa, NULL);
  /* A reader that went away (gpucc -v 2>&1 | head -1): the write fails with
   * EPIPE, and the build ends like an interrupted one, cleaned up, instead
   * of dying on the spot with its temp files and half an output. */
  sigaction(SIGPIPE, &sa, NULL);
  sa.sa_handler = on_child;
  /* SA_RESTART: SIGCHLD must not make MLIR's or libc's reads fail. */
  sa.sa_flags = SA_RESTART | SA_NOCLDSTOP;
  sigaction(SIGCHLD, &sa, NULL);
}

int interrupt_pending(void) { return pending; }

_Noreturn void interrupt_exit(void) {
  int sig = pending ? pending : SIGTERM;
  if (atomic_exchange(&claimed, 1)) {
    for (;;)
      pause(); /* the other thread is ending the process */
  }
  last_words_run(LAST_GRACEFUL); /* children, jobserver tokens, temp files */
  fflush(NULL);
  /* As shells and Ninja expect: 130 for Ctrl-C; otherwise die of the
   * signal itself, so that a parent sees what ended us. */
  if (sig == SIGINT)
    _exit(130);
  signal(sig, SIG_DFL);
  sigset_t one;
  sigemptyset(&one);
  sigaddset(&one, sig);
  pthread_sigmask(SIG_UNBLOCK, &one, NULL);
  raise(sig);
  _exit(128 + sig);
}

int interrupt_wait_child(int *status) { return interrupt_wait_child_or_fd(status, -1, NULL); }

int interrupt_wait_child_or_fd(int *status, int fd, short *revents) {
  sigset_t block, old;
  sigemptyset(&block);
  sigaddset(&block, SIGINT);
  sigaddset(&block, SIGTERM);
  sigaddset(&block, SIGHUP);
  sigaddset(&block, SIGPIPE);
  sigaddset(&block, SIGCHLD);
  /* With the signals blocked nothing can slip in between the check and the
   * wait; ppoll unblocks them only while it sleeps. */
  pthread_sigmask(SIG_BLOCK, &block, &old);
  int rc;
  for (;;) {
    if (pending) {
      rc = -1;
      break;
    }
    pid_t w = waitpid(-1, status, WNOHANG);
    if (w > 0) {
      rc = (int)w;
      break;
    }
    /* No child at all is fine while there is a descriptor to wait for. */
    if (w < 0 && errno != EINTR && !(errno == ECHILD && fd >= 0))
      BUG("waitpid failed with jobs running");
    struct pollfd p = {fd, POLLIN, 0};
    if (ppoll(&p, fd >= 0, NULL, &old) > 0 && p.revents) {
      *revents = p.revents;
      rc = 0;
      break;
    }
  }
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  return rc;
}
