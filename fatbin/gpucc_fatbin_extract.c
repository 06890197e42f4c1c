/* gpucc_fatbin_extract.c: `extract` and `verify`, the objects themselves.
 *
 * `extract` writes every object of every blob to DIR/<module>/<target>.<format>
 * (the member name inside the archive), so `extract -o d app` gives
 * d/kernels/sm_90.cubin, ready for cuobjdump or llvm-readelf. Names are safe
 * as paths because the reader accepts no '/' and no "." or ".." in module
 * and target names. Two translation units may both have a module called
 * "kernels": the second one's objects go to "kernels.2", and so on. Files
 * are written under a temporary name and renamed into place when complete.
 * With --archives it writes each blob's payload instead, exactly the bytes
 * after the 24-byte header, as DIR/<module>.tar.zst (or .tar when stored):
 * what bsdtar lists when stored, or compressed with no frame needing a
 * dictionary; otherwise each frame decodes with `zstd -d -D` given its
 * dictionary's frame content, as docs/fatbin.md (section 5) shows.
 *
 * `verify` reads every object and checks its size, its SHA-256 against the
 * manifest and its ELF header (or PTX directives) against its entry, with
 * fatbin_verify; it prints one line per object and fails if any is wrong. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gpucc_fatbin.h"

/* ---- extract ---------------------------------------------------------------------- */

struct tool_extract {
  const char *dir;
  int archives; /* --archives: payloads, not objects */
  char **modules; /* module directories already used in this run */
  size_t nmodules;
};

static char *tool_join(const char *a, const char *b) {
  size_t n = strlen(a) + strlen(b) + 2;
  char *s = tool_xmalloc(n);
  snprintf(s, n, "%s/%s", a, b);
  return s;
}

static int tool_mkdir(const char *path) {
  if (mkdir(path, 0777) == 0 || errno == EEXIST)
    return 0;
  return tool_error("cannot create directory '%s': %s", path, strerror(errno));
}

/* Writes size bytes to path through a temporary file in the same directory. */
static int tool_write_file(const char *path, const void *data, size_t size) {
  size_t n = strlen(path) + 16;
  char *tmp = tool_xmalloc(n);
  snprintf(tmp, n, "%s.tmpXXXXXX", path);
  int fd = mkstemp(tmp);
  if (fd < 0) {
    int e = errno;
    free(tmp);
    return tool_error("cannot create '%s': %s", path, strerror(e));
  }
  const unsigned char *p = data;
  size_t done = 0;
  int e = 0;
  while (done < size && e == 0) {
    ssize_t w = write(fd, p + done, size - done);
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0)
      e = w < 0 ? errno : EIO;
    else
      done += (size_t)w;
  }
  if (fchmod(fd, 0644) != 0 && e == 0)
    e = errno;
  if (close(fd) != 0 && e == 0)
    e = errno;
  if (e == 0 && rename(tmp, path) != 0)
    e = errno;
  if (e != 0) {
    unlink(tmp);
    free(tmp);
    return tool_error("cannot write '%s': %s", path, strerror(e));
  }
  free(tmp);
  return 0;
}

/* Chooses the directory for a module's objects when a blob first names
 * it: "<module>", or "<module>.<k>" when an earlier blob of this run had a
 * module of the same name. */
static char *tool_module_dir(struct tool_extract *x, const char *module) {
  size_t n = strlen(module) + 24;
  char *name = tool_xmalloc(n);
  snprintf(name, n, "%s", module);
  for (unsigned k = 2;; k++) {
    size_t i = 0;
    while (i < x->nmodules && strcmp(x->modules[i], name) != 0)
      i++;
    if (i == x->nmodules)
      break;
    snprintf(name, n, "%s.%u", module, k);
  }
  char **m = realloc(x->modules, (x->nmodules + 1) * sizeof *m);
  if (!m) {
    tool_error("out of memory");
    exit(1);
  }
  x->modules = m;
  x->modules[x->nmodules++] = name;
  return name;
}

/* --archives: the payload of one blob, named after its first module. */
static int tool_extract_archive(const struct tool_blob *b, struct tool_extract *x) {
  const struct fatbin_entry *e = fatbin_get(b->fb, 0);
  char base[64];
  snprintf(base, sizeof base, "archive%zu", b->index);
  char *name = tool_module_dir(x, e ? e->module : base);
  size_t n = strlen(x->dir) + strlen(name) + 16;
  char *path = tool_xmalloc(n);
  snprintf(path, n, "%s/%s.tar%s", x->dir, name, fatbin_is_compressed(b->fb) ? ".zst" : "");
  int rc = tool_write_file(path, b->data + FATBIN_HEADER_SIZE,
                           fatbin_blob_size(b->fb) - FATBIN_HEADER_SIZE);
  if (rc == 0)
    printf("%s\n", path);
  free(path);
  return rc;
}

static int tool_extract_blob(const struct tool_blob *b, void *ud) {
  struct tool_extract *x = ud;
  if (x->archives)
    return tool_extract_archive(b, x);
  size_t n = fatbin_count(b->fb);
  /* Module name -> directory, for this blob. */
  char **mods = tool_xmalloc((n + 1) * sizeof *mods);
  char **dirs = tool_xmalloc((n + 1) * sizeof *dirs);
  size_t nmods = 0;
  int rc = 0;
  for (size_t i = 0; i < n && rc == 0; i++) {
    const struct fatbin_entry *e = fatbin_get(b->fb, i);
    size_t k = 0;
    while (k < nmods && strcmp(mods[k], e->module) != 0)
      k++;
    if (k == nmods) {
      mods[nmods] = (char *)e->module;
      dirs[nmods] = tool_module_dir(x, e->module);
      nmods++;
    }
    char *dir = tool_join(x->dir, dirs[k]);
    size_t fl = strlen(e->target) + 16;
    char *file = tool_xmalloc(fl);
    snprintf(file, fl, "%s.%s", e->target, fatbin_format_name(e->format));
    char *path = tool_join(dir, file);
    const void *data;
    size_t size;
    void *to_free;
    char err[512];
    rc = tool_mkdir(dir);
    if (rc == 0 && fatbin_read_object(b->fb, i, &data, &size, &to_free, err, sizeof err) != 0)
      rc = tool_error("'%s': %s", b->path, tool_msg(err));
    else if (rc == 0) {
      rc = tool_write_file(path, data, size);
      free(to_free);
      if (rc == 0)
        printf("%s\n", path);
    }
    free(path);
    free(file);
    free(dir);
  }
  free(mods);
  free(dirs);
  return rc;
}

int tool_cmd_extract(int argc, char **argv) {
  struct tool_extract x = {.dir = "."};
  char **rest = tool_xmalloc(((size_t)argc + 1) * sizeof *rest);
  int nrest = 0, end_of_options = 0;
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    if (!end_of_options && (strcmp(a, "-o") == 0 || strcmp(a, "--output-dir") == 0)) {
      if (i + 1 == argc) {
        free(rest);
        tool_error("extract: '%s' needs a directory", a);
        return 2;
      }
      x.dir = argv[++i];
    } else if (!end_of_options && strcmp(a, "--archives") == 0) {
      x.archives = 1;
    } else if (!end_of_options && strncmp(a, "--output-dir=", 13) == 0) {
      x.dir = a + 13;
    } else if (!end_of_options && strncmp(a, "-o", 2) == 0) {
      x.dir = a + 2;
    } else {
      if (strcmp(a, "--") == 0)
        end_of_options = 1;
      rest[nrest++] = argv[i];
    }
  }
  char **files;
  int n = tool_files(nrest, rest, "extract", &files);
  free(rest);
  if (n < 0)
    return 2;
  int rc = *x.dir ? tool_mkdir(x.dir) : tool_error("extract: empty directory name");
  for (int i = 0; i < n && rc == 0; i++)
    rc = tool_each_blob(files[i], tool_extract_blob, &x);
  for (size_t i = 0; i < x.nmodules; i++)
    free(x.modules[i]);
  free(x.modules);
  free(files);
  return tool_flush() | rc;
}

/* ---- verify ---------------------------------------------------------------------- */

struct tool_verify {
  size_t checked, failed;
};

static int tool_verify_blob(const struct tool_blob *b, void *ud) {
  struct tool_verify *v = ud;
  for (size_t i = 0; i < fatbin_count(b->fb); i++) {
    const struct fatbin_object_info *in = fatbin_get_info(b->fb, i);
    char err[512];
    v->checked++;
    if (fatbin_verify(b->fb, i, err, sizeof err) == 0) {
      printf("%s: ok%s\n", in->file, in->has_sha256 ? "" : " (no hash recorded)");
    } else {
      printf("%s: FAILED: %s\n", in->file, tool_msg(err));
      v->failed++;
    }
  }
  return 0;
}

int tool_cmd_verify(int argc, char **argv) {
  char **files;
  int n = tool_files(argc, argv, "verify", &files);
  if (n < 0)
    return 2;
  int rc = 0;
  for (int i = 0; i < n; i++) {
    struct tool_verify v = {0};
    if (n > 1)
      printf("%s%s:\n", i ? "\n" : "", files[i]);
    if (tool_each_blob(files[i], tool_verify_blob, &v) != 0)
      rc = 1;
    else if (v.failed)
      rc = tool_error("'%s': %zu of %zu objects failed verification", files[i], v.failed,
                      v.checked);
  }
  free(files);
  return tool_flush() | rc;
}
