/* proc.c: gpucc's one way to make a child process; see proc.h.
 * posix_spawn reports a missing program through its return value, so
 * "cannot run 'ptxas': No such file or directory" needs no pipe trick.
 *
 * Every child, forked or spawned, is the leader of a process group of its
 * own (as Ninja does), so that what it starts in turn (ld.lld, which MLIR
 * runs inside an AMD device job) is killed with it: gpucc signals the
 * whole group. The terminal's Ctrl-C reaches gpucc alone, which then ends
 * its children itself. */
#include "proc.h"

#include "crash.h"
#include "diag.h"
#include "interrupt.h"
#include "last_words.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

/* Children alive right now; slots hold 0 when free. Written only outside
 * signal handlers, read by the handler. */
#define MAX_CHILDREN 1024
static volatile sig_atomic_t children[MAX_CHILDREN];

/* Ending the process (last_words.h): the children go first. */
static void last_children(enum last_how how) {
  if (how == LAST_NOW)
    spawn_kill_now();
  else
    spawn_end_all();
}

void spawn_track(pid_t pid) {
  last_words_set(LAST_CHILDREN, last_children);
  for (int i = 0; i < MAX_CHILDREN; i++)
    if (children[i] == 0) {
      children[i] = pid;
      return;
    }
}

void spawn_untrack(pid_t pid) {
  for (int i = 0; i < MAX_CHILDREN; i++)
    if (children[i] == pid)
      children[i] = 0;
}

void spawn_kill_running(void) {
  for (int i = 0; i < MAX_CHILDREN; i++)
    if (children[i] > 0)
      kill(-(pid_t)children[i], SIGTERM);
}

void spawn_kill_now(void) {
  for (int i = 0; i < MAX_CHILDREN; i++) {
    pid_t pid = (pid_t)children[i];
    if (pid <= 0)
      continue;
    kill(-pid, SIGKILL);
    /* The leader gone, nothing of the job writes into the session
     * directory any more (the rest of its group got SIGKILL too). */
    while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
      ;
    children[i] = 0;
  }
}

void spawn_end_all(void) {
  /* Everyone gets SIGTERM at once, so the grace periods overlap. */
  spawn_kill_running();
  for (int i = 0; i < MAX_CHILDREN; i++)
    if (children[i] > 0)
      spawn_end((pid_t)children[i]);
}

/* A child's group is gone when nothing in it is left to signal. */
static int group_alive(pid_t pgid) { return kill(-pgid, 0) == 0 || errno == EPERM; }

static void sleep_ms(long ms) {
  struct timespec ts = {0, ms * 1000 * 1000};
  nanosleep(&ts, NULL);
}

void spawn_end(pid_t pid) {
  kill(-pid, SIGTERM);
  int status, reaped = 0;
  /* A grace period for the child to leave on its own (2 s at most), then
   * SIGKILL for whatever is left of its group. */
  for (int tick = 0; tick < 200 && !reaped; tick++) {
    reaped = waitpid(pid, &status, WNOHANG) == pid;
    if (!reaped)
      sleep_ms(10);
  }
  kill(-pid, SIGKILL);
  if (!reaped)
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
      ;
  /* Grandchildren are init's to reap: wait until the group is empty. */
  for (int tick = 0; tick < 200 && group_alive(pid); tick++)
    sleep_ms(10);
  spawn_untrack(pid);
}

static void reset_signals_in_child(void) {
  signal(SIGINT, SIG_DFL);
  signal(SIGTERM, SIG_DFL);
  signal(SIGHUP, SIG_DFL);
  signal(SIGCHLD, SIG_DFL);
  /* A crash in a job is reported by the parent, which sees the signal and
   * still holds an intact copy of the module for the reproducer. */
  crash_child_defaults();
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, NULL);
  for (int i = 0; i < MAX_CHILDREN; i++)
    children[i] = 0; /* the parent's children are not this one's */
}

/* In a forked child: fd `to` becomes `path` opened with `flags`. */
static int redirect(int to, const char *path, int flags) {
  int fd = open(path, flags | O_CLOEXEC, 0600);
  if (fd < 0)
    return -1;
  int rc = dup2(fd, to) < 0 ? -1 : 0; /* dup2 clears close-on-exec */
  close(fd);
  return rc;
}

/* In a forked child, before its body runs: the streams io asks for. A
 * failure is said on the stream we still have. */
static void setup_streams(const struct spawn_io *io, const char *what) {
  if (!io)
    return;
  if (io->null_stdin && redirect(0, "/dev/null", O_RDONLY) != 0)
    diag_error("cannot give %s /dev/null as standard input: %s", what, strerror(errno));
  if (io->output) {
    if (redirect(1, io->output, O_WRONLY | O_CREAT | O_TRUNC) != 0) {
      diag_error("cannot capture the output of %s in '%s': %s", what, io->output, strerror(errno));
      _exit(1);
    }
    dup2(1, 2);
  }
}

int spawn_fork(int (*body)(void *), void *arg, const char *what, pid_t *pid) {
  return spawn_fork_io(body, arg, NULL, what, pid);
}

int spawn_fork_io(int (*body)(void *), void *arg, const struct spawn_io *io, const char *what,
                  pid_t *pid) {
  fflush(NULL);
  pid_t p = fork();
  if (p < 0)
    return diag_error("cannot fork for %s: %s", what, strerror(errno));
  if (p == 0) {
    setpgid(0, 0);
    reset_signals_in_child();
    setup_streams(io, what);
    int rc = body(arg);
    fflush(NULL);
    _exit(rc);
  }
  setpgid(p, p); /* also here: whichever runs first, the group exists */
  spawn_track(p);
  *pid = p;
  return 0;
}

static int start(char *const argv[], const struct spawn_io *io, pid_t *pid) {
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  if (io && io->null_stdin)
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  if (io && io->output) {
    posix_spawn_file_actions_addopen(&fa, 1, io->output, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
  }
  posix_spawnattr_t at;
  posix_spawnattr_init(&at);
  sigset_t dfl;
  sigemptyset(&dfl);
  sigaddset(&dfl, SIGINT);
  sigaddset(&dfl, SIGTERM);
  sigaddset(&dfl, SIGHUP);
  posix_spawnattr_setsigdefault(&at, &dfl);
  sigset_t none;
  sigemptyset(&none);
  posix_spawnattr_setsigmask(&at, &none);
  posix_spawnattr_setpgroup(&at, 0);
  posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
  int rc = posix_spawnp(pid, argv[0], &fa, &at, argv, environ);
  posix_spawnattr_destroy(&at);
  posix_spawn_file_actions_destroy(&fa);
  return rc;
}

static int wait_for(pid_t pid, int *status) {
  spawn_track(pid);
  pid_t w;
  do {
    w = waitpid(pid, status, 0);
    /* A recorded SIGINT interrupts the wait: the probe goes with us. */
    if (w < 0 && errno == EINTR && interrupt_pending())
      interrupt_exit();
  } while (w < 0 && errno == EINTR);
  spawn_untrack(pid);
  return w < 0 ? -1 : 0;
}

int spawn_start(char *const argv[], const struct spawn_io *io, const char *what, pid_t *pid) {
  int rc = start(argv, io, pid);
  if (rc != 0)
    return diag_error("cannot run '%s' (%s): %s", argv[0], what, strerror(rc));
  spawn_track(*pid);
  return 0;
}

int spawn_check_status(int status, const char *tool, const char *what) {
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
    return 0;
  if (WIFSIGNALED(status))
    return diag_error("'%s' (%s) killed by signal %d", tool, what, WTERMSIG(status));
  return diag_error("'%s' (%s) exited with status %d", tool, what, WEXITSTATUS(status));
}

int spawn_run_quiet(char *const argv[], const char *capture) {
  pid_t pid;
  int status;
  struct spawn_io io = {capture, 0};
  if (start(argv, &io, &pid) != 0 || wait_for(pid, &status) != 0)
    return -1;
  if (WIFEXITED(status))
    return WEXITSTATUS(status);
  return -1;
}

int spawn_run(char *const argv[], const char *capture, const char *what) {
  pid_t pid;
  struct spawn_io io = {capture, 0};
  int rc = start(argv, &io, &pid);
  if (rc != 0)
    return diag_error("cannot run '%s' (%s): %s", argv[0], what, strerror(rc));
  int status;
  if (wait_for(pid, &status) != 0)
    return diag_error("waiting for '%s' (%s): %s", argv[0], what, strerror(errno));
  return spawn_check_status(status, argv[0], what);
}

static int needs_quotes(const char *s) {
  if (!*s)
    return 1;
  for (; *s; s++)
    if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+@%", *s))
      return 1;
  return 0;
}

void spawn_print(FILE *out, char *const argv[]) {
  for (int i = 0; argv[i]; i++) {
    if (i)
      fputc(' ', out);
    if (!needs_quotes(argv[i])) {
      fputs(argv[i], out);
      continue;
    }
    /* Single quotes protect everything but a single quote itself. */
    fputc('\'', out);
    for (const char *c = argv[i]; *c; c++) {
      if (*c == '\'')
        fputs("'\\''", out);
      else
        fputc(*c, out);
    }
    fputc('\'', out);
  }
  fputc('\n', out);
}
