/* gpucc_fatbin_main.c: the `gpucc-fatbin` inspection tool.
 *
 * `gpucc-fatbin list FILE...` shows which device objects a program carries:
 * one line per object of every blob found in each file, be it an executable,
 * a shared library, a relocatable object or a bare blob. It is a thin shell
 * around the library (fatbin_find_blobs, fatbin_open), so what it shows is
 * exactly what the runtime will see. All printing happens here.
 *
 * Exit status: 0 success, 1 a file could not be read or holds no (or a
 * broken) fat binary, 2 bad usage. */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fatbin.h"

#ifndef GPUCC_VERSION
#define GPUCC_VERSION "0.1.0"
#endif

static const char fatbin_prog[] = "gpucc-fatbin";

static const char fatbin_help[] =
    "usage: gpucc-fatbin list FILE...\n"
    "       gpucc-fatbin --help | --version\n"
    "\n"
    "Inspects gpucc fat binaries: the archives of device objects (cubin, PTX,\n"
    "hsaco, host shared object) that gpucc embeds in the section .gpucc_fatbin.\n"
    "\n"
    "commands:\n"
    "  list FILE...   print one line per object: module, vendor, target,\n"
    "                 format and size in bytes. FILE may be an executable, a\n"
    "                 shared library, an object file or a bare fat binary.\n"
    "                 With several files, each table follows a 'FILE:' line.\n"
    "\n"
    "options:\n"
    "  --help         print this help and exit\n"
    "  --version      print the version and exit\n"
    "\n"
    "exit status: 0 success, 1 unreadable file or no fat binary, 2 bad usage\n";

/* A file's bytes, mapped or read. */
struct fatbin_file {
  unsigned char *data;
  size_t size;
  int mapped;
};

/* One output line. */
struct fatbin_row {
  char *module, *target;
  const char *vendor, *format;
  char size[24];
};

/* Everything found in one file, filled in by the visitor. */
struct fatbin_listing {
  struct fatbin_row *rows;
  size_t count, cap;
  size_t blobs;  /* blobs visited, some of which may hold no objects */
  char err[512]; /* set when a blob could not be opened */
};

static int fatbin_usage_error(const char *msg, const char *arg) {
  fprintf(stderr, "%s: error: %s", fatbin_prog, msg);
  if (arg)
    fprintf(stderr, " '%s'", arg);
  fprintf(stderr, "\nusage: gpucc-fatbin list FILE...\n");
  return 2;
}

/* Library messages start with "fatbin: " for callers that show them bare;
 * here the tool's own prefix and the file name already say where they come
 * from. */
static const char *fatbin_strip_prefix(const char *msg) {
  static const char prefix[] = "fatbin: ";
  return strncmp(msg, prefix, sizeof prefix - 1) == 0 ? msg + sizeof prefix - 1
                                                      : msg;
}

/* Reads a whole file, by mmap for regular files (executables can be large)
 * and by read otherwise. Returns 0, or -1 with errno set. */
static int fatbin_file_load(const char *path, struct fatbin_file *f) {
  *f = (struct fatbin_file){0};
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
  *f = (struct fatbin_file){0};
  close(fd);
  errno = e;
  return -1;
}
}

static void fatbin_file_unload(struct fatbin_file *f) {
  if (f->mapped)
    munmap(f->data, f->size);
  else
    free(f->data);
}

static char *fatbin_dup(const char *s) {
  char *p = strdup(s);
  if (!p) {
    fprintf(stderr, "%s: error: out of memory\n", fatbin_prog);
    exit(1);
  }
  return p;
}

/* fatbin_find_blobs visitor: opens one blob and adds its objects as rows. */
static int fatbin_collect(const void *blob, size_t size, void *ud) {
  struct fatbin_listing *l = ud;
  struct fatbin *fb;
  if (fatbin_open(blob, size, &fb, l->err, sizeof l->err) != 0)
    return 1;
  l->blobs++;
  for (size_t i = 0; i < fatbin_count(fb); i++) {
    const struct fatbin_entry *e = fatbin_get(fb, i);
    if (l->count == l->cap) {
      l->cap = l->cap ? l->cap * 2 : 16;
      l->rows = realloc(l->rows, l->cap * sizeof *l->rows);
      if (!l->rows) {
        fprintf(stderr, "%s: error: out of memory\n", fatbin_prog);
        exit(1);
      }
    }
    struct fatbin_row *r = &l->rows[l->count++];
    r->module = fatbin_dup(e->module);
    r->target = fatbin_dup(e->target);
    r->vendor = fatbin_vendor_name(e->vendor);
    r->format = fatbin_format_name(e->format);
    snprintf(r->size, sizeof r->size, "%zu", e->size);
  }
  fatbin_close(fb);
  return 0;
}

static size_t fatbin_max(size_t a, size_t b) { return a > b ? a : b; }

/* Prints the rows in aligned columns; SIZE is right-aligned like a number. */
static void fatbin_print_table(const struct fatbin_listing *l) {
  size_t wm = strlen("MODULE"), wv = strlen("VENDOR"), wt = strlen("TARGET"),
         wf = strlen("FORMAT"), ws = strlen("SIZE");
  for (size_t i = 0; i < l->count; i++) {
    const struct fatbin_row *r = &l->rows[i];
    wm = fatbin_max(wm, strlen(r->module));
    wv = fatbin_max(wv, strlen(r->vendor));
    wt = fatbin_max(wt, strlen(r->target));
    wf = fatbin_max(wf, strlen(r->format));
    ws = fatbin_max(ws, strlen(r->size));
  }
  printf("%-*s  %-*s  %-*s  %-*s  %*s\n", (int)wm, "MODULE", (int)wv, "VENDOR",
         (int)wt, "TARGET", (int)wf, "FORMAT", (int)ws, "SIZE");
  for (size_t i = 0; i < l->count; i++) {
    const struct fatbin_row *r = &l->rows[i];
    printf("%-*s  %-*s  %-*s  %-*s  %*s\n", (int)wm, r->module, (int)wv,
           r->vendor, (int)wt, r->target, (int)wf, r->format, (int)ws, r->size);
  }
}

static void fatbin_listing_free(struct fatbin_listing *l) {
  for (size_t i = 0; i < l->count; i++) {
    free(l->rows[i].module);
    free(l->rows[i].target);
  }
  free(l->rows);
}

/* Lists one file; `heading` asks for a "FILE:" line first. Returns 0 or 1. */
static int fatbin_list_file(const char *path, int heading, int first) {
  struct fatbin_file f;
  if (fatbin_file_load(path, &f) != 0) {
    fprintf(stderr, "%s: error: cannot open '%s': %s\n", fatbin_prog, path,
            strerror(errno));
    return 1;
  }
  if (!fatbin_probe(f.data, f.size)) {
    fprintf(stderr, "%s: error: '%s' contains no gpucc fat binary\n", fatbin_prog,
            path);
    fatbin_file_unload(&f);
    return 1;
  }
  struct fatbin_listing l = {0};
  char err[512] = "";
  int r = fatbin_find_blobs(f.data, f.size, fatbin_collect, &l, err, sizeof err);
  int rc = 0;
  if (r != 0) {
    /* r is 1 when the visitor stopped on a blob it could not open. */
    fprintf(stderr, "%s: error: '%s': %s\n", fatbin_prog, path,
            fatbin_strip_prefix(r == 1 && l.err[0] ? l.err : err));
    rc = 1;
  } else {
    /* A section of nothing but padding carries no fat binary either. */
    if (l.blobs == 0) {
      fprintf(stderr, "%s: error: '%s' contains no gpucc fat binary\n",
              fatbin_prog, path);
      rc = 1;
    } else {
      if (heading)
        printf("%s%s:\n", first ? "" : "\n", path);
      fatbin_print_table(&l);
    }
  }
  fatbin_listing_free(&l);
  fatbin_file_unload(&f);
  return rc;
}

static int fatbin_cmd_list(int argc, char **argv) {
  int nfiles = 0, end_of_options = 0;
  for (int i = 0; i < argc; i++) {
    if (!end_of_options && strcmp(argv[i], "--") == 0)
      end_of_options = 1;
    else if (!end_of_options && argv[i][0] == '-' && argv[i][1] != '\0')
      return fatbin_usage_error("unknown option", argv[i]);
    else
      nfiles++;
  }
  if (nfiles == 0)
    return fatbin_usage_error("list: no input files", NULL);

  int rc = 0, first = 1;
  end_of_options = 0;
  for (int i = 0; i < argc; i++) {
    if (!end_of_options && strcmp(argv[i], "--") == 0) {
      end_of_options = 1;
      continue;
    }
    if (fatbin_list_file(argv[i], nfiles > 1, first) != 0)
      rc = 1;
    else
      first = 0;
  }
  if (fflush(stdout) != 0 || ferror(stdout)) {
    fprintf(stderr, "%s: error: cannot write to standard output: %s\n",
            fatbin_prog, strerror(errno));
    rc = 1;
  }
  return rc;
}

int main(int argc, char **argv) {
  if (argc < 2)
    return fatbin_usage_error("no command given", NULL);
  const char *cmd = argv[1];
  if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0) {
    fputs(fatbin_help, stdout);
    return fflush(stdout) == 0 ? 0 : 1;
  }
  if (strcmp(cmd, "--version") == 0) {
    printf("%s %s\n", fatbin_prog, GPUCC_VERSION);
    return fflush(stdout) == 0 ? 0 : 1;
  }
  if (strcmp(cmd, "list") == 0)
    return fatbin_cmd_list(argc - 2, argv + 2);
  if (cmd[0] == '-')
    return fatbin_usage_error("unknown option", cmd);
  return fatbin_usage_error("unknown command", cmd);
}
