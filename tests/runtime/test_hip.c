/* test_hip.c: the runtime against a fake HIP runtime (fake_hip.c).
 *
 * Checks the AMD side: the target id read from either hipDeviceProp_t
 * layout, selection by gfx processor and xnack/sramecc modes, the device made
 * current in each thread, host-shared allocations as managed memory, and the
 * choice between CUDA and HIP when both libraries are present. */
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "gpucc_rt.h"
#include "harness.h"

/* A fake device object: its text and NUL, which the fake drivers read. */
#define OBJ(text) text, sizeof text, NULL /* no features recorded */

#define LOGCOUNT(needle) rt_log_count("FAKE_HIP_LOG", needle)

static void *g_blob;

static void *load_kern(void) {
  const struct fatbin_entry e[] = {
      {"kern", FATBIN_VENDOR_NVIDIA, "sm_90", FATBIN_FORMAT_CUBIN, OBJ("FAKECUBIN:sm_90")},
      {"kern", FATBIN_VENDOR_AMD, "gfx90a:xnack+", FATBIN_FORMAT_HSACO,
       OBJ("FAKEHSACO:gfx90a:xnack+")},
      {"kern", FATBIN_VENDOR_AMD, "gfx90a:xnack-", FATBIN_FORMAT_HSACO,
       OBJ("FAKEHSACO:gfx90a:xnack-")},
      {"kern", FATBIN_VENDOR_AMD, "gfx942:sramecc+", FATBIN_FORMAT_HSACO, OBJ("FAKEHSACO:gfx942")},
  };
  size_t size;
  g_blob = rt_make_blob(e, sizeof e / sizeof e[0], &size);
  void *m = mgpuModuleLoad(g_blob, size);
  CHECK(m != NULL);
  return m;
}

static void unload_kern(void *m) {
  mgpuModuleUnload(m);
  free(g_blob);
}

/* The object named by RT_EXPECT is loaded for the device FAKE_HIP_ARCH
 * describes, on the device made current first. */
static void run_select(void) {
  void *m = load_kern();
  CHECK(LOGCOUNT("hip") == 0);
  CHECK(mgpuModuleGetFunction(m, "k") != NULL);
  CHECK(strcmp(gpuccBackendName(), "hip") == 0);
  CHECK(LOGCOUNT("hipInit") == 1);
  CHECK(LOGCOUNT("hipModuleLoadData") == 1);
  const char *expect = getenv("RT_EXPECT");
  char line[128];
  snprintf(line, sizeof line, "hipModuleLoadData device=0 image=%s", expect ? expect : "?");
  CHECK(LOGCOUNT(line) == 1);
  CHECK(LOGCOUNT("hipModuleGetFunction device=0 name=k") == 1);
  unload_kern(m);
  CHECK(LOGCOUNT("hipModuleUnload") == 1);
}

static void run_select_none(void) {
  void *m = load_kern();
  mgpuModuleGetFunction(m, "k");
  fprintf(stderr, "continued after a failed load\n");
}

static void run_ops(void) {
  void *m = load_kern();
  void *f = mgpuModuleGetFunction(m, "k");
  void *s = mgpuStreamCreate();
  CHECK(f && s);
  CHECK(LOGCOUNT("hipStreamCreateWithFlags device=0 flags=1") == 1);
  int64_t a = 1;
  void *params[] = {&a};
  mgpuLaunchKernel(f, 8, 1, 1, 64, 1, 1, 128, s, params, NULL, 1);
  char line[256];
  snprintf(line, sizeof line,
           "hipModuleLaunchKernel device=0 name=k grid=8,1,1 block=64,1,1 smem=128 "
           "stream=%p params=%p extra=(nil)",
           s, (void *)params);
  CHECK(LOGCOUNT(line) == 1);

  /* gpu.alloc host_shared must be host-accessible on AMD too. */
  void *shared = mgpuMemAlloc(32, NULL, true);
  CHECK(shared != NULL);
  CHECK(LOGCOUNT("hipMallocManaged device=0 size=32 flags=1") == 1);
  CHECK(LOGCOUNT("hipMalloc ") == 0);
  uint32_t *d = mgpuMemAlloc(16, s, false);
  CHECK(LOGCOUNT("hipMalloc device=0 size=16") == 1);
  mgpuMemset32(d, 7, 4, s);
  uint32_t host[4];
  mgpuMemcpy(host, d, sizeof host, s);
  CHECK(host[0] == 7 && host[3] == 7);
  CHECK(LOGCOUNT("hipMemcpyAsync size=16 kind=4") == 1); /* hipMemcpyDefault */
  mgpuMemset16(d, 9, 2, s);
  CHECK(LOGCOUNT("hipMemsetD16Async value=0x9 count=2") == 1);
  mgpuMemFree(d, s);
  mgpuMemFree(shared, NULL);
  CHECK(LOGCOUNT("hipFree") == 2);

  void *e = mgpuEventCreate();
  CHECK(LOGCOUNT("hipEventCreateWithFlags flags=2") == 1);
  mgpuEventRecord(e, s);
  mgpuStreamWaitEvent(s, e);
  mgpuEventSynchronize(e);
  mgpuEventDestroy(e);
  mgpuStreamSynchronize(s);
  mgpuStreamDestroy(s);
  CHECK(LOGCOUNT("hipStreamDestroy") == 1 && LOGCOUNT("hipEventDestroy") == 1);

  float buf[8];
  mgpuMemHostRegister(buf, sizeof buf);
  snprintf(line, sizeof line, "hipHostRegister ptr=%p size=32 flags=0", (void *)buf);
  CHECK(LOGCOUNT(line) == 1);
  mgpuMemHostUnregister(buf);
  unload_kern(m);
}

/* Each thread has its own current device in HIP: the runtime sets it. */
static void *thread_main(void *arg) {
  void *p = mgpuMemAlloc(8, NULL, false);
  CHECK(p != NULL);
  mgpuMemFree(p, NULL);
  return arg;
}

static void run_thread_device(void) {
  void *p = mgpuMemAlloc(8, NULL, false);
  mgpuMemFree(p, NULL);
  pthread_t t;
  CHECK(pthread_create(&t, NULL, thread_main, NULL) == 0);
  CHECK(pthread_join(t, NULL) == 0);
  CHECK(LOGCOUNT("hipSetDevice device=1") == 2);
  CHECK(LOGCOUNT("hipMalloc device=1 size=8") == 2);
}

/* Many threads start using the runtime at once: HIP is initialized and the
 * module loaded once, and every thread makes the device current for itself
 * (the fake's current device is per thread, -1 until set) before its first
 * call, exactly once however many calls it makes. */
#define NTHREADS 8
static pthread_barrier_t g_barrier;
static void *g_module;

static void *threads_main(void *arg) {
  pthread_barrier_wait(&g_barrier);
  void *f = mgpuModuleGetFunction(g_module, "k");
  void *s = mgpuStreamCreate();
  void *p = mgpuMemAlloc(64, s, false);
  CHECK(f && s && p);
  mgpuLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, s, NULL, NULL, 0);
  mgpuMemset32(p, 7, 16, s);
  mgpuStreamSynchronize(s);
  CHECK(((uint32_t *)p)[15] == 7);
  mgpuMemFree(p, s);
  mgpuStreamDestroy(s);
  return arg;
}

static void run_threads(void) {
  g_module = load_kern();
  pthread_t t[NTHREADS];
  pthread_barrier_init(&g_barrier, NULL, NTHREADS);
  for (int i = 0; i < NTHREADS; i++)
    CHECK(pthread_create(&t[i], NULL, threads_main, NULL) == 0);
  for (int i = 0; i < NTHREADS; i++)
    CHECK(pthread_join(t[i], NULL) == 0);
  pthread_barrier_destroy(&g_barrier);
  CHECK(LOGCOUNT("hipInit") == 1);
  CHECK(LOGCOUNT("hipModuleLoadData device=0") == 1);
  CHECK(LOGCOUNT("hipSetDevice device=0") == NTHREADS);
  CHECK(LOGCOUNT("hipModuleGetFunction device=0 name=k") == 1); /* once, for all */
  CHECK(LOGCOUNT("hipModuleLaunchKernel device=0 name=k") == NTHREADS);
  CHECK(LOGCOUNT("hipMalloc device=0 size=64") == NTHREADS);
  unload_kern(g_module);
}

/* ---- launch limits ---- */

static int g_refused;
static char g_refusal[4096];

static void refusal_handler(const char *message, void *user_data) {
  (void)user_data;
  g_refused++;
  snprintf(g_refusal, sizeof g_refusal, "%s", message);
}

/* Launches f with a handler installed; 1 when it was refused with exactly
 * `want` and never reached HIP, or (want NULL) when it reached HIP. */
static int refuses(void *f, intptr_t gx, intptr_t gy, intptr_t gz, intptr_t bx, intptr_t by,
                   intptr_t bz, int32_t smem, const char *want) {
  int before = LOGCOUNT("hipModuleLaunchKernel"), refused = g_refused;
  gpuccSetErrorHandler(refusal_handler, NULL);
  mgpuLaunchKernel(f, gx, gy, gz, bx, by, bz, smem, NULL, NULL, NULL, 0);
  gpuccSetErrorHandler(NULL, NULL);
  int now = g_refused > refused;
  if (now && want && strcmp(g_refusal, want) != 0)
    fprintf(stderr, "refused with '%s'\nnot      '%s'\n", g_refusal, want);
  return want ? now && strcmp(g_refusal, want) == 0 &&
                    LOGCOUNT("hipModuleLaunchKernel") == before
              : !now && LOGCOUNT("hipModuleLaunchKernel") == before + 1;
}

/* On HIP a launch is held to what the device and the function report
 * (FAKE_HIP_FUNC_THREADS=256, FAKE_HIP_FUNC_SHARED=1024, 64 KiB of LDS;
 * AMD's blocks may be 1024 deep and its grids 65536 high), below the
 * manifest's 1024 threads. */
static void run_limit(void) {
  static const struct fatbin_kernel kernels[] = {{"kern", "k", NULL, 1024, {0, 0, 0}, 16}};
  const struct fatbin_entry e[] = {
      {"kern", FATBIN_VENDOR_AMD, "gfx90a", FATBIN_FORMAT_HSACO, OBJ("FAKEHSACO:gfx90a")},
  };
  size_t size;
  g_blob = rt_make_blob_kernels(e, 1, kernels, 1, &size);
  void *m = mgpuModuleLoad(g_blob, size);
  void *k = mgpuModuleGetFunction(m, "k");
  CHECK(k && mgpuModuleGetFunction(m, "k") == k);
  CHECK(LOGCOUNT("hipFuncGetAttribute device=0 name=k attr=0") == 1);
  CHECK(refuses(k, 1, 1, 1, 256, 1, 1, 0, NULL));
  CHECK(refuses(k, 1, 1, 1, 512, 1, 1, 0,
                "mgpuLaunchKernel: kernel 'k' launched with 512 threads per block; it was "
                "compiled for at most 256 (gfx90a)"));
  CHECK(refuses(k, 1, 1, 1, 1, 1, 128, 0, NULL));
  CHECK(refuses(k, 1, 65536, 1, 64, 1, 1, 0, NULL));
  CHECK(refuses(k, 1, 65537, 1, 64, 1, 1, 0,
                "mgpuLaunchKernel: kernel 'k' launched with grid (1, 65537, 1); a grid is "
                "at most (2147483647, 65536, 65536) blocks (gfx90a)"));
  CHECK(refuses(k, 1, 1, 1, 64, 1, 1, 64512, NULL));
  CHECK(refuses(k, 1, 1, 1, 64, 1, 1, 64513,
                "mgpuLaunchKernel: kernel 'k' launched with 64513 bytes of dynamic shared "
                "memory; with its 1024 static bytes that is 65537, more than the 65536 bytes "
                "a block can have (gfx90a)"));
  unload_kern(m);
}

static void run_cluster(void) {
  void *m = load_kern();
  void *f = mgpuModuleGetFunction(m, "k");
  mgpuLaunchClusterKernel(f, 2, 1, 1, 2, 1, 1, 32, 1, 1, 0, NULL, NULL, NULL);
  fprintf(stderr, "continued after a failed launch\n");
}

static void run_jit(void) {
  static const char text[] = "\t.amdgcn_target \"amdgcn-amd-amdhsa--gfx90a\"\n";
  void *m = mgpuModuleLoadJIT((void *)text, 2);
  mgpuModuleGetFunction(m, "k");
  fprintf(stderr, "continued after a failed load\n");
}

static void run_fail_launch(void) {
  void *m = load_kern();
  void *f = mgpuModuleGetFunction(m, "k");
  mgpuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, NULL, NULL, 0);
  fprintf(stderr, "continued after a failed launch\n");
}

/* A kernel's fault, reported by the driver at the next synchronization:
 * the host backend's line naming the stream's last kernel, after what was
 * printed (stdout, fully buffered, goes into stderr's pipe to show it). */
static void run_fault(void) {
  static char buf[1 << 16];
  setvbuf(stdout, buf, _IOFBF, sizeof buf);
  CHECK(dup2(2, 1) == 1);
  void *m = load_kern();
  void *k = mgpuModuleGetFunction(m, "k"), *k2 = mgpuModuleGetFunction(m, "k2");
  void *s1 = mgpuStreamCreate(), *s2 = mgpuStreamCreate();
  mgpuLaunchKernel(k2, 1, 1, 1, 1, 1, 1, 0, s1, NULL, NULL, 0);
  mgpuLaunchKernel(k, 1, 1, 1, 1, 1, 1, 0, s2, NULL, NULL, 0);
  printf("printed before the fault\n");
  mgpuStreamSynchronize(s1);
  fprintf(stderr, "continued after a fault\n");
}

/* Both drivers present: which one runs is in RT_EXPECT_BACKEND. */
static void run_choice(void) {
  void *s = mgpuStreamCreate();
  CHECK(s != NULL);
  const char *want = getenv("RT_EXPECT_BACKEND");
  CHECK(want && strcmp(gpuccBackendName(), want) == 0);
  mgpuStreamDestroy(s);
}

static const struct rt_test tests[] = {
    {"select", run_select, 0, {0}, {"gpucc"}, 0},
    {"select_none",
     run_select_none,
     1,
     {"gpucc: runtime error: mgpuModuleGetFunction: no code for device 0 'Fake AMD GPU' "
      "(gfx1100) in module 'kern', which carries code for: sm_90 gfx90a:xnack+ "
      "gfx90a:xnack- gfx942:sramecc+; rebuild with --offload-arch=gfx1100\n"},
     {"continued"},
     0},
    {"select_mode_mismatch",
     run_select_none,
     1,
     {"no code for device 0 'Fake AMD GPU' (gfx942:sramecc-:xnack-)",
      "rebuild with --offload-arch=gfx942\n"},
     {"continued"},
     0},
    {"ops", run_ops, 0, {0}, {"gpucc"}, 0},
    {"thread_device", run_thread_device, 0, {0}, {"gpucc"}, 0},
    {"threads", run_threads, 0, {0}, {"gpucc"}, 0},
    {"limit", run_limit, 0, {0}, {"gpucc", "refused with"}, 0},
    {"cluster",
     run_cluster,
     1,
     {"gpucc: runtime error: mgpuLaunchClusterKernel: HIP has no thread block clusters"},
     {"continued"},
     0},
    {"jit",
     run_jit,
     1,
     {"gpucc: runtime error: mgpuModuleGetFunction: HIP cannot JIT-compile assembly"},
     {"continued"},
     0},
    {"fail_launch",
     run_fail_launch,
     1,
     {"gpucc: runtime error: mgpuLaunchKernel: hipModuleLaunchKernel failed: "
      "hipErrorLaunchFailure (unspecified launch failure) launching grid (1, 1, 1), "
      "block (1, 1, 1)\n"},
     {"continued"},
     0},
    {"fault",
     run_fault,
     1,
     {"printed before the fault\ngpucc: kernel 'k2' (module kern): illegal memory access\n"},
     {"continued", "runtime error"},
     0},
    {"choice", run_choice, 0, {0}, {"gpucc"}, 0},
};

int main(int argc, char **argv) {
  return rt_test_main(argc, argv, tests, sizeof tests / sizeof tests[0]);
}
