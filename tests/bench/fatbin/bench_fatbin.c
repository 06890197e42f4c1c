/* bench_fatbin.c: archive size and load time, per compression mode, side by
 * side in one run.
 *
 *   bench_fatbin [--ptxas PATH] [--reps N] FILE...
 *
 * FILEs are objects or executables built by gpucc (tests/bench/fatbin
 * builds the e2e test programs for sm_80,sm_90,gfx90a,gfx942). For each, the
 * objects of every archive are read back and written again in each mode,
 * and the bench prints the archive size over the sum of the raw objects
 * (the goal for the default mode is <= 0.5x), the time to write, and the
 * time a program start pays to load one object: fatbin_open plus
 * fatbin_read_object of the cubin for the newest sm, best of N.
 *
 * With --ptxas, it also builds a larger module, the first program's sm_80
 * PTX with its kernels copied until the text is about 512 KiB, compiled by
 * ptxas for sm_80, sm_86, sm_89 and sm_90, to time loading an object of a
 * realistic size. Its copies are more alike than real kernels are, so its
 * ratio flatters compression; the load time is the number to read there.
 * Nothing is asserted about times (these machines are noisy); the exit
 * status is 0 unless something could not be read or written. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fatbin.h"

extern char **environ;

#define MAX_OBJECTS 256

/* The objects of one program, read back from its archives. */
struct program {
  const char *name;
  struct fatbin_entry e[MAX_OBJECTS];
  void *owned[MAX_OBJECTS];
  size_t n, raw, archives;
  size_t built; /* the archives as gpucc wrote them */
};

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void die(const char *what, const char *why) {
  fprintf(stderr, "bench_fatbin: %s: %s\n", what, why);
  exit(1);
}

static unsigned char *read_file(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f)
    die(path, strerror(errno));
  size_t cap = 1 << 16, n = 0;
  unsigned char *p = malloc(cap);
  for (size_t r; p && (r = fread(p + n, 1, cap - n, f)) > 0;) {
    n += r;
    if (n == cap)
      p = realloc(p, cap *= 2);
  }
  fclose(f);
  if (!p)
    die(path, "out of memory");
  *size = n;
  return p;
}

static char *dup_str(const char *s) {
  size_t n = strlen(s) + 1;
  char *p = malloc(n);
  if (!p)
    die("strdup", "out of memory");
  return memcpy(p, s, n);
}

/* fatbin_find_blobs visitor: copies every object of the blob into prog. */
static int collect(const void *blob, size_t size, void *ud) {
  struct program *prog = ud;
  struct fatbin *fb;
  char err[512];
  if (fatbin_open(blob, size, &fb, err, sizeof err) != 0)
    die(prog->name, err);
  prog->archives++;
  prog->built += (fatbin_blob_size(fb) + 7) / 8 * 8;
  for (size_t i = 0; i < fatbin_count(fb); i++) {
    if (prog->n == MAX_OBJECTS)
      die(prog->name, "too many objects");
    const struct fatbin_entry *e = fatbin_get(fb, i);
    const void *data;
    size_t osize;
    void *to_free;
    if (fatbin_read_object(fb, i, &data, &osize, &to_free, err, sizeof err) != 0)
      die(prog->name, err);
    void *copy = malloc(osize ? osize : 1);
    memcpy(copy, data, osize);
    free(to_free);
    struct fatbin_entry *c = &prog->e[prog->n];
    *c = *e;
    /* Module names repeat across archives of one file only in different
     * archives; keep them apart so that one archive can hold them all. */
    char module[256];
    snprintf(module, sizeof module, "%s%s%zu", e->module, prog->archives > 1 ? "_" : "",
             prog->archives > 1 ? prog->archives : (size_t)0);
    c->module = dup_str(prog->archives > 1 ? module : e->module);
    c->target = dup_str(e->target);
    c->features = e->features ? dup_str(e->features) : NULL;
    c->data = copy;
    prog->owned[prog->n] = copy;
    prog->raw += osize;
    prog->n++;
  }
  fatbin_close(fb);
  return 0;
}

/* Reads the objects of path into prog; returns 0 when it carries none (a
 * test program without a gpu.module). */
static int load_program(struct program *prog, const char *path) {
  size_t size;
  unsigned char *data = read_file(path, &size);
  const char *base = strrchr(path, '/');
  prog->name = base ? base + 1 : path;
  char err[512];
  int carries = fatbin_probe(data, size);
  if (carries && fatbin_find_blobs(data, size, collect, prog, err, sizeof err) != 0)
    die(path, err);
  free(data);
  return carries && prog->n > 0;
}

/* The object a load is timed on: the cubin (else any object) for the newest
 * target, which sorts last in its frame. */
static size_t timed_object(const struct fatbin *fb) {
  size_t pick = 0;
  int have_cubin = 0;
  for (size_t i = 0; i < fatbin_count(fb); i++) {
    int cubin = fatbin_get(fb, i)->format == FATBIN_FORMAT_CUBIN;
    if (cubin || !have_cubin)
      pick = i;
    have_cubin |= cubin;
  }
  return pick;
}

struct result {
  size_t size;
  double write_s, load_s;
  const char *loaded; /* target of the timed object */
};

static struct result measure(const struct program *prog, enum fatbin_compress mode, int reps) {
  struct result r = {0, 1e9, 1e9, ""};
  void *blob = NULL;
  char err[512];
  for (int k = 0; k < reps; k++) {
    free(blob);
    double t0 = now();
    if (fatbin_write_ex(prog->e, prog->n, NULL, mode, &blob, &r.size, err, sizeof err) != 0)
      die(prog->name, err);
    double t = now() - t0;
    r.write_s = t < r.write_s ? t : r.write_s;
  }
  for (int k = 0; k < reps * 20; k++) {
    double t0 = now();
    struct fatbin *fb;
    const void *data;
    size_t size;
    void *to_free;
    if (fatbin_open(blob, r.size, &fb, err, sizeof err) != 0)
      die(prog->name, err);
    size_t i = timed_object(fb);
    if (fatbin_read_object(fb, i, &data, &size, &to_free, err, sizeof err) != 0)
      die(prog->name, err);
    double t = now() - t0;
    r.loaded = fatbin_get(fb, i)->target;
    free(to_free);
    fatbin_close(fb);
    r.load_s = t < r.load_s ? t : r.load_s;
  }
  static char target[64];
  snprintf(target, sizeof target, "%s", r.loaded);
  r.loaded = target;
  free(blob);
  return r;
}

static const enum fatbin_compress modes[] = {FATBIN_COMPRESS_NONE, FATBIN_COMPRESS_FAST,
                                             FATBIN_COMPRESS_SIZE};

static void print_head(void) {
  printf("%-22s %4s %10s | %-23s | %-23s | %-23s | %s\n", "", "", "", "none",
         "fast (default)", "size", "");
  printf("%-22s %4s %10s | %6s %7s %8s | %6s %7s %8s | %6s %7s %8s | %s\n", "program", "objs",
         "raw bytes", "ratio", "write", "load", "ratio", "write", "load", "ratio", "write",
         "load", "loaded");
}

static void print_row(const char *name, size_t n, size_t raw, const struct result *r) {
  printf("%-22s %4zu %10zu |", name, n, raw);
  for (int m = 0; m < 3; m++)
    printf(" %5.2fx %5.1fms %6.1fus |", (double)r[m].size / (double)raw, r[m].write_s * 1e3,
           r[m].load_s * 1e6);
  printf(" %s\n", r[0].loaded);
}

/* ---- the larger synthetic module -------------------------------------------- */

static char *replace_all(const char *s, const char *from, const char *to) {
  size_t nf = strlen(from), nt = strlen(to), count = 0;
  for (const char *p = strstr(s, from); p; p = strstr(p + nf, from))
    count++;
  char *out = malloc(strlen(s) + count * (nt > nf ? nt - nf : 0) + 1), *w = out;
  for (const char *p = s, *q; (q = strstr(p, from)); p = q + nf) {
    memcpy(w, p, (size_t)(q - p));
    w += q - p;
    memcpy(w, to, nt);
    w += nt;
    s = q + nf;
  }
  strcpy(w, s);
  return out;
}

/* The first program's sm_80 PTX, its kernels copied (renamed) to ~512 KiB. */
static char *big_ptx(const struct program *prog) {
  const char *ptx = NULL;
  for (size_t i = 0; i < prog->n && !ptx; i++)
    if (prog->e[i].format == FATBIN_FORMAT_PTX && strcmp(prog->e[i].target, "sm_80") == 0)
      ptx = prog->e[i].data;
  if (!ptx)
    return NULL;
  const char *body = strstr(ptx, ".visible .entry");
  if (!body)
    return NULL;
  char name[128];
  if (sscanf(body, ".visible .entry %127[A-Za-z0-9_$]", name) != 1)
    return NULL;
  size_t head = (size_t)(body - ptx), cap = (1u << 19) + 2 * strlen(ptx) + 1;
  char *out = malloc(cap);
  memcpy(out, ptx, head);
  out[head] = '\0';
  /* PTX 7.8 is the oldest that every one of the four sm accepts. */
  char *version = strstr(out, ".version ");
  if (version && strchr(version, '\n')) {
    char *eol = strchr(version, '\n');
    memmove(version + 13, eol, strlen(eol) + 1);
    memcpy(version, ".version 7.8", 12);
    version[12] = ' ';
  }
  size_t len = strlen(out);
  for (int k = 0; len < (1u << 19); k++) {
    char renamed[160];
    snprintf(renamed, sizeof renamed, "%s_copy%d", name, k);
    char *copy = replace_all(body, name, renamed);
    size_t n = strlen(copy);
    if (len + n + 1 > cap)
      out = realloc(out, cap = 2 * (len + n + 1));
    memcpy(out + len, copy, n);
    len += n;
    free(copy);
  }
  out[len] = '\0';
  return out;
}

static void write_text(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  if (!f || fputs(text, f) < 0 || fclose(f) != 0)
    die(path, strerror(errno));
}

/* Compiles the big PTX for four sm with ptxas, in parallel, into prog. */
static int build_big(struct program *big, const struct program *from, const char *ptxas) {
  static const char *const sms[] = {"sm_80", "sm_86", "sm_89", "sm_90"};
  char *ptx = big_ptx(from);
  if (!ptx)
    return -1;
  char dir[] = "/tmp/bench_fatbin.XXXXXX";
  if (!mkdtemp(dir))
    die("mkdtemp", strerror(errno));
  pid_t pids[4];
  char in[4][64], out[4][64];
  char *texts[4];
  for (int i = 0; i < 4; i++) {
    char target[32];
    snprintf(target, sizeof target, ".target %s", sms[i]);
    texts[i] = replace_all(ptx, ".target sm_80", target);
    snprintf(in[i], sizeof in[i], "%s/%s.ptx", dir, sms[i]);
    snprintf(out[i], sizeof out[i], "%s/%s.cubin", dir, sms[i]);
    write_text(in[i], texts[i]);
    char arch[32];
    snprintf(arch, sizeof arch, "-arch=%s", sms[i]);
    char *argv[] = {(char *)ptxas, arch, in[i], "-o", out[i], NULL};
    int e = posix_spawn(&pids[i], ptxas, NULL, NULL, argv, environ);
    if (e != 0)
      die(ptxas, strerror(e));
  }
  int ok = 1;
  for (int i = 0; i < 4; i++) {
    int status;
    if (waitpid(pids[i], &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
      ok = 0;
  }
  big->name = "synthetic 512K PTX";
  for (int i = 0; ok && i < 4; i++) {
    size_t size;
    unsigned char *cubin = read_file(out[i], &size);
    big->e[big->n] = (struct fatbin_entry){"big", FATBIN_VENDOR_NVIDIA, sms[i],
                                           FATBIN_FORMAT_CUBIN, cubin, size, NULL};
    big->owned[big->n++] = cubin;
    big->raw += size;
    size_t tl = strlen(texts[i]) + 1;
    big->e[big->n] = (struct fatbin_entry){"big", FATBIN_VENDOR_NVIDIA, sms[i],
                                           FATBIN_FORMAT_PTX, texts[i], tl, NULL};
    big->owned[big->n++] = texts[i];
    big->raw += tl;
  }
  for (int i = 0; i < 4; i++) {
    unlink(in[i]);
    unlink(out[i]);
    if (!ok)
      free(texts[i]);
  }
  rmdir(dir);
  free(ptx);
  return ok ? 0 : -1;
}

static void free_program(struct program *p) {
  for (size_t i = 0; i < p->n; i++) {
    free(p->owned[i]);
    if (p->e[i].module && strcmp(p->e[i].module, "big") != 0) {
      free((char *)p->e[i].module);
      free((char *)p->e[i].target);
      free((char *)p->e[i].features);
    }
  }
}

int main(int argc, char **argv) {
  const char *ptxas = NULL;
  int reps = 5, nfiles = 0;
  char **files = calloc((size_t)argc, sizeof *files);
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--ptxas") == 0 && i + 1 < argc)
      ptxas = argv[++i];
    else if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc)
      reps = atoi(argv[++i]) > 0 ? atoi(argv[i]) : 1;
    else
      files[nfiles++] = argv[i];
  }
  if (nfiles == 0) {
    fprintf(stderr, "usage: bench_fatbin [--ptxas PATH] [--reps N] FILE...\n");
    return 2;
  }
  struct program *progs = calloc((size_t)nfiles, sizeof *progs);
  printf("archive size / sum of raw objects, write time, and load time of one object\n"
         "(fatbin_open + fatbin_read_object), best of %d; 'built' is what gpucc wrote\n\n",
         reps);
  print_head();
  size_t total_raw = 0, total_size[3] = {0}, total_built = 0;
  for (int f = 0; f < nfiles; f++) {
    struct program *p = &progs[f];
    if (!load_program(p, files[f])) {
      printf("%-22s (no gpu.module: skipped)\n", p->name);
      continue;
    }
    struct result r[3];
    for (int m = 0; m < 3; m++) {
      r[m] = measure(p, modes[m], reps);
      total_size[m] += r[m].size;
    }
    total_raw += p->raw;
    total_built += p->built;
    print_row(p->name, p->n, p->raw, r);
  }
  printf("%-22s %4s %10zu |", "all programs", "", total_raw);
  for (int m = 0; m < 3; m++)
    printf(" %5.2fx %10zu bytes |", (double)total_size[m] / (double)total_raw, total_size[m]);
  printf("\n%-22s %4s %10zu | built by gpucc: %.2fx\n", "", "", total_built,
         (double)total_built / (double)total_raw);

  if (ptxas) {
    struct program big = {0};
    int first = 0;
    while (first + 1 < nfiles && progs[first].n == 0)
      first++;
    if (build_big(&big, &progs[first], ptxas) == 0) {
      struct result r[3];
      for (int m = 0; m < 3; m++)
        r[m] = measure(&big, modes[m], reps);
      printf("\n");
      print_row(big.name, big.n, big.raw, r);
    } else {
      printf("\n(synthetic module skipped: ptxas failed or no sm_80 PTX)\n");
    }
    free_program(&big);
  }
  for (int f = 0; f < nfiles; f++)
    free_program(&progs[f]);
  free(progs);
  free(files);
  return fflush(stdout) == 0 ? 0 : 1;
}
