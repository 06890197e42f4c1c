/* vector_align_scan.c: no memory access wider than what its address is
 * known to be aligned to, in the device code gpucc writes (scan.h has the
 * rules).
 *
 *   vector_align_scan [--objdump LLVM_OBJDUMP] FILE...
 *       scans PTX files (.ptx), AMD code objects (.hsaco, disassembled
 *       with LLVM_OBJDUMP, default llvm-objdump) and llvm-objdump -d
 *       outputs (.s);
 *   vector_align_scan --expected FILE...
 *       the scanner's own test: each file says in a comment how many
 *       findings it holds ("expect-findings: N"), and must give exactly
 *       that many (align_cases/);
 *   vector_align_scan --e2e GPUCC LLVM_BINDIR E2E_DIR WORKDIR
 *       compiles every program of the e2e_programs list in
 *       E2E_DIR/CMakeLists.txt with `gpucc --emit=ptx --offload-arch=sm_90`
 *       and `--emit=hsaco --offload-arch=gfx942` (one gpucc per target for
 *       all of them, in WORKDIR, with a device cache of its own there) and
 *       scans every file they give.
 *
 * Prints one line per finding and a summary. Exit status: 0 when nothing
 * was found (with --expected: when each file gave its count), 1 on a
 * finding, on a compile failure or when there was nothing
 * to scan, 2 on bad usage. */
#define _GNU_SOURCE
#include "scan.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct totals {
  int files, ptx, hsaco, accesses, findings, failed;
};

static int has_suffix(const char *s, const char *suffix) {
  size_t n = strlen(s), m = strlen(suffix);
  return n >= m && !strcmp(s + n - m, suffix);
}

/* One file: a PTX or a disassembly scanned as it is, an hsaco
 * disassembled first (into <file>.s). Returns its findings, -1 when it
 * could not be scanned. */
static int scan_file(const char *path, const char *objdump, struct totals *t) {
  int accesses = 0, found;
  if (has_suffix(path, ".s")) {
    found = amd_align_scan(path, path, stdout, &accesses);
    t->hsaco++;
  } else if (has_suffix(path, ".hsaco")) {
    char dis[4096];
    snprintf(dis, sizeof dis, "%s.s", path);
    char *argv[] = {(char *)objdump, "-d", (char *)path, NULL};
    int rc = tool_run(NULL, argv, dis, NULL);
    if (rc != 0) {
      fprintf(stderr, "%s: '%s -d' failed (status %d)\n", path, objdump, rc);
      t->failed++;
      return -1;
    }
    found = amd_align_scan(dis, path, stdout, &accesses);
    t->hsaco++;
  } else {
    found = ptx_align_scan(path, stdout, &accesses);
    t->ptx++;
  }
  if (found < 0) {
    t->failed++;
    return -1;
  }
  t->files++;
  t->accesses += accesses;
  t->findings += found;
  return found;
}

/* --expected: each file's findings against its "expect-findings: N". */
static int expected(char **files, int n) {
  struct totals t = {0};
  int bad = 0;
  for (int i = 0; i < n; i++) {
    FILE *f = fopen(files[i], "r");
    char line[1024];
    int want = -1;
    while (f && want < 0 && fgets(line, sizeof line, f)) {
      char *p = strstr(line, "expect-findings:");
      if (p)
        want = atoi(p + strlen("expect-findings:"));
    }
    if (f)
      fclose(f);
    if (want < 0) {
      printf("FAIL: %s says nothing of 'expect-findings: N'\n", files[i]);
      bad++;
      continue;
    }
    int got = scan_file(files[i], "llvm-objdump", &t);
    if (got != want) {
      printf("FAIL: %s: %d finding(s), %d expected\n", files[i], got, want);
      bad++;
    } else {
      printf("ok: %s: %d finding(s), as expected\n", files[i], got);
    }
  }
  return bad ? 1 : 0;
}

/* The words of `set(<name> ...)` in a CMakeLists.txt, comments left out. */
static char **cmake_list(const char *path, const char *name, int *count) {
  FILE *f = fopen(path, "r");
  *count = 0;
  if (!f) {
    fprintf(stderr, "cannot open '%s': %s\n", path, strerror(errno));
    return NULL;
  }
  char line[4096], opener[256];
  snprintf(opener, sizeof opener, "set(%s", name);
  char **words = NULL;
  int on = 0;
  while (fgets(line, sizeof line, f)) {
    char *p = line;
    if (!on) {
      char *at = strstr(line, opener);
      size_t n = strlen(opener);
      if (!at || (at[n] != ' ' && at[n] != '\t' && at[n] != '\n' && at[n] != ')'))
        continue;
      on = 1;
      p = at + n;
    }
    char *hash = strchr(p, '#');
    if (hash)
      *hash = '\0';
    char *close = strchr(p, ')');
    if (close)
      *close = '\0';
    char *save;
    for (char *w = strtok_r(p, " \t\r\n", &save); w; w = strtok_r(NULL, " \t\r\n", &save)) {
      char **grown = realloc(words, (size_t)(*count + 1) * sizeof *words);
      char *copy = strdup(w);
      if (!grown || !copy) {
        fprintf(stderr, "out of memory\n");
        exit(2);
      }
      words = grown;
      words[(*count)++] = copy;
    }
    if (close)
      break;
  }
  fclose(f);
  return words;
}

/* An empty directory at path (files of an earlier run removed). */
static int fresh_dir(const char *path) {
  if (mkdir(path, 0755) != 0 && errno != EEXIST) {
    fprintf(stderr, "cannot create '%s': %s\n", path, strerror(errno));
    return -1;
  }
  DIR *d = opendir(path);
  if (!d)
    return -1;
  struct dirent *e;
  char file[4096];
  while ((e = readdir(d)) != NULL) {
    if (e->d_name[0] == '.')
      continue;
    snprintf(file, sizeof file, "%s/%s", path, e->d_name);
    unlink(file);
  }
  closedir(d);
  return 0;
}

/* Scans every file of dir that ends with suffix, in name order. */
static void scan_dir(const char *dir, const char *suffix, const char *objdump, struct totals *t) {
  struct dirent **names;
  int n = scandir(dir, &names, NULL, alphasort);
  for (int i = 0; i < n; i++) {
    if (has_suffix(names[i]->d_name, suffix)) {
      char path[4096];
      snprintf(path, sizeof path, "%s/%s", dir, names[i]->d_name);
      scan_file(path, objdump, t);
    }
    free(names[i]);
  }
  if (n >= 0)
    free(names);
}

/* The first lines of a log, on stderr. */
static void print_head(const char *path, int lines) {
  FILE *f = fopen(path, "r");
  char line[1024];
  while (f && lines-- > 0 && fgets(line, sizeof line, f))
    fputs(line, stderr);
  if (f)
    fclose(f);
}

/* gpucc for one target over every program, in dir; on a failure, each
 * program alone, to name the ones that fail. Returns how many failed. */
static int compile_all(const char *gpucc, const char *arch, const char *emit, const char *dir,
                       char **progs, int n, const char *log) {
  char **argv = calloc((size_t)n + 4, sizeof *argv);
  if (!argv)
    exit(2);
  argv[0] = (char *)gpucc, argv[1] = (char *)arch, argv[2] = (char *)emit;
  for (int i = 0; i < n; i++)
    argv[3 + i] = progs[i];
  int rc = tool_run(dir, argv, log, log);
  free(argv);
  if (rc == 0)
    return 0;
  int failed = 0;
  for (int i = 0; i < n; i++) {
    char *one[] = {(char *)gpucc, (char *)arch, (char *)emit, progs[i], NULL};
    if (tool_run(dir, one, log, log) != 0) {
      fprintf(stderr, "FAIL: gpucc %s %s %s:\n", arch, emit, progs[i]);
      print_head(log, 20);
      failed++;
    }
  }
  return failed ? failed : 1;
}

static int e2e(const char *gpucc, const char *bindir, const char *e2e_dir, const char *work) {
  char path[4096], ptx[4096], hsaco[4096], cache[4096], objdump[4096], logp[4096], logh[4096];
  snprintf(path, sizeof path, "%s/CMakeLists.txt", e2e_dir);
  int n;
  char **names = cmake_list(path, "e2e_programs", &n);
  if (n == 0) {
    fprintf(stderr, "no e2e_programs list in '%s'\n", path);
    return 1;
  }
  char **progs = calloc((size_t)n, sizeof *progs);
  for (int i = 0; progs && i < n; i++) {
    snprintf(path, sizeof path, "%s/%s.mlir", e2e_dir, names[i]);
    progs[i] = strdup(path);
  }
  mkdir(work, 0755);
  snprintf(ptx, sizeof ptx, "%s/ptx", work);
  snprintf(hsaco, sizeof hsaco, "%s/hsaco", work);
  snprintf(cache, sizeof cache, "%s/cache", work);
  snprintf(objdump, sizeof objdump, "%s/llvm-objdump", bindir);
  snprintf(logp, sizeof logp, "%s/gpucc-sm_90.log", work);
  snprintf(logh, sizeof logh, "%s/gpucc-gfx942.log", work);
  if (fresh_dir(ptx) || fresh_dir(hsaco))
    return 1;
  /* a device cache of its own: never the user's */
  setenv("GPUCC_CACHE_DIR", cache, 1);
  int failed = compile_all(gpucc, "--offload-arch=sm_90", "--emit=ptx", ptx, progs, n, logp);
  failed += compile_all(gpucc, "--offload-arch=gfx942", "--emit=hsaco", hsaco, progs, n, logh);
  struct totals t = {0};
  scan_dir(ptx, ".ptx", objdump, &t);
  scan_dir(hsaco, ".hsaco", objdump, &t);
  printf("vector_align_scan: %d e2e programs: %d PTX files (sm_90), %d hsaco (gfx942), %d vector "
         "or 64/128-bit LDS accesses checked, %d finding(s)\n",
         n, t.ptx, t.hsaco, t.accesses, t.findings);
  int status = 0;
  if (failed || t.failed) {
    printf("FAIL: %d program(s) did not compile, %d file(s) could not be scanned\n", failed, t.failed);
    status = 1;
  }
  /* one PTX and one hsaco per gpu.module: a difference means files went
   * missing, and none at all means nothing was checked */
  if (t.ptx == 0 || t.ptx != t.hsaco) {
    printf("FAIL: %d PTX files but %d hsaco\n", t.ptx, t.hsaco);
    status = 1;
  }
  if (t.findings)
    status = 1;
  for (int i = 0; i < n; i++)
    free(names[i]), free(progs ? progs[i] : NULL);
  free(names), free(progs);
  return status;
}

int main(int argc, char **argv) {
  if (argc == 6 && !strcmp(argv[1], "--e2e"))
    return e2e(argv[2], argv[3], argv[4], argv[5]);
  if (argc > 2 && !strcmp(argv[1], "--expected"))
    return expected(argv + 2, argc - 2);
  const char *objdump = "llvm-objdump";
  int i = 1;
  if (i + 1 < argc && !strcmp(argv[i], "--objdump")) {
    objdump = argv[i + 1];
    i += 2;
  }
  if (i >= argc || argv[i][0] == '-') {
    fprintf(stderr, "usage: vector_align_scan [--objdump LLVM_OBJDUMP] FILE...\n"
                    "       vector_align_scan --expected FILE...\n"
                    "       vector_align_scan --e2e GPUCC LLVM_BINDIR E2E_DIR WORKDIR\n");
    return 2;
  }
  struct totals t = {0};
  for (; i < argc; i++)
    scan_file(argv[i], objdump, &t);
  printf("vector_align_scan: %d file(s), %d vector or 64/128-bit LDS accesses checked, %d finding(s)\n",
         t.files, t.accesses, t.findings);
  return t.findings || t.failed ? 1 : 0;
}
