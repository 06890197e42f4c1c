/* jobserver.c: GNU make's jobserver, as a client; see jobserver.h.
 *
 * The tokens are read through a file description of gpucc's own, opened
 * non-blocking: the FIFO by its path, the pipe through /proc/self/fd. A
 * description shared with make and its other children must keep the flags
 * they gave it, and a blocking read of a token that another client took
 * first would stop gpucc while its own jobs end (holding their tokens). */
#include "jobserver.h"

#include "diag.h"
#include "interrupt.h"
#include "last_words.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_TOKENS 1024 /* -j's limit: never more jobs beside the first */

static int fd = -1;
static pid_t owner;
static char tokens[MAX_TOKENS]; /* the bytes taken, given back as they were */
static int held;
static int hung_up; /* the pipe failed: no more tokens taken, none waited for */

/* The value of the last --jobserver-auth= (or --jobserver-fds=) in
 * MAKEFLAGS, copied into buf; 0 when there is none. Words after " -- " are
 * variable assignments, not options. */
static int find_auth(const char *flags, char *buf, size_t len) {
  static const char *const names[] = {"--jobserver-auth=", "--jobserver-fds="};
  int found = 0;
  for (const char *w = flags; *w;) {
    w += strspn(w, " \t");
    size_t n = strcspn(w, " \t");
    if (n == 2 && !strncmp(w, "--", 2))
      break;
    for (size_t k = 0; k < 2; k++) {
      size_t m = strlen(names[k]);
      if (n > m && !strncmp(w, names[k], m) && n - m < len) {
        memcpy(buf, w + m, n - m);
        buf[n - m] = '\0';
        found = 1;
      }
    }
    w += n;
  }
  return found;
}

/* Descriptors make passed on: open, and the two ends of one pipe (a
 * descriptor make closed may have been reused for something else, which
 * must not be taken for its pipe). */
static int valid_pipe(int r, int w) {
  struct stat sr, sw;
  return fcntl(r, F_GETFD) >= 0 && fcntl(w, F_GETFD) >= 0 && fstat(r, &sr) == 0 &&
         fstat(w, &sw) == 0 && S_ISFIFO(sr.st_mode) && sr.st_dev == sw.st_dev &&
         sr.st_ino == sw.st_ino;
}

/* A FIFO opened by its path: refused when it is anything else (a regular
 * file would always poll readable, and read nothing). */
static int open_fifo(const char *path) {
  int d = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
  struct stat st;
  if (d >= 0 && (fstat(d, &st) != 0 || !S_ISFIFO(st.st_mode))) {
    close(d);
    d = -1;
  }
  return d;
}

static int open_auth(const char *auth) {
  if (!strncmp(auth, "fifo:", 5))
    return open_fifo(auth + 5);
  char *end;
  long r = strtol(auth, &end, 10);
  if (end == auth || *end != ',')
    return -1;
  const char *ws = end + 1;
  long w = strtol(ws, &end, 10);
  if (end == ws || *end || r < 0 || w < 0 || r > 1 << 20 || w > 1 << 20)
    return -1;
  if (!valid_pipe((int)r, (int)w))
    return -1;
  char path[64];
  snprintf(path, sizeof path, "/proc/self/fd/%ld", r);
  return open_fifo(path);
}

static void release_at_exit(void) { jobserver_release_all(); }

/* Also when gpucc ends by interrupt_exit or crash_fatal, which skip atexit:
 * write(2) and getpid(2) are async-signal-safe. */
static void release_last(enum last_how how) {
  (void)how;
  jobserver_release_all();
}

void jobserver_init(void) {
  const char *flags = getenv("MAKEFLAGS");
  char auth[4096];
  if (!flags || !find_auth(flags, auth, sizeof auth))
    return;
  fd = open_auth(auth);
  if (fd < 0)
    return;
  owner = getpid();
  atexit(release_at_exit);
  last_words_set(LAST_TOKENS, release_last);
}

int jobserver_active(void) { return fd >= 0; }

int jobserver_held(void) { return held; }

int jobserver_try_acquire(void) {
  if (fd < 0)
    return 1;
  if (held >= MAX_TOKENS || hung_up)
    return 0;
  char c;
  ssize_t n;
  do
    n = read(fd, &c, 1);
  while (n < 0 && errno == EINTR);
  if (n != 1)
    return 0; /* EAGAIN: every token is taken */
  tokens[held++] = c;
  return 1;
}

void jobserver_release(void) {
  if (fd < 0 || held == 0 || getpid() != owner)
    return;
  char c = tokens[held - 1];
  ssize_t n;
  do
    n = write(fd, &c, 1);
  while (n < 0 && errno == EINTR);
  held--;
}

void jobserver_release_all(void) {
  while (held > 0 && fd >= 0 && getpid() == owner)
    jobserver_release();
}

pid_t jobserver_wait(int *status) {
  if (fd < 0 || hung_up)
    return interrupt_wait_child(status);
  short revents = 0;
  int rc = interrupt_wait_child_or_fd(status, fd, &revents);
  /* Without POLLIN the pipe is broken: run the jobs already holding
   * tokens, take no more (one job at a time, never more than make
   * allows). */
  if (rc == 0)
    hung_up = !(revents & POLLIN);
  return rc;
}
