/* toolchain_identity.c: what a cache key says of the files a kind's objects
 * are made with (tools, device libraries).
 *
 * A file is named by its real path, size and modification time, as ccache
 * names a compiler by default: a package upgrade or a different install
 * changes one of them, and asking costs a stat, not a read of megabytes of
 * bitcode in every build. */
#include "lowering.h"

#include "diag.h"
#include "xstr.h"

#include <dirent.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

char *toolchain_file_identity(const char *path) {
  if (!path || !*path)
    return xasprintf("-");
  char *real = realpath(path, NULL);
  struct stat st;
  char *id = real && stat(real, &st) == 0
                 ? xasprintf("%s:%lld:%lld.%09ld", real, (long long)st.st_size,
                             (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec)
                 : xasprintf("%s:missing", path);
  free(real);
  return id;
}

static int by_name(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

char *toolchain_dir_identity(const char *dir, const char *suffix) {
  if (!dir || !*dir)
    return xasprintf("-");
  DIR *d = opendir(dir);
  if (!d)
    return xasprintf("%s:missing", dir);
  /* In name order: readdir's order is the file system's. */
  char **names = NULL;
  size_t n = 0, cap = 0, slen = strlen(suffix);
  for (struct dirent *e; (e = readdir(d)) != NULL;) {
    size_t len = strlen(e->d_name);
    if (len < slen || strcmp(e->d_name + len - slen, suffix) != 0)
      continue;
    if (n == cap) {
      cap = cap ? 2 * cap : 64;
      names = realloc(names, cap * sizeof *names);
      if (!names)
        BUG("out of memory");
    }
    names[n++] = xasprintf("%s/%s", dir, e->d_name);
  }
  closedir(d);
  qsort(names, n, sizeof *names, by_name);
  char *id = xasprintf("%s:%zu", dir, n);
  for (size_t i = 0; i < n; i++) {
    char *file = toolchain_file_identity(names[i]);
    char *more = xasprintf("%s %s", id, file);
    free(file);
    free(id);
    free(names[i]);
    id = more;
  }
  free(names);
  return id;
}

char *toolchain_program_identity(const char *name) {
  if (strchr(name, '/'))
    return toolchain_file_identity(name);
  const char *path = getenv("PATH");
  if (!path)
    path = "/usr/bin:/bin";
  /* The first executable `name` along PATH, as the spawn will find it. */
  for (const char *p = path;; p++) {
    const char *end = strchr(p, ':');
    size_t len = end ? (size_t)(end - p) : strlen(p);
    char *cand = xasprintf("%.*s/%s", (int)len, len ? p : ".", name);
    if (access(cand, X_OK) == 0) {
      char *id = toolchain_file_identity(cand);
      free(cand);
      return id;
    }
    free(cand);
    if (!end)
      break;
    p = end;
  }
  return xasprintf("%s:missing", name);
}
