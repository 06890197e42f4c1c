/* bench_codegen.c: gpucc's device code against nvcc's and clang's for the
 * same kernels, statically (no GPU runs anything).
 *
 * kernels.mlir and wmma.mlir (gpucc) and kernels.cu (nvcc; clang-22 as HIP
 * with hip_prelude.h) hold the same nine kernels. They are compiled
 *   sm_90:  gpucc --emit=ptx and --emit=cubin; nvcc -O3 -arch=sm_90 -ptx and
 *           -cubin; ptxas -v on both PTX files (registers, spills);
 *   gfx942: gpucc --emit=hsaco; clang-22 -x hip -O3 (wmma_gemm is
 *           NVIDIA-only: gfx942 has no WMMA);
 * and the bench prints, per kernel and as geometric means, the ratios
 * gpucc / nvcc of SASS size (the .text.<kernel> section of the cubin, less
 * the NOPs that pad it), registers and spills, PTX instruction classes side
 * by side, and gpucc / clang of AMD instructions (llvm-objdump, up to the
 * kernel's last s_endpgm), VGPRs, SGPRs and scratch (code object metadata),
 * next to the goals of issue 21. Ratios are printed, never asserted.
 *
 * Asserted (exit status 1 on a failure):
 *   - alignment: no access in gpucc's PTX wider than the alignment of the
 *     array it addresses, and no 64/128-bit LDS access at a misaligned
 *     offset in its hsaco (scan.h);
 *   - launch limits: each kernel admits the block the bench launches it
 *     with, on gfx942 (.max_flat_workgroup_size) and sm_90 (.maxntid,
 *     .reqntid); a kernel without known_block_size must admit 1024 threads,
 *     one with it must say so in its PTX (.reqntid or .maxntid).
 * Without a CUDA toolkit the NVIDIA comparison is skipped with a line saying
 * so (the PTX checks need none); without clang the AMD comparison is.
 * Exit status 77 when not even LLVM's llvm-readelf and llvm-objdump are
 * there.
 *
 * Usage: bench_codegen GPUCC LLVM_BINDIR SRCDIR WORKDIR [CUDA_DIR]
 * (CUDA_DIR: default $CUDA_PATH, then /usr/local/cuda) */
#define _GNU_SOURCE
#include "scan.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* The kernels and the blocks the bench launches them with (the GPU check
 * kit's bench_codegen launches them so too). */
static const struct kernel_row {
  const char *name;
  const char *mlir; /* kernels or wmma */
  int block[3];
  int amd; /* compiled for gfx942 too */
} kernels[] = {
    {"vadd", "kernels", {256, 1, 1}, 1},       {"vadd4", "kernels", {256, 1, 1}, 1},
    {"saxpy", "kernels", {256, 1, 1}, 1},      {"reduce_smem", "kernels", {256, 1, 1}, 1},
    {"reduce_shfl", "kernels", {256, 1, 1}, 1}, {"sgemm16", "kernels", {16, 16, 1}, 1},
    {"stencil5", "kernels", {32, 8, 1}, 1},    {"transpose", "kernels", {32, 8, 1}, 1},
    {"wmma_gemm", "wmma", {32, 1, 1}, 0},
};
enum { NKERNELS = sizeof kernels / sizeof kernels[0] };

#define GOAL 1.05

static const char *gpucc, *bindir, *srcdir, *cuda;
static int failures;

/* ---- jobs: tools run two at a time ---------------------------------------- */

struct job {
  char *argv[24];
  char out[64]; /* standard output and error, in the work directory */
  int pid, rc;
};

static struct job jobs[16];
static int njobs;

/* Queues a job of the NULL-terminated arguments, its output in out. */
static void job(const char *out, ...) {
  if (njobs == (int)(sizeof jobs / sizeof jobs[0])) {
    fprintf(stderr, "bench_codegen: too many jobs\n");
    exit(2);
  }
  struct job *j = &jobs[njobs++];
  memset(j, 0, sizeof *j);
  snprintf(j->out, sizeof j->out, "%s", out);
  va_list ap;
  va_start(ap, out);
  int n = 0;
  for (const char *a; (a = va_arg(ap, const char *)) != NULL && n < 23;)
    j->argv[n++] = strdup(a);
  va_end(ap);
}

/* Runs the queued jobs, two at once; the failures said on stderr, with the
 * head of their output. Returns how many failed. */
static int run_jobs(void) {
  int next = 0, running = 0, failed = 0;
  while (next < njobs || running) {
    while (next < njobs && running < 2) {
      jobs[next].pid = tool_start(NULL, jobs[next].argv, jobs[next].out, jobs[next].out);
      if (jobs[next].pid < 0)
        jobs[next].rc = -1;
      else
        running++;
      next++;
    }
    if (!running)
      break;
    int status;
    pid_t pid = wait(&status);
    if (pid < 0) {
      if (errno == EINTR)
        continue;
      break;
    }
    for (int i = 0; i < next; i++)
      if (jobs[i].pid == pid) {
        jobs[i].rc = WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
        jobs[i].pid = 0;
        running--;
      }
  }
  for (int i = 0; i < njobs; i++) {
    if (jobs[i].rc == 0)
      continue;
    failed++;
    fprintf(stderr, "failed (status %d):", jobs[i].rc);
    for (int a = 0; jobs[i].argv[a]; a++)
      fprintf(stderr, " %s", jobs[i].argv[a]);
    fprintf(stderr, "\n");
    FILE *f = fopen(jobs[i].out, "r");
    char line[1024];
    for (int l = 0; f && l < 15 && fgets(line, sizeof line, f); l++)
      fprintf(stderr, "  %s", line);
    if (f)
      fclose(f);
  }
  for (int i = 0; i < njobs; i++)
    for (int a = 0; jobs[i].argv[a]; a++)
      free(jobs[i].argv[a]);
  njobs = 0;
  return failed;
}

static const char *path_of(const char *dir, const char *name) {
  static char buf[8][4096];
  static int i;
  i = (i + 1) % 8;
  snprintf(buf[i], sizeof buf[i], "%s/%s", dir, name);
  return buf[i];
}

static int file_exists(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && st.st_size > 0;
}

/* ---- lookups -------------------------------------------------------------- */

static const struct ptx_entry *find_entry(const struct ptx_entry *v, int n, const char *name) {
  for (int i = 0; i < n; i++)
    if (!strcmp(v[i].name, name))
      return &v[i];
  return NULL;
}

static const struct ptxas_info *find_info(const struct ptxas_info *v, int n, const char *name) {
  for (int i = 0; i < n; i++)
    if (!strcmp(v[i].name, name))
      return &v[i];
  return NULL;
}

static const struct sass_text *find_text(const struct sass_text *v, int n, const char *name) {
  for (int i = 0; i < n; i++)
    if (!strcmp(v[i].name, name))
      return &v[i];
  return NULL;
}

static const struct amd_kernel *find_amd(const struct amd_kernel *v, int n, const char *name) {
  for (int i = 0; i < n; i++)
    if (!strcmp(v[i].name, name))
      return &v[i];
  return NULL;
}

/* known_block_size of `gpu.func @name` in the MLIR file, into dims; 0 when
 * the kernel has none, -1 when the file or the kernel is not there. */
static int known_block_size(const char *path, const char *name, int dims[3]) {
  FILE *f = fopen(path, "r");
  if (!f)
    return -1;
  char line[1024], head[256];
  snprintf(head, sizeof head, "gpu.func @%s(", name);
  int in = 0, found = -1;
  while (fgets(line, sizeof line, f)) {
    if (strstr(line, "gpu.func @")) {
      if (in)
        break; /* the next kernel */
      in = strstr(line, head) != NULL;
      if (in)
        found = 0;
    }
    char *p;
    if (in && (p = strstr(line, "known_block_size = array<i32:")) != NULL) {
      p += strlen("known_block_size = array<i32:");
      for (int i = 0; i < 3; i++) {
        dims[i] = (int)strtol(p, &p, 10);
        p += strspn(p, ", ");
      }
      found = 1;
      break;
    }
  }
  fclose(f);
  return found;
}

/* ---- ratios --------------------------------------------------------------- */

struct geomean {
  double logsum;
  int n, over;
};

static void geo_add(struct geomean *g, double a, double b) {
  if (a <= 0 || b <= 0)
    return;
  g->logsum += log(a / b);
  g->n++;
  if (a / b > GOAL + 1e-9)
    g->over++;
}

static double geo(const struct geomean *g) { return g->n ? exp(g->logsum / g->n) : 0; }

static const char *ratio(double a, double b) {
  static char buf[8][16];
  static int i;
  i = (i + 1) % 8;
  if (a < 0 || b < 0)
    snprintf(buf[i], sizeof buf[i], "-");
  else if (b == 0)
    snprintf(buf[i], sizeof buf[i], a == 0 ? "=" : "n/a");
  else
    snprintf(buf[i], sizeof buf[i], "%.2fx", a / b);
  return buf[i];
}

static void goal_line(const char *what, const struct geomean *g, const char *against) {
  if (!g->n)
    return;
  printf("  %-34s geomean %.2fx  %s (%d of %d kernels over %.2fx %s)\n", what, geo(g),
         geo(g) <= GOAL + 1e-9 && g->over == 0 ? "met" : "NOT MET", g->over, g->n, GOAL, against);
}

static void check(int ok, const char *what, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  printf("  %s  %-9s ", ok ? "PASS" : "FAIL", what);
  vprintf(fmt, ap);
  printf("\n");
  va_end(ap);
  if (!ok)
    failures++;
}

/* ---- NVIDIA --------------------------------------------------------------- */

struct nv {
  struct ptx_entry *ptx[2], *nvcc_ptx; /* gpucc: kernels, wmma */
  int nptx[2], nnvcc_ptx;
  struct ptxas_info *info, *nvcc_info;
  int ninfo, nnvcc_info;
  struct sass_text *sass, *nvcc_sass, *plain;
  int nsass, nnvcc_sass, nplain;
};

static int mlir_index(const char *mlir) { return !strcmp(mlir, "wmma"); }

static const struct ptx_entry *gpucc_entry(const struct nv *v, const struct kernel_row *k) {
  int m = mlir_index(k->mlir);
  return find_entry(v->ptx[m], v->nptx[m], k->name);
}

/* The goal that needs no nvcc: gpucc's PTX has no add/mul.rn, which ptxas
 * may not fuse into fma. rn_nvcc < 0: no nvcc to compare with. */
static void rn_goal(const struct nv *v, int rn_nvcc) {
  int rn = 0;
  for (int i = 0; i < NKERNELS; i++) {
    const struct ptx_entry *t = gpucc_entry(v, &kernels[i]);
    rn += t ? t->count[PTX_RN] : 0;
  }
  char nvcc[32] = "";
  if (rn_nvcc >= 0)
    snprintf(nvcc, sizeof nvcc, " (nvcc: %d)", rn_nvcc);
  printf("  %-34s %d in gpucc's PTX%s  %s\n", "no add/mul.rn under default flags", rn, nvcc,
         rn ? "NOT MET" : "met");
}

static void nvidia_tables(struct nv *v) {
  printf("\nNVIDIA sm_90, gpucc / nvcc: SASS = bytes of the cubin's .text.<kernel> less its "
         "trailing NOP padding; registers and spill bytes (stores + loads) from ptxas -v\n");
  printf("  %-12s %18s %7s  %16s %7s  %13s\n", "kernel", "SASS gpucc  nvcc", "ratio", "regs gpucc nvcc",
         "ratio", "spills g   n");
  struct geomean gs = {0}, gr = {0};
  for (int i = 0; i < NKERNELS; i++) {
    const struct kernel_row *k = &kernels[i];
    const struct sass_text *ts = find_text(v->sass, v->nsass, k->name);
    const struct sass_text *ns = find_text(v->nvcc_sass, v->nnvcc_sass, k->name);
    const struct ptxas_info *ti = find_info(v->info, v->ninfo, k->name);
    const struct ptxas_info *ni = find_info(v->nvcc_info, v->nnvcc_info, k->name);
    long tsb = ts ? ts->code_bytes : -1, nsb = ns ? ns->code_bytes : -1;
    int tr = ti ? ti->registers : -1, nr = ni ? ni->registers : -1;
    int tsp = ti ? ti->spill_stores + ti->spill_loads : -1, nsp = ni ? ni->spill_stores + ni->spill_loads : -1;
    printf("  %-12s %11ld %6ld %7s  %11d %4d %7s  %6d %4d\n", k->name, tsb, nsb, ratio(tsb, nsb), tr, nr,
           ratio(tr, nr), tsp, nsp);
    geo_add(&gs, tsb, nsb);
    geo_add(&gr, tr, nr);
  }
  printf("  %-12s %18s %6.2fx  %16s %6.2fx\n", "geomean", "", geo(&gs), "", geo(&gr));

  printf("\nNVIDIA sm_90, PTX instructions by class, gpucc/nvcc (params: the entry's .param count)\n");
  printf("  %-12s", "kernel");
  for (int c = 0; c < PTX_NCLASS; c++)
    printf(" %12s", ptx_class_names[c]);
  printf(" %12s\n", "params");
  int rn_nvcc = 0, totals[2][PTX_NCLASS + 1] = {{0}};
  for (int i = 0; i < NKERNELS; i++) {
    const struct kernel_row *k = &kernels[i];
    const struct ptx_entry *t = gpucc_entry(v, k);
    const struct ptx_entry *n = find_entry(v->nvcc_ptx, v->nnvcc_ptx, k->name);
    printf("  %-12s", k->name);
    for (int c = 0; c <= PTX_NCLASS; c++) {
      int a = !t ? -1 : c < PTX_NCLASS ? t->count[c] : t->params;
      int b = !n ? -1 : c < PTX_NCLASS ? n->count[c] : n->params;
      char cell[32];
      snprintf(cell, sizeof cell, "%d/%d", a, b);
      printf(" %12s", cell);
      totals[0][c] += a > 0 ? a : 0;
      totals[1][c] += b > 0 ? b : 0;
    }
    printf("\n");
    rn_nvcc += n ? n->count[PTX_RN] : 0;
  }
  printf("  %-12s", "total");
  for (int c = 0; c <= PTX_NCLASS; c++) {
    char cell[32];
    snprintf(cell, sizeof cell, "%d/%d", totals[0][c], totals[1][c]);
    printf(" %12s", cell);
  }
  printf("\n\ngoals, sm_90 (printed, not asserted):\n");
  goal_line("SASS size <= 1.05x nvcc", &gs, "nvcc");
  goal_line("registers <= 1.05x nvcc", &gr, "nvcc");
  rn_goal(v, rn_nvcc);
  /* gpucc's cubin is ptxas on its PTX: the same code as plain ptxas -v
   * makes, unless gpucc gives ptxas other options */
  for (int i = 0; i < NKERNELS; i++) {
    const struct sass_text *ts = find_text(v->sass, v->nsass, kernels[i].name);
    const struct sass_text *ps = find_text(v->plain, v->nplain, kernels[i].name);
    if (ts && ps && ts->code_bytes != ps->code_bytes)
      printf("  note: %s: gpucc's cubin has %ld bytes of SASS, plain ptxas on its PTX %ld (registers "
             "above are plain ptxas's)\n",
             kernels[i].name, ts->code_bytes, ps->code_bytes);
  }
}

/* ---- AMD ------------------------------------------------------------------ */

static void amd_table(const struct amd_kernel *g, int ng, const struct amd_kernel *c, int nc) {
  printf("\nAMD gfx942, gpucc / clang -x hip -O3: instructions (llvm-objdump -d, up to the last "
         "s_endpgm), VGPRs, SGPRs, scratch bytes per lane (code object metadata)\n");
  printf("  %-12s %17s %7s  %15s %7s  %15s %7s  %14s\n", "kernel", "insns gpucc clang", "ratio",
         "VGPR gpucc clang", "ratio", "SGPR gpucc clang", "ratio", "scratch g   c");
  struct geomean gi = {0}, gv = {0}, gsg = {0};
  for (int i = 0; i < NKERNELS; i++) {
    const struct kernel_row *k = &kernels[i];
    if (!k->amd) {
      printf("  %-12s NVIDIA-only: gfx942 (CDNA3) has no WMMA; gpucc refuses gpu.subgroup_mma_* "
             "there and kernels.cu leaves it out under HIP\n",
             k->name);
      continue;
    }
    const struct amd_kernel *a = find_amd(g, ng, k->name), *b = find_amd(c, nc, k->name);
    long ai = a ? a->insns : -1, bi = b ? b->insns : -1;
    long av = a ? a->vgpr : -1, bv = b ? b->vgpr : -1;
    long as = a ? a->sgpr : -1, bs = b ? b->sgpr : -1;
    printf("  %-12s %11ld %5ld %7s  %10ld %5ld %7s  %10ld %5ld %7s  %7ld %4ld\n", k->name, ai, bi,
           ratio(ai, bi), av, bv, ratio(av, bv), as, bs, ratio(as, bs), a ? a->scratch : -1,
           b ? b->scratch : -1);
    geo_add(&gi, ai, bi);
    geo_add(&gv, av, bv);
    geo_add(&gsg, as, bs);
  }
  printf("  %-12s %17s %6.2fx  %15s %6.2fx  %15s %6.2fx\n", "geomean", "", geo(&gi), "", geo(&gv), "",
         geo(&gsg));
  printf("\ngoals, gfx942 (printed, not asserted):\n");
  goal_line("instructions <= 1.05x clang", &gi, "clang");
  goal_line("VGPRs <= 1.05x clang", &gv, "clang");
}

/* ---- the checks ----------------------------------------------------------- */

static void check_alignment_ptx(const char *file) {
  fflush(stdout);
  int accesses = 0;
  int found = ptx_align_scan(file, stdout, &accesses);
  check(found == 0, "alignment", "%s: %d vector .shared/.global accesses, %d wider than their "
        "array's alignment", file, accesses, found < 0 ? 0 : found);
}

static void check_launch(const struct kernel_row *k, const char *mlir_path, const struct ptx_entry *e,
                         const struct amd_kernel *a) {
  int dims[3] = {0, 0, 0};
  int known = known_block_size(mlir_path, k->name, dims);
  int launched = k->block[0] * k->block[1] * k->block[2];
  if (known < 0) {
    check(0, "launch", "%s: no gpu.func @%s in %s", k->name, k->name, mlir_path);
    return;
  }
  /* what the compiler must admit: the known block, or any block */
  int need = known ? dims[0] * dims[1] * dims[2] : 1024;
  if (known && (dims[0] != k->block[0] || dims[1] != k->block[1] || dims[2] != k->block[2]))
    check(0, "launch", "%s: the bench launches %dx%dx%d, its known_block_size is %dx%dx%d", k->name,
          k->block[0], k->block[1], k->block[2], dims[0], dims[1], dims[2]);
  if (e) {
    int req = e->reqntid[0] * e->reqntid[1] * e->reqntid[2];
    int max = e->maxntid[0] * e->maxntid[1] * e->maxntid[2];
    char said[96];
    if (req)
      snprintf(said, sizeof said, ".reqntid %d, %d, %d", e->reqntid[0], e->reqntid[1], e->reqntid[2]);
    else if (max)
      snprintf(said, sizeof said, ".maxntid %d, %d, %d", e->maxntid[0], e->maxntid[1], e->maxntid[2]);
    else
      snprintf(said, sizeof said, "neither .reqntid nor .maxntid");
    if (known) {
      int ok = req ? !memcmp(e->reqntid, dims, sizeof dims) : max >= need;
      check(ok && (req || max), "launch", "%s: sm_90 %s for known_block_size %dx%dx%d", k->name, said,
            dims[0], dims[1], dims[2]);
    } else {
      int limit = req ? req : max;
      check(!limit || limit >= need, "launch", "%s: sm_90 %s, launched with up to %d threads", k->name,
            said, need);
    }
  }
  if (a)
    check(a->max_flat >= need && a->max_flat >= launched, "launch",
          "%s: gfx942 .max_flat_workgroup_size %ld %s %d (%s)", k->name, a->max_flat,
          a->max_flat >= need ? ">=" : "<", need,
          known ? "its known_block_size" : "no known_block_size: any block up to 1024 threads");
  else if (k->amd)
    check(0, "launch", "%s: not in gpucc's gfx942 code object", k->name);
}

/* ---- main ----------------------------------------------------------------- */

/* path made absolute where it names a file with a '/' in its name or a
 * directory; as it is otherwise (a command looked up in PATH, a path that
 * is not there). */
static const char *absolute(const char *path) {
  struct stat st;
  int named = strchr(path, '/') || (stat(path, &st) == 0 && S_ISDIR(st.st_mode));
  char *real = named ? realpath(path, NULL) : NULL;
  return real ? real : path;
}

int main(int argc, char **argv) {
  if (argc < 5) {
    fprintf(stderr, "usage: bench_codegen GPUCC LLVM_BINDIR SRCDIR WORKDIR [CUDA_DIR]\n");
    return 2;
  }
  /* absolute: the bench works in WORKDIR */
  gpucc = absolute(argv[1]), bindir = absolute(argv[2]), srcdir = absolute(argv[3]);
  const char *work = argv[4];
  cuda = argc > 5 ? argv[5] : getenv("CUDA_PATH");
  if (!cuda || !*cuda)
    cuda = "/usr/local/cuda";
  char readelf[4096], objdump[4096], clang[4096], nvcc[4096], ptxas[4096], cuda_path[4200];
  snprintf(readelf, sizeof readelf, "%s/llvm-readelf", bindir);
  snprintf(objdump, sizeof objdump, "%s/llvm-objdump", bindir);
  snprintf(clang, sizeof clang, "%s/clang", bindir);
  snprintf(nvcc, sizeof nvcc, "%s/bin/nvcc", cuda);
  snprintf(ptxas, sizeof ptxas, "%s/bin/ptxas", cuda);
  snprintf(cuda_path, sizeof cuda_path, "--cuda-path=%s", cuda);
  if (!tool_exists(readelf) || !tool_exists(objdump)) {
    printf("skip: no llvm-readelf/llvm-objdump in %s\n", bindir);
    return 77;
  }
  int have_cuda = tool_exists(nvcc) && tool_exists(ptxas);
  int have_clang = tool_exists(clang);
  if (mkdir(work, 0755) != 0 && errno != EEXIST) {
    fprintf(stderr, "cannot create '%s': %s\n", work, strerror(errno));
    return 1;
  }
  if (chdir(work) != 0) {
    fprintf(stderr, "cannot enter '%s': %s\n", work, strerror(errno));
    return 1;
  }
  /* a device cache of its own: never the user's */
  setenv("GPUCC_CACHE_DIR", "cache", 1);
  /* what an earlier run left must not pass for this run's output */
  static const char *const outputs[] = {
      "kernels-bench-sm_90.ptx", "wmma-bench_wmma-sm_90.ptx", "kernels-bench-gfx942.hsaco",
      "kernels-bench-sm_90.cubin", "wmma-bench_wmma-sm_90.cubin", "clang-gfx942.hsaco", "nvcc-sm_90.cubin",
      "nvcc-sm_90.ptx", "gpucc-ptxas.cubin", "gpucc-ptxas-wmma.cubin", "nvcc-ptxas.cubin",
      "gpucc-gfx942.notes", "gpucc-gfx942.s", "clang-gfx942.notes", "clang-gfx942.s"};
  for (size_t i = 0; i < sizeof outputs / sizeof outputs[0]; i++)
    unlink(outputs[i]);
  const char *kmlir = path_of(srcdir, "kernels.mlir"), *wmlir = path_of(srcdir, "wmma.mlir");
  const char *cu = path_of(srcdir, "kernels.cu"), *prelude = path_of(srcdir, "hip_prelude.h");

  printf("gpucc device code against nvcc and clang for the same kernels, statically (no GPU runs)\n");
  printf("  gpucc %s (default flags)\n", gpucc);
  if (have_cuda)
    printf("  nvcc -O3 -arch=sm_90 (%s)\n", nvcc);
  else
    printf("  NVIDIA comparison skipped: no nvcc and ptxas under %s (gpucc's PTX is still checked)\n", cuda);
  if (have_clang)
    printf("  %s -x hip --offload-arch=gfx942 -O3 -include hip_prelude.h\n", clang);
  else
    printf("  AMD comparison skipped: no %s (gpucc's code object is still checked)\n", clang);

  fflush(stdout);
  /* 1: compile */
  job("gpucc-ptx.log", gpucc, "--offload-arch=sm_90", "--emit=ptx", kmlir, NULL);
  job("gpucc-ptx-wmma.log", gpucc, "--offload-arch=sm_90", "--emit=ptx", wmlir, NULL);
  job("gpucc-hsaco.log", gpucc, "--offload-arch=gfx942", "--emit=hsaco", kmlir, NULL);
  if (have_clang)
    job("clang.log", clang, "-x", "hip", "--offload-arch=gfx942", "-nogpulib", "-nogpuinc", "--cuda-device-only",
        "--no-gpu-bundle-output", "-O3", "-include", prelude, cu, "-o", "clang-gfx942.hsaco", NULL);
  if (have_cuda) {
    job("gpucc-cubin.log", gpucc, cuda_path, "--offload-arch=sm_90", "--emit=cubin", kmlir, NULL);
    job("gpucc-cubin-wmma.log", gpucc, cuda_path, "--offload-arch=sm_90", "--emit=cubin", wmlir, NULL);
    job("nvcc-cubin.log", nvcc, "-O3", "-arch=sm_90", "-cubin", "-o", "nvcc-sm_90.cubin", cu, NULL);
    job("nvcc-ptx.log", nvcc, "-O3", "-arch=sm_90", "-ptx", "-o", "nvcc-sm_90.ptx", cu, NULL);
  }
  if (run_jobs())
    failures++;
  if (!file_exists("kernels-bench-sm_90.ptx") || !file_exists("kernels-bench-gfx942.hsaco") ||
      !file_exists("wmma-bench_wmma-sm_90.ptx")) {
    printf("FAIL: gpucc did not compile the kernels (logs in %s)\n", work);
    return 1;
  }

  fflush(stdout);
  /* 2: read */
  job("gpucc-gfx942.notes", readelf, "--notes", "kernels-bench-gfx942.hsaco", NULL);
  job("gpucc-gfx942.s", objdump, "-d", "kernels-bench-gfx942.hsaco", NULL);
  if (have_clang && file_exists("clang-gfx942.hsaco")) {
    job("clang-gfx942.notes", readelf, "--notes", "clang-gfx942.hsaco", NULL);
    job("clang-gfx942.s", objdump, "-d", "clang-gfx942.hsaco", NULL);
  }
  if (have_cuda) {
    job("gpucc-ptxas.txt", ptxas, "-v", "-arch=sm_90", "kernels-bench-sm_90.ptx", "-o", "gpucc-ptxas.cubin", NULL);
    job("gpucc-ptxas-wmma.txt", ptxas, "-v", "-arch=sm_90", "wmma-bench_wmma-sm_90.ptx", "-o",
        "gpucc-ptxas-wmma.cubin", NULL);
    if (file_exists("nvcc-sm_90.ptx"))
      job("nvcc-ptxas.txt", ptxas, "-v", "-arch=sm_90", "nvcc-sm_90.ptx", "-o", "nvcc-ptxas.cubin", NULL);
  }
  if (run_jobs())
    failures++;

  struct nv v = {0};
  v.nptx[0] = ptx_entries("kernels-bench-sm_90.ptx", &v.ptx[0]);
  v.nptx[1] = ptx_entries("wmma-bench_wmma-sm_90.ptx", &v.ptx[1]);
  if (have_cuda) {
    v.nnvcc_ptx = ptx_entries("nvcc-sm_90.ptx", &v.nvcc_ptx);
    struct ptxas_info *w;
    v.ninfo = ptxas_infos("gpucc-ptxas.txt", &v.info);
    int nw = ptxas_infos("gpucc-ptxas-wmma.txt", &w);
    if (v.ninfo >= 0 && nw > 0) {
      v.info = realloc(v.info, (size_t)(v.ninfo + nw) * sizeof *v.info);
      memcpy(v.info + v.ninfo, w, (size_t)nw * sizeof *w);
      v.ninfo += nw;
    }
    free(w);
    v.nnvcc_info = ptxas_infos("nvcc-ptxas.txt", &v.nvcc_info);
    struct sass_text *ws, *pw;
    v.nsass = cubin_texts("kernels-bench-sm_90.cubin", &v.sass);
    int nws = cubin_texts("wmma-bench_wmma-sm_90.cubin", &ws);
    if (v.nsass >= 0 && nws > 0) {
      v.sass = realloc(v.sass, (size_t)(v.nsass + nws) * sizeof *v.sass);
      memcpy(v.sass + v.nsass, ws, (size_t)nws * sizeof *ws);
      v.nsass += nws;
    }
    free(ws);
    v.nplain = cubin_texts("gpucc-ptxas.cubin", &v.plain);
    int npw = cubin_texts("gpucc-ptxas-wmma.cubin", &pw);
    if (v.nplain >= 0 && npw > 0) {
      v.plain = realloc(v.plain, (size_t)(v.nplain + npw) * sizeof *v.plain);
      memcpy(v.plain + v.nplain, pw, (size_t)npw * sizeof *pw);
      v.nplain += npw;
    }
    free(pw);
    v.nnvcc_sass = cubin_texts("nvcc-sm_90.cubin", &v.nvcc_sass);
    nvidia_tables(&v);
  } else {
    printf("\ngoals, sm_90 (printed, not asserted; no nvcc for the others):\n");
    rn_goal(&v, -1);
  }

  struct amd_kernel *g = NULL, *c = NULL;
  int ng = amd_notes("gpucc-gfx942.notes", &g), nc = -1;
  if (ng >= 0)
    amd_insns("gpucc-gfx942.s", g, ng);
  if (have_clang && file_exists("clang-gfx942.notes")) {
    nc = amd_notes("clang-gfx942.notes", &c);
    if (nc >= 0)
      amd_insns("clang-gfx942.s", c, nc);
    amd_table(g, ng, c, nc);
  }

  /* 3: the checks */
  printf("\nchecks (asserted):\n");
  check_alignment_ptx("kernels-bench-sm_90.ptx");
  check_alignment_ptx("wmma-bench_wmma-sm_90.ptx");
  int lds = 0;
  int found = amd_align_scan("gpucc-gfx942.s", "kernels-bench-gfx942.hsaco", stdout, &lds);
  check(found == 0, "alignment", "kernels-bench-gfx942.hsaco: %d 64/128-bit LDS accesses, %d at a "
        "misaligned offset", lds, found < 0 ? 0 : found);
  for (int i = 0; i < NKERNELS; i++) {
    const struct kernel_row *k = &kernels[i];
    int m = mlir_index(k->mlir);
    check_launch(k, m ? wmlir : kmlir, find_entry(v.ptx[m], v.nptx[m], k->name),
                 k->amd ? find_amd(g, ng, k->name) : NULL);
    if (!find_entry(v.ptx[m], v.nptx[m], k->name))
      check(0, "kernel", "%s: not in gpucc's PTX", k->name);
  }
  if (have_cuda && file_exists("nvcc-sm_90.ptx")) {
    /* the scanner on nvcc's PTX: a control, not a check of gpucc */
    int acc = 0;
    printf("  info  alignment scan of nvcc's PTX (a control of the scanner): ");
    fflush(stdout);
    int nf = ptx_align_scan("nvcc-sm_90.ptx", stdout, &acc);
    printf("%d vector accesses, %d finding(s)\n", acc, nf);
  }
  printf("\nbench_codegen: %s\n", failures ? "FAILED (see FAIL above)" : "all checks passed");
  free(v.ptx[0]), free(v.ptx[1]), free(v.nvcc_ptx), free(v.info), free(v.nvcc_info);
  free(v.sass), free(v.nvcc_sass), free(v.plain), free(g), free(c);
  return failures ? 1 : 0;
}
