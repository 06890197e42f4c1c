/* harness.c: runs a scenario in a child process and checks what it did.
 *
 * See harness.h. The child is the same executable, started through
 * /proc/self/exe with posix_spawn, its stderr on a pipe. The parent prints
 * the child's stderr (so a failing test shows it), then compares. */
#include "harness.h"

#include <errno.h>
#include <spawn.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

char *rt_slurp(const char *path) {
  FILE *f = path ? fopen(path, "rb") : NULL;
  if (!f)
    return NULL;
  size_t cap = 4096, len = 0;
  char *buf = malloc(cap);
  size_t n;
  while (buf && (n = fread(buf + len, 1, cap - len - 1, f)) > 0) {
    len += n;
    if (cap - len < 2) {
      char *bigger = realloc(buf, cap * 2);
      if (!bigger) {
        free(buf);
        buf = NULL;
        break;
      }
      buf = bigger;
      cap *= 2;
    }
  }
  fclose(f);
  if (buf)
    buf[len] = '\0';
  return buf;
}

int rt_log_count(const char *log_env, const char *needle) {
  return rt_log_count2(log_env, needle, "");
}

int rt_log_count2(const char *log_env, const char *needle, const char *needle2) {
  char *text = rt_slurp(getenv(log_env));
  int count = 0;
  for (char *line = text; line && *line;) {
    char *end = strchr(line, '\n');
    if (end)
      *end = '\0';
    if (strstr(line, needle) && strstr(line, needle2))
      count++;
    if (!end)
      break;
    line = end + 1;
  }
  free(text);
  return count;
}

void *rt_make_blob(const struct fatbin_entry *entries, size_t n, size_t *size) {
  return rt_make_blob_kernels(entries, n, NULL, 0, size);
}

void *rt_make_blob_kernels(const struct fatbin_entry *entries, size_t n,
                           const struct fatbin_kernel *kernels, size_t nkernels, size_t *size) {
  void *blob = NULL;
  char err[256];
  struct fatbin_meta meta = {.kernels = kernels, .nkernels = nkernels};
  if (fatbin_write_ex(entries, n, &meta, FATBIN_COMPRESS_DEFAULT, &blob, size, err,
                      sizeof err) != 0) {
    fprintf(stderr, "fatbin_write_ex: %s\n", err);
    exit(3);
  }
  return blob;
}

/* Starts this program as `--child name` with stderr into out; returns the
 * exit status, 128+signal, or -1. */
static int rt_run_child(const char *argv0, const char *name, char **out) {
  int fds[2];
  if (pipe(fds) != 0) {
    perror("pipe");
    return -1;
  }
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, fds[1], 2);
  posix_spawn_file_actions_addclose(&fa, fds[0]);
  posix_spawn_file_actions_addclose(&fa, fds[1]);
  char *args[] = {(char *)argv0, "--child", (char *)name, NULL};
  pid_t pid;
  int err = posix_spawn(&pid, "/proc/self/exe", &fa, NULL, args, environ);
  posix_spawn_file_actions_destroy(&fa);
  close(fds[1]);
  if (err != 0) {
    fprintf(stderr, "cannot start child: %s\n", strerror(err));
    close(fds[0]);
    return -1;
  }
  size_t cap = 4096, len = 0;
  char *buf = malloc(cap);
  for (;;) {
    if (cap - len < 1024) {
      cap *= 2;
      buf = realloc(buf, cap);
    }
    if (!buf)
      abort();
    ssize_t n = read(fds[0], buf + len, cap - len - 1);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      break;
    len += (size_t)n;
  }
  buf[len] = '\0';
  close(fds[0]);
  *out = buf;
  int status;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR)
      return -1;
  if (WIFEXITED(status))
    return WEXITSTATUS(status);
  if (WIFSIGNALED(status))
    return 128 + WTERMSIG(status);
  return -1;
}

static void rt_reset_log(const char *env) {
  const char *path = getenv(env);
  if (path && *path)
    unlink(path);
}

int rt_test_main(int argc, char **argv, const struct rt_test *tests, size_t n) {
  int child = argc == 3 && strcmp(argv[1], "--child") == 0;
  const char *name = child ? argv[2] : argc == 2 ? argv[1] : NULL;
  const struct rt_test *t = NULL;
  for (size_t i = 0; name && i < n; i++)
    if (strcmp(tests[i].name, name) == 0)
      t = &tests[i];
  if (!t) {
    fprintf(stderr, "usage: %s SCENARIO\nscenarios:", argv[0]);
    for (size_t i = 0; i < n; i++)
      fprintf(stderr, " %s", tests[i].name);
    fprintf(stderr, "\n");
    return 2;
  }
  if (child) {
    t->run();
    return 0;
  }
  if (t->skip && t->skip()) {
    printf("%s: skipped\n", t->name);
    return 77;
  }
  rt_reset_log("FAKE_CUDA_LOG");
  rt_reset_log("FAKE_HIP_LOG");
  char *err = NULL;
  int status = rt_run_child(argv[0], t->name, &err);
  printf("--- %s: exit status %d, stderr:\n%s---\n", t->name, status, err ? err : "");
  int failures = 0;
  if (status != t->status) {
    printf("FAIL: expected exit status %d, got %d\n", t->status, status);
    failures++;
  }
  for (size_t i = 0; i < sizeof t->stderr_has / sizeof t->stderr_has[0]; i++)
    if (t->stderr_has[i] && (!err || !strstr(err, t->stderr_has[i]))) {
      printf("FAIL: stderr lacks \"%s\"\n", t->stderr_has[i]);
      failures++;
    }
  /* Sanitizer reports fail every scenario, even one expected to exit 1. */
  if (err && strstr(err, "Sanitizer")) {
    printf("FAIL: a sanitizer reported an error\n");
    failures++;
  }
  for (size_t i = 0; i < sizeof t->stderr_lacks / sizeof t->stderr_lacks[0]; i++)
    if (t->stderr_lacks[i] && err && strstr(err, t->stderr_lacks[i])) {
      printf("FAIL: stderr has \"%s\"\n", t->stderr_lacks[i]);
      failures++;
    }
  free(err);
  printf("%s: %s\n", t->name, failures ? "FAILED" : "ok");
  /* The parent only watched the child, which ran the runtime and had its
   * own exit-time checks: skip the parent's (under the asan variant its
   * LeakSanitizer pass alone costs about a tenth of a second). */
  fflush(stdout);
  _exit(failures ? 1 : 0);
}
