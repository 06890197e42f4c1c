/* bench_startup.c: start-up time and resident memory of a printing,
 * kernel-launching gpucc program (startup.mlir, host backend) against a C
 * hello world, measured side by side in one run.
 *
 *   bench_startup RUNS EXPECTED PROBE HELLO PROGRAM [PROGRAM...]
 *
 * EXPECTED is the programs' expected output (memref addresses written as
 * ADDR), PROBE the rss_probe.so preloaded for the memory runs, HELLO the C
 * baseline; each PROGRAM is "label=path" (the static-runtime build first:
 * its ratios are the ones with goals, 1.5x time and 2x memory).
 *
 * Time: each program is started RUNS times, in rotation so that drifts of
 * the machine hit all alike, from posix_spawn to the end of wait4, stdout on
 * /dev/null; the median counts (these machines are noisy). Memory: the peak
 * resident set of a few more runs, reported by the preloaded probe (see
 * rss_probe.c for why not ru_maxrss), median again. Every gpucc program's
 * output is compared with EXPECTED first: a program that fails, or that did
 * not launch its kernel and print, is not timed. No time is asserted. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

#define RSS_RUNS 21
#define MAX_PROGRAMS 8
#define GOAL_TIME 1.5
#define GOAL_RSS 2.0

struct program {
  const char *label, *path;
  double *times; /* seconds, RUNS of them */
  long rss[RSS_RUNS];
};

static void die(const char *what) {
  fprintf(stderr, "bench_startup: %s\n", what);
  exit(1);
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Runs path with stdout on out_fd (and stderr too when out_fd is a capture);
 * returns its wait status. */
static int run(const char *path, int out_fd, int capture_stderr) {
  posix_spawn_file_actions_t fa;
  if (posix_spawn_file_actions_init(&fa) != 0 ||
      posix_spawn_file_actions_adddup2(&fa, out_fd, 1) != 0 ||
      (capture_stderr && posix_spawn_file_actions_adddup2(&fa, out_fd, 2) != 0))
    die("cannot set up posix_spawn");
  char *argv[] = {(char *)path, NULL};
  pid_t pid;
  int err = posix_spawn(&pid, path, &fa, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  if (err != 0) {
    fprintf(stderr, "bench_startup: cannot run '%s': %s\n", path, strerror(err));
    exit(1);
  }
  int status;
  struct rusage ru;
  if (wait4(pid, &status, 0, &ru) != pid)
    die("wait4 failed");
  return status;
}

static char *read_all(int fd, size_t *len) {
  size_t cap = 4096, n = 0;
  char *buf = malloc(cap);
  for (;;) {
    if (!buf)
      die("out of memory");
    if (n + 1 == cap)
      buf = realloc(buf, cap *= 2);
    if (!buf)
      die("out of memory");
    ssize_t r = read(fd, buf + n, cap - n - 1);
    if (r < 0)
      die("read failed");
    if (r == 0)
      break;
    n += (size_t)r;
  }
  buf[n] = '\0';
  *len = n;
  return buf;
}

/* Memref descriptors print their address; the expected output says ADDR.
 * Returns a new string. */
static char *mask_addresses(const char *s) {
  const char *key = "base@ = 0x";
  size_t klen = strlen(key);
  char *out = malloc(2 * strlen(s) + 8), *o = out; /* "0x1" grows by one */
  if (!out)
    die("out of memory");
  while (*s) {
    if (strncmp(s, key, klen) == 0) {
      memcpy(o, "base@ = ADDR", 12);
      o += 12;
      s += klen;
      while ((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f'))
        s++;
    } else {
      *o++ = *s++;
    }
  }
  *o = '\0';
  return out;
}

/* The program prints exactly what EXPECTED holds, and exits with 0. */
static void check_output(const struct program *p, const char *expected) {
  char tmpl[] = "/tmp/bench_startup.XXXXXX";
  int fd = mkstemp(tmpl);
  if (fd < 0)
    die("cannot create a temporary file");
  unlink(tmpl);
  int status = run(p->path, fd, 1);
  lseek(fd, 0, SEEK_SET);
  size_t len;
  char *raw = read_all(fd, &len);
  close(fd);
  char *got = mask_addresses(raw);
  free(raw);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || strcmp(got, expected) != 0) {
    fprintf(stderr, "bench_startup: '%s' (%s) did not print what %s expects "
                    "(status %d):\n%s",
            p->path, p->label, "startup.out", status, got);
    exit(1);
  }
  free(got);
}

/* One run under the probe: its peak resident set in kB. */
static long measure_rss(const char *path, const char *probe, int devnull) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0)
    die("pipe failed");
  /* The write end must survive the exec: an un-close-on-exec duplicate. */
  int wfd = dup(fds[1]);
  close(fds[1]);
  char fdname[16];
  snprintf(fdname, sizeof fdname, "%d", wfd);
  setenv("LD_PRELOAD", probe, 1);
  setenv("RSS_PROBE_FD", fdname, 1);
  int status = run(path, devnull, 0);
  unsetenv("LD_PRELOAD");
  unsetenv("RSS_PROBE_FD");
  close(wfd);
  size_t len;
  char *text = read_all(fds[0], &len);
  close(fds[0]);
  long kb = strtol(text, NULL, 10);
  free(text);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || kb <= 0) {
    fprintf(stderr, "bench_startup: no peak memory from '%s' (status %d)\n", path, status);
    exit(1);
  }
  return kb;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}
static int cmp_long(const void *a, const void *b) {
  long x = *(const long *)a, y = *(const long *)b;
  return x < y ? -1 : x > y;
}

static double median_time(struct program *p, int runs) {
  qsort(p->times, (size_t)runs, sizeof *p->times, cmp_double);
  return p->times[runs / 2];
}
static long median_rss(struct program *p) {
  qsort(p->rss, RSS_RUNS, sizeof *p->rss, cmp_long);
  return p->rss[RSS_RUNS / 2];
}

int main(int argc, char **argv) {
  if (argc < 6)
    die("usage: bench_startup RUNS EXPECTED PROBE HELLO LABEL=PROGRAM...");
  int runs = atoi(argv[1]);
  if (runs < 1)
    die("RUNS must be at least 1");
  int efd = open(argv[2], O_RDONLY | O_CLOEXEC);
  if (efd < 0)
    die("cannot open the expected output");
  size_t elen;
  char *expected = read_all(efd, &elen);
  close(efd);
  const char *probe = argv[3];

  struct program progs[MAX_PROGRAMS];
  int n = 0;
  progs[n++] = (struct program){.label = "C hello world", .path = argv[4]};
  for (int i = 5; i < argc && n < MAX_PROGRAMS; i++) {
    char *eq = strchr(argv[i], '=');
    if (!eq)
      die("programs are given as LABEL=PATH");
    *eq = '\0';
    progs[n++] = (struct program){.label = argv[i], .path = eq + 1};
  }
  /* The same conditions for every gpucc program: the CPU backend, no
   * tracing; the hello world ignores them. */
  setenv("GPUCC_BACKEND", "host", 1);
  unsetenv("GPUCC_LOG");
  for (int i = 1; i < n; i++)
    check_output(&progs[i], expected);

  int devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
  if (devnull < 0)
    die("cannot open /dev/null");
  for (int i = 0; i < n; i++)
    if (!(progs[i].times = malloc((size_t)runs * sizeof(double))))
      die("out of memory");
  /* A few unmeasured rounds first: page cache, branch predictors. */
  for (int r = 0; r < 5; r++)
    for (int i = 0; i < n; i++)
      run(progs[i].path, devnull, 0);
  for (int r = 0; r < runs; r++)
    for (int k = 0; k < n; k++) {
      struct program *p = &progs[(r + k) % n];
      double t0 = now();
      int status = run(p->path, devnull, 0);
      p->times[r] = now() - t0;
      if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "bench_startup: '%s' failed (status %d)\n", p->path, status);
        return 1;
      }
    }
  for (int r = 0; r < RSS_RUNS; r++)
    for (int i = 0; i < n; i++)
      progs[i].rss[r] = measure_rss(progs[i].path, probe, devnull);

  printf("start-up of a printing, kernel-launching gpucc program (host backend) against a\n"
         "C hello world: median of %d runs each (time), of %d (peak resident memory)\n",
         runs, RSS_RUNS);
  double t_hello = median_time(&progs[0], runs);
  long rss_hello = median_rss(&progs[0]);
  printf("  %-28s %8.3f ms %8ld kB\n", progs[0].label, t_hello * 1e3, rss_hello);
  double first_t = 0, first_m = 0;
  for (int i = 1; i < n; i++) {
    double t = median_time(&progs[i], runs);
    long rss = median_rss(&progs[i]);
    double rt = t / t_hello, rm = (double)rss / (double)rss_hello;
    if (i == 1)
      first_t = rt, first_m = rm;
    printf("  %-28s %8.3f ms %8ld kB   time %.2fx   memory %.2fx\n", progs[i].label, t * 1e3,
           rss, rt, rm);
  }
  if (n > 1)
    printf("%s: start-up %.2fx a C hello world (goal <= %.1fx: %s), resident memory %.2fx "
           "(goal <= %.0fx: %s)\n",
           progs[1].label, first_t, GOAL_TIME, first_t <= GOAL_TIME ? "met" : "MISSED", first_m,
           GOAL_RSS, first_m <= GOAL_RSS ? "met" : "MISSED");
  for (int i = 0; i < n; i++)
    free(progs[i].times);
  free(expected);
  close(devnull);
  return 0;
}
