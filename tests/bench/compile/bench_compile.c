/* bench_compile.c: gpucc against the upstream LLVM 22 chain a user runs by
 * hand, side by side in one run.
 *
 * It writes a program of 64 kernels, then times, for the same targets at
 * -O2:
 *   chain:  mlir-opt (the equivalent pipeline, gpu-module-to-binary
 *           included), mlir-translate, llc, once per target, one after
 *           another (upstream lowers one gpu.module for one vendor at a time);
 *   gpucc:  one `gpucc -c` for all targets, cold (no cache), and again with
 *           a warm cache: served by the direct cache (the command's object,
 *           no parse), and with GPUCC_CACHE_DIRECT=0 (parsed; the device and
 *           host entries serve).
 * It prints wall times, CPU times (user+sys of each command and every
 * process it waited for, from wait4), peak memory (largest child RSS) and
 * the ratios the issues set goals for: one target wall <= 0.6x, four
 * targets wall <= 0.3x and CPU <= 0.5x, warm cache <= 0.05x (issues 16 and
 * 24). CPU time tells the work done apart from the parallelism that hides
 * it: on two cores a build that does the chains' work can still look fast.
 * The series take turns, one run of each per round. No absolute time is
 * asserted; the exit status only says whether every command worked.
 * Usage: bench_compile GPUCC LLVM_BINDIR WORKDIR [repetitions] */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static const char *gpucc, *bindir, *work;
static long peak_kb;
static double cpu_s; /* user+sys of the commands run since it was zeroed */

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Runs argv, returns its exit status; tracks the largest child RSS. */
static int run(char **argv) {
  pid_t pid;
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
  if (posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ) != 0) {
    fprintf(stderr, "cannot run %s\n", argv[0]);
    return -1;
  }
  posix_spawn_file_actions_destroy(&fa);
  int status;
  struct rusage ru;
  while (wait4(pid, &status, 0, &ru) < 0 && errno == EINTR)
    ;
  if (ru.ru_maxrss > peak_kb)
    peak_kb = ru.ru_maxrss;
  cpu_s += ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6 + ru.ru_stime.tv_sec + ru.ru_stime.tv_usec * 1e-6;
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    fprintf(stderr, "failed:");
    for (int i = 0; argv[i]; i++)
      fprintf(stderr, " %s", argv[i]);
    fprintf(stderr, "\n");
    return -1;
  }
  return 0;
}

static void write_program(const char *path) {
  FILE *f = fopen(path, "w");
  if (!f)
    exit(2);
  fprintf(f, "module attributes {gpu.container_module} {\n  gpu.module @kernels {\n");
  for (int k = 0; k < 64; k++)
    fprintf(f,
            "    gpu.func @k%d(%%a: memref<?xf32>, %%b: memref<?xf32>, %%n: index) kernel {\n"
            "      %%t = gpu.thread_id x\n      %%bid = gpu.block_id x\n      %%d = gpu.block_dim x\n"
            "      %%base = arith.muli %%bid, %%d : index\n      %%i = arith.addi %%base, %%t : index\n"
            "      %%in = arith.cmpi ult, %%i, %%n : index\n"
            "      scf.if %%in {\n        %%x = memref.load %%a[%%i] : memref<?xf32>\n"
            "        %%c = arith.constant %d.0 : f32\n        %%y = arith.mulf %%x, %%c : f32\n"
            "        %%e = math.exp %%y : f32\n        %%z = arith.addf %%e, %%x : f32\n"
            "        memref.store %%z, %%b[%%i] : memref<?xf32>\n      }\n      gpu.return\n    }\n",
            k, k + 1);
  fprintf(f, "  }\n  func.func @run(%%a: memref<?xf32>, %%b: memref<?xf32>) attributes {llvm.emit_c_interface} {\n"
             "    %%c0 = arith.constant 0 : index\n    %%c1 = arith.constant 1 : index\n"
             "    %%c256 = arith.constant 256 : index\n    %%n = memref.dim %%a, %%c0 : memref<?xf32>\n");
  for (int k = 0; k < 64; k++)
    fprintf(f, "    gpu.launch_func @kernels::@k%d blocks in (%%c1, %%c1, %%c1) threads in (%%c256, %%c1, %%c1) "
               "args(%%a : memref<?xf32>, %%b : memref<?xf32>, %%n : index)\n", k);
  fprintf(f, "    return\n  }\n}\n");
  fclose(f);
}

static char *tool(const char *name) {
  static char buf[8][512];
  static int i;
  i = (i + 1) % 8;
  snprintf(buf[i], sizeof buf[i], "%s/%s", bindir, name);
  return buf[i];
}

/* The upstream chain for one target, as documented for LLVM 22. */
static int chain(const char *target, const char *prog, const char *rocm) {
  char pipeline[2048], lowered[512], ll[512], obj[512];
  snprintf(lowered, sizeof lowered, "%s/chain-%s.mlir", work, target);
  snprintf(ll, sizeof ll, "%s/chain-%s.ll", work, target);
  snprintf(obj, sizeof obj, "%s/chain-%s.o", work, target);
  if (!strncmp(target, "sm_", 3))
    snprintf(pipeline, sizeof pipeline,
             "--pass-pipeline=builtin.module(gpu-lower-to-nvvm-pipeline{cubin-chip=%s "
             "cubin-features=+ptx80 cubin-format=bin opt-level=2})", target);
  else
    snprintf(pipeline, sizeof pipeline,
             "--pass-pipeline=builtin.module(rocdl-attach-target{chip=%s O=2},convert-math-to-rocdl{chipset=%s},"
             "gpu.module(convert-scf-to-cf,convert-gpu-to-rocdl{chipset=%s runtime=HIP},"
             "reconcile-unrealized-casts),gpu-module-to-binary{format=bin toolkit=%s},"
             "convert-scf-to-cf,convert-cf-to-llvm,expand-strided-metadata,finalize-memref-to-llvm,"
             "convert-arith-to-llvm,convert-index-to-llvm,convert-func-to-llvm,gpu-to-llvm,"
             "reconcile-unrealized-casts)", target, target, target, rocm);
  char *opt[] = {tool("mlir-opt"), pipeline, (char *)prog, "-o", lowered, NULL};
  char *tr[] = {tool("mlir-translate"), "--mlir-to-llvmir", lowered, "-o", ll, NULL};
  char *llc[] = {tool("llc"), "-O2", "-filetype=obj", "-relocation-model=pic", ll, "-o", obj, NULL};
  return run(opt) || run(tr) || run(llc) ? -1 : 0;
}

static int gpucc_build(const char *targets, const char *prog, const char *cache) {
  char arch[256], out[512];
  snprintf(arch, sizeof arch, "--offload-arch=%s", targets);
  snprintf(out, sizeof out, "%s/gpucc.o", work);
  if (cache)
    setenv("GPUCC_CACHE_DIR", cache, 1);
  else
    setenv("GPUCC_CACHE_DIR", "", 1);
  char *argv[] = {(char *)gpucc, "-O2", arch, "-c", (char *)prog, "-o", out, NULL};
  return run(argv);
}

/* One series of runs: the best wall time, and the least CPU time of one
 * run (each minimum on its own: other load on the machine adds to both),
 * and the largest child RSS. */
struct series {
  double wall, cpu;
  long peak_kb;
};

static void time_once(int (*fn)(void *), void *arg, struct series *s, int *failed) {
  cpu_s = 0;
  peak_kb = 0;
  double t0 = now();
  if (fn(arg) != 0)
    *failed = 1;
  double t = now() - t0;
  if (t < s->wall)
    s->wall = t;
  if (cpu_s < s->cpu)
    s->cpu = cpu_s;
  if (peak_kb > s->peak_kb)
    s->peak_kb = peak_kb;
}

struct job {
  const char *targets, *prog, *rocm, *cache;
};

static int chain_job(void *p) {
  struct job *j = p;
  char list[256];
  snprintf(list, sizeof list, "%s", j->targets);
  for (char *save, *t = strtok_r(list, ",", &save); t; t = strtok_r(NULL, ",", &save))
    if (chain(t, j->prog, j->rocm) != 0)
      return -1;
  return 0;
}

static int gpucc_job(void *p) {
  struct job *j = p;
  return gpucc_build(j->targets, j->prog, j->cache);
}

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: bench_compile GPUCC LLVM_BINDIR WORKDIR [repetitions]\n");
    return 2;
  }
  gpucc = argv[1], bindir = argv[2], work = argv[3];
  int reps = argc > 4 ? atoi(argv[4]) : 3;
  if (reps < 1)
    reps = 1;
  mkdir(work, 0755);
  char prog[512], rocm[512], cache[512], path[600];
  snprintf(prog, sizeof prog, "%s/kernels64.mlir", work);
  write_program(prog);
  /* The ROCm-layout directory a user of the upstream chain has to build. */
  snprintf(rocm, sizeof rocm, "%s/rocm", work);
  snprintf(path, sizeof path, "%s/llvm/bin", rocm);
  char mk[700];
  snprintf(mk, sizeof mk, "%s/llvm", rocm);
  mkdir(rocm, 0755), mkdir(mk, 0755), mkdir(path, 0755);
  snprintf(mk, sizeof mk, "%s/amdgcn", rocm);
  mkdir(mk, 0755);
  snprintf(path, sizeof path, "%s/llvm/bin/ld.lld", rocm);
  unlink(path);
  if (symlink(tool("ld.lld"), path) != 0)
    return 2;
  snprintf(path, sizeof path, "%s/amdgcn/bitcode", rocm);
  unlink(path);
  if (symlink("/usr/lib/x86_64-linux-gnu/amdgcn/bitcode", path) != 0)
    return 2;
  if (!getenv("CUDA_PATH"))
    setenv("CUDA_PATH", "/usr/local/cuda", 1); /* the chain's ptxas */
  snprintf(cache, sizeof cache, "%s/cache", work);

  int failed = 0;
  struct job one = {"sm_90", prog, rocm, NULL};
  struct job four = {"sm_80,sm_90,gfx90a,gfx942", prog, rocm, NULL};
  struct job warm = {"sm_80,sm_90,gfx90a,gfx942", prog, rocm, cache};

  /* The series take turns, one run each per round: a machine whose speed
   * drifts during the benchmark (other guests on its host) slows the
   * chains and gpucc alike, rather than whichever ran during the slow
   * spell. */
  struct series chain1 = {1e30, 1e30, 0}, gpucc1 = chain1, chain4 = chain1, gpucc4 = chain1;
  struct series warm4 = chain1, parsed4 = chain1;
  gpucc_job(&warm); /* fill the cache */
  for (int r = 0; r < reps; r++) {
    time_once(chain_job, &one, &chain1, &failed);
    time_once(gpucc_job, &one, &gpucc1, &failed);
    time_once(chain_job, &four, &chain4, &failed);
    time_once(gpucc_job, &four, &gpucc4, &failed);
    time_once(gpucc_job, &warm, &warm4, &failed);
    /* The same without the direct cache: what a build whose input changed
     * only in host code, or a command the direct cache does not serve,
     * pays to parse and bundle around its cached objects. */
    setenv("GPUCC_CACHE_DIRECT", "0", 1);
    time_once(gpucc_job, &warm, &parsed4, &failed);
    unsetenv("GPUCC_CACHE_DIRECT");
  }

  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  double load[3] = {0, 0, 0};
  getloadavg(load, 3);
  printf("64 kernels, -O2, best of %d, %ld cores, load average %.2f %.2f %.2f\n", reps, cores, load[0],
         load[1], load[2]);
  printf("  1 target (sm_90):      chain  %6.2f s wall %6.2f s CPU (peak %ld MB)  gpucc %6.2f s wall %6.2f s CPU (peak %ld MB)\n"
         "                         ratio wall %.2fx (goal <= 0.6x)  CPU %.2fx\n",
         chain1.wall, chain1.cpu, chain1.peak_kb / 1024, gpucc1.wall, gpucc1.cpu, gpucc1.peak_kb / 1024,
         gpucc1.wall / chain1.wall, gpucc1.cpu / chain1.cpu);
  printf("  4 targets:             chains %6.2f s wall %6.2f s CPU (peak %ld MB)  gpucc %6.2f s wall %6.2f s CPU (peak %ld MB)\n"
         "                         ratio wall %.2fx (goal <= 0.3x)  CPU %.2fx (goal <= 0.5x)\n",
         chain4.wall, chain4.cpu, chain4.peak_kb / 1024, gpucc4.wall, gpucc4.cpu, gpucc4.peak_kb / 1024,
         gpucc4.wall / chain4.wall, gpucc4.cpu / chain4.cpu);
  printf("  4 targets, warm cache: gpucc %.2f s wall %.2f s CPU  ratio wall %.2fx of the chains (goal <= 0.05x)  CPU %.2fx\n",
         warm4.wall, warm4.cpu, warm4.wall / chain4.wall, warm4.cpu / chain4.cpu);
  printf("  4 targets, warm, parsed: gpucc %.2f s wall %.2f s CPU  ratio wall %.2fx of the chains "
         "(GPUCC_CACHE_DIRECT=0: device and host entries only)\n",
         parsed4.wall, parsed4.cpu, parsed4.wall / chain4.wall);
  return failed ? 1 : 0;
}
