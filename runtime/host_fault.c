/* host_fault.c: a fault inside a kernel on the host backend; see host_fault.h.
 *
 * On a GPU an out-of-bounds store, a trap or a bad instruction in a kernel
 * fails the launch and the driver says so; on the CPU the same kernel would
 * kill the program with a bare signal. So the host backend catches SIGSEGV,
 * SIGBUS, SIGILL, SIGTRAP and SIGFPE, and when the thread that faulted was
 * running a block (rt_host_running, set by host_exec.c around each block)
 * it ends the program with one line on stderr and status 1:
 *
 *   gpucc: kernel 'k' (module m): illegal memory access at 0x... in block (3,0,0) thread (17,0,0)
 *
 * (`trap` for SIGILL and SIGTRAP, which llvm.trap and llvm.debugtrap raise;
 * `arithmetic fault` for SIGFPE, an integer division by zero; the words are
 * fault_text.h's, which the CUDA and HIP backends use too). The thread
 * is named when the block runs on fibers (the runtime knows whose turn it
 * is) or has one thread; a block entry runs all the threads of the block
 * in compiled loops (host_regions.c), whose thread index lives in a
 * register of the vectorized loop: recording it would cost a store per
 * thread in every loop, so only the block is named then.
 *
 * Any other fault is passed on as if we were not there: to the handler
 * installed before ours, or, when that was the default action, the default
 * action is restored and the signal raised again, so the program dies of it
 * (a core dump, status 139 for SIGSEGV) as it did before.
 *
 * A stack overflow is a SIGSEGV too, with no stack left to run a handler
 * on: every thread that runs blocks gets an alternate signal stack (unless
 * it has one already, from the program or a sanitizer).
 *
 * The handler uses only async-signal-safe calls (write, _exit, nanosleep,
 * sigaction, raise), with one exception, deliberately: stdout is flushed,
 * since what the program printed before the fault (gpu.printf included) is
 * what a user needs to find it. The process is dying, and sanitizers'
 * reports make the same trade. To never hang there, the handler only takes
 * stdout's lock with ftrylockfile, trying for at most 100 ms (another thread
 * may be in the middle of a printf), and gives up on the flush after that. */
#define _GNU_SOURCE
#include "host_fault.h"
#include "fault_text.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

_Thread_local struct rt_host_running rt_host_running __attribute__((tls_model("initial-exec")));

/* Room for the handler and for whatever it chains to (a sanitizer's
 * report runs there too). */
#define ALTSTACK_SIZE (64 * 1024)

static const int fault_signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGFPE};
#define NFAULTS (sizeof fault_signals / sizeof fault_signals[0])
static struct sigaction previous[NFAULTS];
static pthread_once_t install_once = PTHREAD_ONCE_INIT;

/* ---- formatting without stdio ---- */

struct line {
  char text[1024];
  size_t len;
};

static void put(struct line *l, const char *s) {
  while (*s && l->len < sizeof l->text - 1)
    l->text[l->len++] = *s++;
}

static void put_unsigned(struct line *l, unsigned long v, unsigned base) {
  char digits[24];
  int n = 0;
  do {
    digits[n++] = "0123456789abcdef"[v % base];
    v /= base;
  } while (v);
  while (n > 0 && l->len < sizeof l->text - 1)
    l->text[l->len++] = digits[--n];
}

static void put_triple(struct line *l, const char *what, unsigned x, unsigned y, unsigned z) {
  put(l, what);
  put(l, " (");
  put_unsigned(l, x, 10);
  put(l, ",");
  put_unsigned(l, y, 10);
  put(l, ",");
  put_unsigned(l, z, 10);
  put(l, ")");
}

/* ---- the handler ---- */

static void flush_stdout(void) {
  for (int i = 0; i < 100; i++) {
    if (ftrylockfile(stdout) == 0) {
      fflush_unlocked(stdout);
      funlockfile(stdout);
      return;
    }
    struct timespec ms = {0, 1000000};
    nanosleep(&ms, NULL);
  }
}

static void report(int sig, const siginfo_t *info, const struct rt_host_running *r) {
  struct line l = {.len = 0};
  enum rt_fault kind = sig == SIGSEGV || sig == SIGBUS ? RT_FAULT_MEMORY
                       : sig == SIGFPE                 ? RT_FAULT_ARITHMETIC
                                                       : RT_FAULT_TRAP;
  l.len = rt_fault_line(l.text, sizeof l.text, r->kernel->name, r->kernel->module, kind);
  if (kind == RT_FAULT_MEMORY) {
    put(&l, " at 0x");
    put_unsigned(&l, (unsigned long)(uintptr_t)info->si_addr, 16);
  }
  const struct rt_host_grid *g = r->grid;
  unsigned long b = r->block;
  put(&l, " in ");
  put_triple(&l, "block", (unsigned)(b % g->grid[0]), (unsigned)(b / g->grid[0] % g->grid[1]),
             (unsigned)(b / ((unsigned long)g->grid[0] * g->grid[1])));
  if (r->fibers && r->fibers->current < r->fibers->n) {
    const uint32_t *t = r->ctxs[r->fibers->current].tid;
    put(&l, " ");
    put_triple(&l, "thread", t[0], t[1], t[2]);
  } else if (g->block[0] * g->block[1] * g->block[2] == 1) {
    put(&l, " ");
    put_triple(&l, "thread", 0, 0, 0);
  }
  l.text[l.len++] = '\n';
  for (size_t done = 0; done < l.len;) {
    ssize_t w = write(STDERR_FILENO, l.text + done, l.len - done);
    if (w <= 0)
      break;
    done += (size_t)w;
  }
}

/* A fault outside kernels: what would have happened without us. */
static void pass_on(int sig, siginfo_t *info, void *uc) {
  size_t i = 0;
  while (i < NFAULTS && fault_signals[i] != sig)
    i++;
  const struct sigaction *old = &previous[i];
  if (old->sa_flags & SA_SIGINFO) {
    if (old->sa_sigaction) {
      old->sa_sigaction(sig, info, uc);
      return;
    }
  } else if (old->sa_handler == SIG_IGN) {
    if (info->si_code <= 0)
      return; /* sent by kill(): ignored, as before */
    /* A real fault cannot be ignored: the default action, as the kernel
     * would take. */
  } else if (old->sa_handler != SIG_DFL) {
    old->sa_handler(sig);
    return;
  }
  /* Pending until the handler returns (the signal is blocked here), then
   * fatal; a faulting instruction would only fault again. */
  struct sigaction dfl;
  memset(&dfl, 0, sizeof dfl);
  dfl.sa_handler = SIG_DFL;
  sigemptyset(&dfl.sa_mask);
  sigaction(sig, &dfl, NULL);
  raise(sig);
}

static void on_fault(int sig, siginfo_t *info, void *uc) {
  const struct rt_host_running *r = &rt_host_running;
  if (!r->kernel) {
    pass_on(sig, info, uc);
    return;
  }
  /* Kernels fault on several threads at once: one line, from the first. */
  static atomic_flag reporting = ATOMIC_FLAG_INIT;
  if (atomic_flag_test_and_set(&reporting))
    for (;;)
      pause();
  flush_stdout();
  report(sig, info, r);
  _exit(1);
}

static void install(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_fault;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&sa.sa_mask);
  for (size_t i = 0; i < NFAULTS; i++) {
    /* Read the old action first: a fault on another thread meanwhile must
     * find it. */
    if (sigaction(fault_signals[i], NULL, &previous[i]) == 0)
      sigaction(fault_signals[i], &sa, NULL);
  }
}

void rt_host_faults_install(void) { pthread_once(&install_once, install); }

/* ---- alternate signal stacks ---- */

void *rt_host_altstack_add(void) {
  stack_t old;
  if (sigaltstack(NULL, &old) != 0 || !(old.ss_flags & SS_DISABLE))
    return NULL;
  size_t page = (size_t)sysconf(_SC_PAGESIZE);
  char *p = mmap(NULL, page + ALTSTACK_SIZE, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
  if (p == MAP_FAILED)
    return NULL; /* no report for a stack overflow: it still dies of it */
  mprotect(p, page, PROT_NONE); /* guard: an overflow here crashes, no more */
  stack_t ss = {.ss_sp = p + page, .ss_size = ALTSTACK_SIZE, .ss_flags = 0};
  if (sigaltstack(&ss, NULL) != 0) {
    munmap(p, page + ALTSTACK_SIZE);
    return NULL;
  }
  return p;
}

void rt_host_altstack_release(void *stack) {
  if (!stack)
    return;
  stack_t ss = {.ss_sp = NULL, .ss_size = 0, .ss_flags = SS_DISABLE};
  sigaltstack(&ss, NULL);
  munmap(stack, (size_t)sysconf(_SC_PAGESIZE) + ALTSTACK_SIZE);
}
