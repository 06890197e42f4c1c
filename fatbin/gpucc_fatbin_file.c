/* gpucc_fatbin_file.c: from a file name to its open fat binaries.
 *
 * A file may be an executable, a shared library, a relocatable object or a
 * bare blob (as --save-temps keeps it); fatbin_find_blobs tells which and
 * finds every blob, fatbin_open reads each one's index. The file is mapped
 * when it can be (executables can be large) and read otherwise (a pipe).
 * Errors are worded here once for every command: "cannot open", "contains
 * no gpucc fat binary", or the library's reason for a damaged one. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gpucc_fatbin.h"

/* A file's bytes, mapped or read. */
struct tool_file {
  unsigned char *data;
  size_t size;
  int mapped;
};

int tool_error(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "%s: error: ", tool_prog);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  return 1;
}

const char *tool_msg(const char *err) {
  static const char prefix[] = "fatbin: ";
  return strncmp(err, prefix, sizeof prefix - 1) == 0 ? err + sizeof prefix - 1 : err;
}

void *tool_xmalloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p) {
    tool_error("out of memory");
    exit(1);
  }
  return p;
}

int tool_flush(void) {
  if (fflush(stdout) != 0 || ferror(stdout))
    return tool_error("cannot write to standard output: %s", strerror(errno));
  return 0;
}

/* Reads a whole file. Returns 0, or -1 with errno set. */
static int tool_file_load(const char *path, struct tool_file *f) {
  *f = (struct tool_file){0};
  int fd = open(path, O_RDONLY);
  if (fd < 0)
    return -1;
  struct stat st;
  if (fstat(fd, &st) != 0)
    goto fail;
  if (S_ISDIR(st.st_mode)) {
    errno = EISDIR;
    goto fail;
  }
  if (S_ISREG(st.st_mode) && st.st_size > 0) {
    void *p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p != MAP_FAILED) {
      f->data = p;
      f->size = (size_t)st.st_size;
      f->mapped = 1;
      close(fd);
      return 0;
    }
  }
  size_t cap = 0;
  for (;;) {
    if (f->size == cap) {
      size_t ncap = cap ? cap * 2 : 65536;
      unsigned char *p = realloc(f->data, ncap);
      if (!p) {
        errno = ENOMEM;
        goto fail;
      }
      f->data = p;
      cap = ncap;
    }
    ssize_t r = read(fd, f->data + f->size, cap - f->size);
    if (r < 0 && errno == EINTR)
      continue;
    if (r < 0)
      goto fail;
    if (r == 0)
      break;
    f->size += (size_t)r;
  }
  close(fd);
  return 0;
fail: {
  int e = errno;
  free(f->data);
  *f = (struct tool_file){0};
  close(fd);
  errno = e;
  return -1;
}
}

static void tool_file_unload(struct tool_file *f) {
  if (f->mapped)
    munmap(f->data, f->size);
  else
    free(f->data);
}

/* What the fatbin_find_blobs visitor needs. */
struct tool_walk {
  const char *path;
  const unsigned char *base;
  tool_blob_fn fn;
  void *ud;
  size_t blobs;
  int failed_in_fn;
  char err[512];
};

static int tool_visit(const void *blob, size_t size, void *ud) {
  struct tool_walk *w = ud;
  struct fatbin *fb;
  if (fatbin_open(blob, size, &fb, w->err, sizeof w->err) != 0)
    return 1;
  struct tool_blob b = {w->path, ++w->blobs, (size_t)((const unsigned char *)blob - w->base),
                        blob, fb};
  int r = w->fn(&b, w->ud);
  fatbin_close(fb);
  if (r != 0) {
    w->failed_in_fn = 1;
    return 1;
  }
  return 0;
}

int tool_each_blob(const char *path, tool_blob_fn fn, void *ud) {
  struct tool_file f;
  if (tool_file_load(path, &f) != 0)
    return tool_error("cannot open '%s': %s", path, strerror(errno));
  if (!fatbin_probe(f.data, f.size)) {
    tool_file_unload(&f);
    return tool_error("'%s' contains no gpucc fat binary", path);
  }
  struct tool_walk w = {.path = path, .base = f.data, .fn = fn, .ud = ud};
  char err[512] = "";
  int r = fatbin_find_blobs(f.data, f.size, tool_visit, &w, err, sizeof err);
  int rc = 0;
  if (r != 0 && !w.failed_in_fn)
    rc = tool_error("'%s': %s", path, tool_msg(r == 1 && w.err[0] ? w.err : err));
  else if (r != 0)
    rc = 1;
  else if (w.blobs == 0) /* a section of nothing but padding */
    rc = tool_error("'%s' contains no gpucc fat binary", path);
  tool_file_unload(&f);
  return rc;
}

int tool_files(int argc, char **argv, const char *cmd, char ***files) {
  *files = tool_xmalloc(((size_t)argc + 1) * sizeof **files);
  int n = 0, end_of_options = 0;
  for (int i = 0; i < argc; i++) {
    if (!end_of_options && strcmp(argv[i], "--") == 0)
      end_of_options = 1;
    else if (!end_of_options && argv[i][0] == '-' && argv[i][1] != '\0') {
      tool_error("%s: unknown option '%s'", cmd, argv[i]);
      fprintf(stderr, "usage: %s %s FILE...  (see %s --help)\n", tool_prog, cmd, tool_prog);
      free(*files);
      return -1;
    } else
      (*files)[n++] = argv[i];
  }
  if (n == 0) {
    tool_error("%s: no input files", cmd);
    fprintf(stderr, "usage: %s %s FILE...  (see %s --help)\n", tool_prog, cmd, tool_prog);
    free(*files);
    return -1;
  }
  return n;
}
