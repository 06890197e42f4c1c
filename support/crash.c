/* crash.c: internal errors and crash reproducers; see crash.h.
 *
 * What the handler needs (the stage, the input, the reproducer's script)
 * is prepared in normal code into static buffers, so that the handler
 * itself only formats into a buffer and makes system calls: a crash may
 * come from a corrupted heap, and malloc or stdio could deadlock there. */
#include "crash.h"

#include "last_words.h"
#include "tmp.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* SIGTRAP too: LLVM stops on some broken input with a trap instruction
 * (a device job died as "killed by signal 5" before). */
static const int crash_signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP};
#define NSIGNALS (sizeof crash_signals / sizeof crash_signals[0])

static pid_t owner_pid;
static volatile sig_atomic_t happened;
static char stage[256] = "starting", subject[1024] = "the command line";
static char input_file[4096]; /* copied as the reproducer's module */
static char script[65536];    /* the reproducer's .sh for input_file */
static int argc_saved;
static char **argv_saved;
static char exe[4096] = "gpucc";

/* A fixed-size text being built without allocation. */
struct line {
  char buf[8192];
  size_t n;
};

static void put(struct line *l, const char *s) {
  while (s && *s && l->n < sizeof l->buf - 1)
    l->buf[l->n++] = *s++;
}

static void put_quoted(struct line *l, const char *s) {
  int plain = *s != '\0';
  for (const char *c = s; *c; c++)
    if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+@%", *c))
      plain = 0;
  if (plain) {
    put(l, s);
    return;
  }
  put(l, "'");
  for (char one[2] = {0}; *s; s++) {
    one[0] = *s;
    put(l, *s == '\'' ? "'\\''" : one);
  }
  put(l, "'");
}

static void write_all(int fd, const char *p, size_t n) {
  while (n > 0) {
    ssize_t w = write(fd, p, n);
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0)
      return;
    p += w;
    n -= (size_t)w;
  }
}

/* The script that reruns the command line with `input` replaced by the
 * .mlir beside the script, whatever the two files are renamed to. */
static void render_script(const char *input, char *out, size_t cap) {
  static struct line l; /* normal code only; static to spare the stack */
  l.n = 0;
  put(&l, "#!/bin/sh\n# gpucc crash reproducer: the command that crashed, run on the\n"
          "# module in the .mlir file beside this script.\n");
  put(&l, "exec ");
  put_quoted(&l, exe);
  for (int i = 1; i < argc_saved; i++) {
    put(&l, " ");
    if (input && !strcmp(argv_saved[i], input))
      put(&l, "\"${0%.sh}.mlir\"");
    else
      put_quoted(&l, argv_saved[i]);
  }
  put(&l, "\n");
  size_t n = l.n < cap - 1 ? l.n : cap - 1;
  memcpy(out, l.buf, n);
  out[n] = '\0';
}

static const char *crash_name(int sig) {
  return sig == SIGSEGV  ? "segmentation fault (SIGSEGV)"
         : sig == SIGBUS ? "bus error (SIGBUS)"
         : sig == SIGILL ? "illegal instruction (SIGILL)"
         : sig == SIGFPE ? "arithmetic exception (SIGFPE)"
         : sig == SIGTRAP ? "trace trap (SIGTRAP)"
                         : "aborted (SIGABRT)";
}

static void on_crash(int sig) { crash_fatal(crash_name(sig)); }

void crash_init(int argc, char **argv) {
  owner_pid = getpid();
  argc_saved = argc;
  argv_saved = argv;
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n > 0)
    exe[n] = '\0';
  else
    snprintf(exe, sizeof exe, "%s", argv[0]);
  /* A stack overflow leaves no stack for the handler: give it its own. */
  static char altstack[256 * 1024];
  stack_t ss = {.ss_sp = altstack, .ss_size = sizeof altstack};
  sigaltstack(&ss, NULL);
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_crash;
  sigemptyset(&sa.sa_mask);
  /* SA_RESETHAND: a crash inside the handler ends the process plainly. */
  sa.sa_flags = SA_ONSTACK | SA_RESETHAND;
  for (size_t i = 0; i < NSIGNALS; i++)
    sigaction(crash_signals[i], &sa, NULL);
}

void crash_set_stage(const char *st, const char *subj) {
  snprintf(stage, sizeof stage, "%s", st ? st : "running");
  snprintf(subject, sizeof subject, "%s", subj ? subj : "the command line");
}

void crash_set_input(const char *arg, const char *file) {
  snprintf(input_file, sizeof input_file, "%s", file ? file : "");
  render_script(arg, script, sizeof script);
}

int crash_planted(const char *st) {
  const char *v = getenv("GPUCC_TEST_CRASH");
  return v && !strcmp(v, st);
}

void crash_child_defaults(void) {
  for (size_t i = 0; i < NSIGNALS; i++)
    signal(crash_signals[i], SIG_DFL);
}

int crash_happened(void) { return happened; }

/* Creates <dir>/gpucc-crash-XXXXXX.mlir and .sh (both new) and returns
 * their fds, or -1. Names come from the clock and the pid: mkstemps is not
 * promised to be async-signal-safe. */
static int create_pair(const char *dir, char *mlir, char *sh, size_t cap, int fds[2]) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  unsigned long seed = (unsigned long)ts.tv_nsec ^ ((unsigned long)getpid() * 2654435761UL);
  for (int attempt = 0; attempt < 64; attempt++) {
    unsigned long v = (seed + (unsigned long)attempt * 40503UL) & 0xffffff;
    char hex[7];
    for (int i = 5; i >= 0; i--, v >>= 4)
      hex[i] = "0123456789abcdef"[v & 15];
    hex[6] = '\0';
    struct line l = {.n = 0};
    put(&l, dir);
    put(&l, "/gpucc-crash-");
    put(&l, hex);
    if (l.n + 6 >= cap)
      return -1;
    memcpy(mlir, l.buf, l.n);
    memcpy(mlir + l.n, ".mlir", 6);
    memcpy(sh, l.buf, l.n);
    memcpy(sh + l.n, ".sh", 4);
    fds[0] = open(mlir, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fds[0] < 0) {
      if (errno == EEXIST)
        continue;
      return -1;
    }
    fds[1] = open(sh, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0755);
    if (fds[1] >= 0)
      return 0;
    close(fds[0]);
    unlink(mlir);
    if (errno != EEXIST)
      return -1;
  }
  return -1;
}

/* Writes the reproducer: the module from `text` (or copied from the file
 * `from`) and the script; then says where. Async-signal-safe. */
static void write_reproducer(const char *text, size_t len, const char *from, const char *sh_text) {
  static char mlir[4200], sh[4200];
  int fds[2];
  struct line note = {.n = 0};
  if (!text && (!from || !*from)) {
    put(&note, "gpucc: note: no reproducer: no input was read yet\n");
    write_all(2, note.buf, note.n);
    return;
  }
  if (create_pair(tmp_base_dir(), mlir, sh, sizeof mlir, fds) != 0 &&
      create_pair(".", mlir, sh, sizeof mlir, fds) != 0) {
    put(&note, "gpucc: note: cannot write a reproducer\n");
    write_all(2, note.buf, note.n);
    return;
  }
  if (text) {
    write_all(fds[0], text, len);
  } else {
    int in = open(from, O_RDONLY | O_CLOEXEC);
    char buf[16384];
    ssize_t n;
    while (in >= 0 && ((n = read(in, buf, sizeof buf)) > 0 || (n < 0 && errno == EINTR)))
      if (n > 0)
        write_all(fds[0], buf, (size_t)n);
    if (in >= 0)
      close(in);
  }
  write_all(fds[1], sh_text, strlen(sh_text));
  close(fds[0]);
  close(fds[1]);
  put(&note, "gpucc: note: crash reproducer written to '");
  put(&note, mlir);
  put(&note, "' and '");
  put(&note, sh);
  put(&note, "'; please attach both to a bug report\n");
  write_all(2, note.buf, note.n);
}

static void put_error(const char *what, const char *st, const char *subj) {
  struct line l = {.n = 0};
  put(&l, "gpucc: internal error: ");
  put(&l, what);
  put(&l, ", while ");
  put(&l, st);
  put(&l, " for ");
  put(&l, subj);
  put(&l, "\n");
  write_all(2, l.buf, l.n);
}

_Noreturn void crash_fatal(const char *what) {
  happened = 1;
  put_error(what, stage, subject);
  if (getpid() != owner_pid)
    _exit(CRASH_EXIT); /* a job child: the parent writes the reproducer */
  write_reproducer(NULL, 0, input_file, script);
  last_words_run(LAST_NOW); /* children, jobserver tokens, temp files */
  _exit(CRASH_EXIT);
}

int crash_is_crash_status(int status) {
  if (WIFEXITED(status))
    return WEXITSTATUS(status) == CRASH_EXIT;
  if (!WIFSIGNALED(status))
    return 0;
  for (size_t i = 0; i < NSIGNALS; i++)
    if (WTERMSIG(status) == crash_signals[i])
      return 1;
  return 0;
}

void crash_report_job(int status, const char *st, const char *subj, const char *input,
                      const char *text, size_t len, const char *own_script) {
  happened = 1;
  if (WIFSIGNALED(status))
    put_error(crash_name(WTERMSIG(status)), st, subj);
  static char job_script[sizeof script];
  if (own_script)
    snprintf(job_script, sizeof job_script, "%s", own_script);
  else
    render_script(input, job_script, sizeof job_script);
  write_reproducer(text, len, NULL, job_script);
}
