/* tmp.c: the temp-file registry; see tmp.h.
 *
 * Paths live in a fixed array so the signal handler can walk it without
 * allocating. Removal runs in reverse creation order, so files go before the
 * directories that hold them. The pid check keeps a forked child (which
 * inherits the registry and the atexit hook) from deleting our files. */
#include "tmp.h"

#include "diag.h"
#include "interrupt.h"
#include "last_words.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define TMP_MAX_PATHS 4096

static char *paths[TMP_MAX_PATHS];
static volatile sig_atomic_t npaths;
static pid_t owner_pid;
static int keep;
static char *session_dir;
static unsigned counter;
static char base_dir[4096] = "/tmp";

void tmp_set_keep(int k) { keep = k; }
int tmp_keep(void) { return keep; }

static int tmp_register(char *path) {
  if (npaths >= TMP_MAX_PATHS) {
    free(path);
    return diag_error("too many temporary files");
  }
  paths[npaths] = path;
  npaths = npaths + 1;
  return 0;
}

static void tmp_unregister(const char *path) {
  for (int i = npaths - 1; i >= 0; i--) {
    if (paths[i] && strcmp(paths[i], path) == 0) {
      free(paths[i]);
      paths[i] = NULL;
      return;
    }
  }
}

/* Removes everything under the directory fd `dir` (not the directory), with
 * system calls only, so that it can run in a signal handler. Tools that
 * gpucc runs (and LLVM inside device jobs) leave their own temp files in the
 * session directory, whose names we never learn. */
static void remove_contents(int dir, int depth) {
  char buf[4096];
  long n;
  while ((n = syscall(SYS_getdents64, dir, buf, sizeof buf)) > 0) {
    for (long off = 0; off < n;) {
      struct linux_dirent64 {
        unsigned long long ino;
        long long off;
        unsigned short reclen;
        unsigned char type;
        char name[];
      } *d = (void *)(buf + off);
      off += d->reclen;
      if (d->name[0] == '.' && (d->name[1] == '\0' || (d->name[1] == '.' && d->name[2] == '\0')))
        continue;
      if (unlinkat(dir, d->name, 0) == 0 || depth > 8)
        continue;
      int sub = openat(dir, d->name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      if (sub >= 0) {
        remove_contents(sub, depth + 1);
        close(sub);
      }
      unlinkat(dir, d->name, AT_REMOVEDIR);
    }
  }
}

void tmp_cleanup(void) {
  if (getpid() != owner_pid)
    return;
  if (session_dir && !keep) {
    int fd = open(session_dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd >= 0) {
      remove_contents(fd, 0);
      close(fd);
    }
  }
  for (int i = npaths - 1; i >= 0; i--) {
    char *p = paths[i];
    if (!p)
      continue;
    /* Outputs-in-progress are always removed; intermediates only without
     * --save-temps. Intermediates all live in the session directory. */
    int is_intermediate = session_dir && strncmp(p, session_dir, strlen(session_dir)) == 0;
    if (keep && is_intermediate)
      continue;
    if (unlink(p) != 0 && (errno == EISDIR || errno == EPERM))
      rmdir(p);
  }
}

static void on_exit_cleanup(void) { tmp_cleanup(); }

static void last_cleanup(enum last_how how) {
  (void)how; /* async-signal-safe either way */
  tmp_cleanup();
}

void tmp_init(void) {
  /* Kept before ensure_session_dir points TMPDIR at the session directory:
   * crash reproducers go here, beside it, and outlive it. */
  const char *t = getenv("TMPDIR");
  if (t && *t && strlen(t) < sizeof base_dir)
    snprintf(base_dir, sizeof base_dir, "%s", t);
  owner_pid = getpid();
  atexit(on_exit_cleanup);
  last_words_set(LAST_FILES, last_cleanup);
  interrupt_init();
}

const char *tmp_base_dir(void) { return base_dir; }

static const char *ensure_session_dir(void) {
  if (session_dir)
    return session_dir;
  const char *base = getenv("TMPDIR");
  if (!base || !*base)
    base = "/tmp";
  size_t n = strlen(base) + sizeof "/gpucc-XXXXXX";
  char *dir = malloc(n);
  if (!dir)
    return NULL;
  snprintf(dir, n, "%s/gpucc-XXXXXX", base);
  if (!mkdtemp(dir)) {
    diag_error("cannot create temporary directory in '%s': %s", base, strerror(errno));
    free(dir);
    return NULL;
  }
  char *reg = strdup(dir);
  if (!reg || tmp_register(reg) != 0) {
    free(dir);
    return NULL;
  }
  session_dir = dir;
  /* Every tool and child inherits it: their own temp files land inside our
   * directory and go with it, even when a job is killed half-way. */
  setenv("TMPDIR", session_dir, 1);
  return session_dir;
}

const char *tmp_path(const char *stem, const char *suffix) {
  const char *dir = ensure_session_dir();
  if (!dir)
    return NULL;
  size_t n = strlen(dir) + strlen(stem) + strlen(suffix) + 32;
  char *p = malloc(n);
  if (!p)
    return NULL;
  /* A counter keeps names unique when the same stem appears twice. */
  snprintf(p, n, "%s/%u-%s%s", dir, counter++, stem, suffix);
  if (tmp_register(p) != 0)
    return NULL;
  return p;
}

const char *tmp_path_register(const char *base, const char *suffix) {
  size_t n = strlen(base) + strlen(suffix) + 1;
  char *p = malloc(n);
  if (!p)
    return NULL;
  snprintf(p, n, "%s%s", base, suffix);
  if (tmp_register(p) != 0)
    return NULL;
  return p;
}

const char *tmp_output_path(const char *dest) {
  size_t n = strlen(dest) + sizeof ".tmp-XXXXXX";
  char *p = malloc(n);
  if (!p)
    return NULL;
  snprintf(p, n, "%s.tmp-XXXXXX", dest);
  int fd = mkstemp(p);
  if (fd < 0) {
    diag_error("cannot create '%s': %s", p, strerror(errno));
    free(p);
    return NULL;
  }
  close(fd);
  if (tmp_register(p) != 0)
    return NULL;
  return p;
}

/* `-o -`: the finished output goes to standard output, as gcc's -S does. */
static int tmp_commit_stdout(const char *tmp) {
  FILE *in = fopen(tmp, "rb");
  if (!in)
    return diag_error("cannot read '%s': %s", tmp, strerror(errno));
  char buf[65536];
  size_t n;
  int bad = 0;
  while (!bad && (n = fread(buf, 1, sizeof buf, in)) > 0)
    bad = fwrite(buf, 1, n, stdout) != n;
  bad |= ferror(in) || fflush(stdout) != 0;
  fclose(in);
  if (bad)
    return diag_error("cannot write the output to standard output: %s", strerror(errno));
  remove(tmp);
  tmp_unregister(tmp);
  return 0;
}

int tmp_commit(const char *tmp, const char *dest) {
  if (!strcmp(dest, "-"))
    return tmp_commit_stdout(tmp);
  /* mkstemp creates 0600; give outputs the usual umask-based mode. */
  mode_t mask = umask(0);
  umask(mask);
  struct stat st;
  mode_t mode = 0666 & ~mask;
  if (stat(tmp, &st) == 0 && (st.st_mode & 0111))
    mode = 0777 & ~mask;
  chmod(tmp, mode);
  if (rename(tmp, dest) != 0)
    return diag_error("cannot rename '%s' to '%s': %s", tmp, dest, strerror(errno));
  tmp_unregister(tmp);
  return 0;
}

int tmp_write_file(const char *path, const void *data, size_t size) {
  FILE *f = fopen(path, "wb");
  if (!f)
    return diag_error("cannot open '%s' for writing: %s", path, strerror(errno));
  size_t w = fwrite(data, 1, size, f);
  int bad = w != size || fflush(f) != 0 || ferror(f);
  int saved = errno;
  if (fclose(f) != 0 && !bad) {
    bad = 1;
    saved = errno;
  }
  if (bad)
    return diag_error("cannot write '%s': %s", path, strerror(saved));
  return 0;
}

int tmp_read_file(const char *path, void **data, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return diag_error("cannot open '%s': %s", path, strerror(errno));
  size_t cap = 1 << 16, len = 0;
  char *buf = malloc(cap + 1);
  for (;;) {
    if (!buf) {
      fclose(f);
      return diag_error("out of memory reading '%s'", path);
    }
    len += fread(buf + len, 1, cap - len, f);
    if (len < cap)
      break;
    cap *= 2;
    char *nb = realloc(buf, cap + 1);
    if (!nb)
      free(buf);
    buf = nb;
  }
  int bad = ferror(f);
  fclose(f);
  if (bad) {
    free(buf);
    return diag_error("cannot read '%s'", path);
  }
  buf[len] = '\0'; /* callers treating text may rely on a terminator */
  *data = buf;
  *size = len;
  return 0;
}

const char *tmp_path_dir(void) { return session_dir ? session_dir : "(none)"; }
