/* test_cuda.c: the runtime against a fake CUDA driver (fake_cuda.c).
 *
 * Each scenario uses the mgpu* functions as compiled code does and checks,
 * through the fake driver's call log, what reached the driver: which object
 * was loaded for which compute capability, how launches and copies were
 * forwarded, that nothing happens before first use, that concurrent first
 * uses load once. Scenarios that must fail check the exact message and exit
 * status (see tests/runtime/CMakeLists.txt for each one's environment). */
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "gpucc_rt.h"
#include "harness.h"

/* A fake device object: its text and NUL, which the fake drivers read. */
#define OBJ(text) text, sizeof text, NULL /* no features recorded */

#define LOGCOUNT(needle) rt_log_count("FAKE_CUDA_LOG", needle)

static const char ptx_sm80[] = "//PTX for sm_80\n.version 7.0\n.target sm_80\n";

/* A fat binary like gpucc builds for --offload-arch=sm_80,sm_90,gfx90a: a
 * cubin per NVIDIA target, PTX for the oldest, an AMD code object. The PTX is
 * stored without its NUL to check that the runtime adds one. */
static void *g_blob;
static size_t g_blob_size;

static void *load_kern(void) {
  const struct fatbin_entry e[] = {
      {"kern", FATBIN_VENDOR_NVIDIA, "sm_80", FATBIN_FORMAT_CUBIN, OBJ("FAKECUBIN:sm_80 body")},
      {"kern", FATBIN_VENDOR_NVIDIA, "sm_90", FATBIN_FORMAT_CUBIN, OBJ("FAKECUBIN:sm_90 body")},
      {"kern", FATBIN_VENDOR_NVIDIA, "sm_80", FATBIN_FORMAT_PTX, ptx_sm80, sizeof ptx_sm80 - 1,
       NULL},
      {"kern", FATBIN_VENDOR_AMD, "gfx90a", FATBIN_FORMAT_HSACO, OBJ("FAKEHSACO:gfx90a")},
  };
  g_blob = rt_make_blob(e, sizeof e / sizeof e[0], &g_blob_size);
  void *m = mgpuModuleLoad(g_blob, g_blob_size);
  CHECK(m != NULL);
  return m;
}

static void unload_kern(void *m) {
  mgpuModuleUnload(m);
  free(g_blob);
  g_blob = NULL;
}

/* Nothing reaches the driver until a kernel is needed; then the object the
 * test's environment names (RT_EXPECT) is loaded, once. */
static void run_select(void) {
  void *m = load_kern();
  CHECK(LOGCOUNT("cu") == 0);
  CHECK(gpuccBackendName() == NULL);
  CHECK(mgpuModuleGetFunction(m, "k") != NULL);
  CHECK(mgpuModuleGetFunction(m, "k2") != NULL);
  CHECK(gpuccBackendName() && strcmp(gpuccBackendName(), "cuda") == 0);
  CHECK(LOGCOUNT("cuInit") == 1);
  CHECK(LOGCOUNT("cuModuleLoadData") == 1);
  const char *expect = getenv("RT_EXPECT");
  CHECK(expect && LOGCOUNT(expect) == 1);
  unload_kern(m);
  CHECK(LOGCOUNT("cuModuleUnload") == 1);
}

/* PTX reaches the driver NUL-terminated: the fake measures it with strlen. */
static void run_select_ptx(void) {
  run_select();
  char line[128];
  snprintf(line, sizeof line, "cuModuleLoadDataEx len=%zu opt=-1 image=//PTX for sm_80",
           strlen(ptx_sm80));
  CHECK(LOGCOUNT(line) == 1);
}

static void run_select_none(void) {
  void *m = load_kern();
  mgpuModuleGetFunction(m, "k");
  fprintf(stderr, "continued after a failed load\n");
}

/* mgpuModuleLoad must not touch any driver, nor mgpuModuleUnload of a module
 * that was never used. */
static void run_lazy(void) {
  void *m = load_kern();
  unload_kern(m);
  mgpuMemAlloc(0, NULL, false);
  mgpuMemFree(NULL, NULL);
  mgpuMemcpy(NULL, NULL, 0, NULL);
  CHECK(LOGCOUNT("cu") == 0);
  CHECK(gpuccBackendName() == NULL);
}

static void run_launch(void) {
  void *m = load_kern();
  void *f = mgpuModuleGetFunction(m, "k");
  void *s = mgpuStreamCreate();
  CHECK(f && s);
  CHECK(LOGCOUNT("cuStreamCreate flags=1") == 1); /* non-blocking */
  int64_t a = 11, b = 22, c = 33;
  void *params[] = {&a, &b, &c};
  mgpuLaunchKernel(f, 2, 3, 4, 5, 6, 7, 1024, s, params, NULL, 3);
  char line[256];
  snprintf(line, sizeof line,
           "cuLaunchKernel name=k grid=2,3,4 block=5,6,7 smem=1024 stream=%p params=%p "
           "extra=(nil) args=11,22,33",
           s, (void *)params);
  CHECK(LOGCOUNT(line) == 1);
  /* Dynamic shared memory is opted in to before the launch. */
  CHECK(LOGCOUNT("cuFuncSetAttribute name=k attr=8 value=1024") == 1);
  /* Without shared memory, no attribute call. */
  mgpuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, s, params, NULL, 3);
  CHECK(LOGCOUNT("cuFuncSetAttribute") == 1);
  CHECK(LOGCOUNT("cuLaunchKernel name=k grid=1,1,1 block=32,1,1 smem=0") == 1);
  /* A grid with no blocks runs nothing. */
  mgpuLaunchKernel(f, 0, 1, 1, 32, 1, 1, 0, s, params, NULL, 3);
  CHECK(LOGCOUNT("cuLaunchKernel") == 2);
  /* Default stream. */
  mgpuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, NULL, NULL, 0);
  CHECK(LOGCOUNT("stream=(nil) params=(nil)") == 1);
  mgpuStreamSynchronize(s);
  snprintf(line, sizeof line, "cuStreamSynchronize stream=%p", s);
  CHECK(LOGCOUNT(line) == 1);
  mgpuStreamDestroy(s);
  CHECK(LOGCOUNT("cuStreamDestroy_v2") == 1);
  unload_kern(m);
}

static void run_cluster(void) {
  void *m = load_kern();
  void *f = mgpuModuleGetFunction(m, "k");
  int64_t a = 5;
  void *params[] = {&a};
  mgpuLaunchClusterKernel(f, 2, 1, 1, 4, 2, 1, 128, 1, 1, 256, NULL, params, NULL);
  CHECK(LOGCOUNT("cuLaunchKernelEx name=k grid=4,2,1 block=128,1,1 smem=256 "
                 "cluster=2,1,1 policy=1 stream=(nil) extra=(nil) args=5") == 1);
  CHECK(LOGCOUNT("cuFuncSetAttribute name=k attr=8 value=256") == 1);
  unload_kern(m);
}

static void run_bad_launch_size(void) {
  void *m = load_kern();
  void *f = mgpuModuleGetFunction(m, "k");
  mgpuLaunchKernel(f, -1, 1, 1, 1, 1, 1, 0, NULL, NULL, NULL, 0);
  fprintf(stderr, "continued after a failed launch\n");
}

static void run_smem_too_big(void) {
  void *m = load_kern();
  void *f = mgpuModuleGetFunction(m, "k");
  mgpuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 300000, NULL, NULL, NULL, 0);
  fprintf(stderr, "continued after a failed launch\n");
}

/* ---- launch limits ---- */

/* The kern module with kernel lines: k is compiled for blocks of (16, 8, 1)
 * only on every target but sm_80, whose line (for an older build, say)
 * does not apply on this sm_90 device; k2 for up to 512 threads. */
static void *load_kern_limits(void) {
  static const struct fatbin_kernel kernels[] = {
      {"kern", "k", NULL, 128, {16, 8, 1}, 1024},
      {"kern", "k", "sm_80", 64, {64, 1, 1}, 0},
      {"kern", "k2", NULL, 512, {0, 0, 0}, 0},
  };
  const struct fatbin_entry e[] = {
      {"kern", FATBIN_VENDOR_NVIDIA, "sm_80", FATBIN_FORMAT_CUBIN, OBJ("FAKECUBIN:sm_80 body")},
      {"kern", FATBIN_VENDOR_NVIDIA, "sm_90", FATBIN_FORMAT_CUBIN, OBJ("FAKECUBIN:sm_90 body")},
  };
  g_blob = rt_make_blob_kernels(e, 2, kernels, 3, &g_blob_size);
  void *m = mgpuModuleLoad(g_blob, g_blob_size);
  CHECK(m != NULL);
  return m;
}

static int g_refused;
static char g_refusal[4096];

static void refusal_handler(const char *message, void *user_data) {
  (void)user_data;
  g_refused++;
  snprintf(g_refusal, sizeof g_refusal, "%s", message);
}

/* Launches f with a handler installed; returns 1 when it was refused with
 * exactly `want` (NULL: when it was not refused), checking that the driver
 * saw the launch only if it was not. */
static int refuses(void *f, intptr_t gx, intptr_t gy, intptr_t gz, intptr_t bx, intptr_t by,
                   intptr_t bz, int32_t smem, const char *want) {
  int before = LOGCOUNT("cuLaunchKernel"), refused = g_refused;
  gpuccSetErrorHandler(refusal_handler, NULL);
  mgpuLaunchKernel(f, gx, gy, gz, bx, by, bz, smem, NULL, NULL, NULL, 0);
  gpuccSetErrorHandler(NULL, NULL);
  int now = g_refused > refused;
  if (now && want && strcmp(g_refusal, want) != 0)
    fprintf(stderr, "refused with '%s'\nnot      '%s'\n", g_refusal, want);
  return want ? now && strcmp(g_refusal, want) == 0 && LOGCOUNT("cuLaunchKernel") == before
              : !now && LOGCOUNT("cuLaunchKernel") == before + 1;
}

/* The manifest's kernel lines hold on CUDA: the device's target's line
 * (here the module's), the block shape, the thread count. */
static void run_limit_manifest(void) {
  void *m = load_kern_limits();
  void *k = mgpuModuleGetFunction(m, "k"), *k2 = mgpuModuleGetFunction(m, "k2");
  CHECK(k && k2 && mgpuModuleGetFunction(m, "k") == k);
  CHECK(refuses(k, 4, 1, 1, 16, 8, 1, 0, NULL));
  CHECK(refuses(k, 4, 1, 1, 8, 16, 1, 0,
                "mgpuLaunchKernel: kernel 'k' launched with block (8, 16, 1); it was "
                "compiled for block (16, 8, 1) only (sm_90)"));
  CHECK(refuses(k, 4, 1, 1, 256, 1, 1, 0,
                "mgpuLaunchKernel: kernel 'k' launched with 256 threads per block; it was "
                "compiled for at most 128 (sm_90)"));
  CHECK(refuses(k2, 1, 1, 1, 16, 32, 1, 0, NULL));
  CHECK(refuses(k2, 1, 1, 1, 16, 64, 1, 0,
                "mgpuLaunchKernel: kernel 'k2' launched with 1024 threads per block; it "
                "was compiled for at most 512 (sm_90)"));
  /* Cluster launches are checked the same way. */
  gpuccSetErrorHandler(refusal_handler, NULL);
  int refused = g_refused;
  mgpuLaunchClusterKernel(k, 1, 1, 1, 2, 1, 1, 32, 8, 1, 0, NULL, NULL, NULL);
  CHECK(g_refused == refused + 1 && LOGCOUNT("cuLaunchKernelEx") == 0 &&
        strstr(g_refusal, "mgpuLaunchClusterKernel: kernel 'k' launched with 256 threads"));
  gpuccSetErrorHandler(NULL, NULL);
  /* A zero-sized grid runs nothing, whatever its block. */
  CHECK(refuses(k, 0, 1, 1, 4096, 1, 1, 0, NULL) == 0 && g_refused == refused + 1);
  unload_kern(m);
}

/* What the driver says of the function and the device narrows the limits:
 * FAKE_CUDA_FUNC_THREADS=640 (registers), FAKE_CUDA_FUNC_SHARED=40000,
 * FAKE_CUDA_MAX_BLOCK=1024,512,64. Each is asked once per kernel. */
static void run_limit_driver(void) {
  void *m = load_kern();
  void *k = mgpuModuleGetFunction(m, "k");
  CHECK(k && mgpuModuleGetFunction(m, "k") == k);
  CHECK(LOGCOUNT("cuFuncGetAttribute name=k attr=0") == 1);
  CHECK(LOGCOUNT("cuFuncGetAttribute name=k attr=1") == 1);
  CHECK(LOGCOUNT("no current context") == 0);
  CHECK(refuses(k, 1, 1, 1, 640, 1, 1, 0, NULL));
  CHECK(refuses(k, 1, 1, 1, 641, 1, 1, 0,
                "mgpuLaunchKernel: kernel 'k' launched with 641 threads per block; it was "
                "compiled for at most 640 (sm_90)"));
  CHECK(refuses(k, 1, 1, 1, 1, 600, 1, 0,
                "mgpuLaunchKernel: kernel 'k' launched with block (1, 600, 1); a block is "
                "at most (1024, 512, 64) (sm_90)"));
  CHECK(refuses(k, 1, 1, 1, 1, 1, 65, 0,
                "mgpuLaunchKernel: kernel 'k' launched with block (1, 1, 65); a block is "
                "at most (1024, 512, 64) (sm_90)"));
  CHECK(refuses(k, 1, 65536, 1, 32, 1, 1, 0,
                "mgpuLaunchKernel: kernel 'k' launched with grid (1, 65536, 1); a grid is "
                "at most (2147483647, 65535, 65535) blocks (sm_90)"));
  /* 40000 static bytes and 192448 dynamic ones fill the 232448 of sm_90. */
  CHECK(refuses(k, 1, 1, 1, 32, 1, 1, 192448, NULL));
  CHECK(refuses(k, 1, 1, 1, 32, 1, 1, 192449,
                "mgpuLaunchKernel: kernel 'k' launched with 192449 bytes of dynamic shared "
                "memory; with its 40000 static bytes that is 232449, more than the 232448 "
                "bytes a block can have (sm_90)"));
  CHECK(LOGCOUNT("cuFuncGetAttribute") == 2);
  unload_kern(m);
}

/* A refusal without a handler stops the program like a failed launch. */
static void run_limit_exit(void) {
  void *m = load_kern_limits();
  void *k = mgpuModuleGetFunction(m, "k");
  mgpuLaunchKernel(k, 1, 1, 1, 1024, 1, 1, 0, NULL, NULL, NULL, 0);
  fprintf(stderr, "continued after a refused launch\n");
}

static void run_fail_launch(void) {
  void *m = load_kern();
  void *f = mgpuModuleGetFunction(m, "k");
  mgpuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, NULL, NULL, 0);
  fprintf(stderr, "continued after a failed launch\n");
}

static void run_memory(void) {
  /* Device memory of the fake driver is host memory: check real effects. */
  uint32_t *d = mgpuMemAlloc(64, NULL, false);
  CHECK(d != NULL);
  CHECK(LOGCOUNT("cuMemAlloc_v2 size=64") == 1);
  mgpuMemset32(d, 0xdeadbeefu, 16, NULL);
  uint32_t host32[16];
  mgpuMemcpy(host32, d, sizeof host32, NULL);
  for (int i = 0; i < 16; i++)
    CHECK(host32[i] == 0xdeadbeefu);
  mgpuMemset16(d, 0xabcd, 3, NULL);
  uint16_t host16[8];
  mgpuMemcpy(host16, d, sizeof host16, NULL);
  CHECK(host16[0] == 0xabcd && host16[2] == 0xabcd && host16[3] == 0xdead);
  CHECK(LOGCOUNT("cuMemsetD16Async") == 1 && LOGCOUNT("count=3") == 1);
  mgpuMemset32(d, 0, 0, NULL); /* nothing to do */
  CHECK(LOGCOUNT("cuMemsetD32Async") == 1);
  mgpuMemFree(d, NULL);
  CHECK(LOGCOUNT("cuMemFree_v2") == 1);

  /* Host-shared memory is managed memory, attached globally. */
  void *shared = mgpuMemAlloc(32, NULL, true);
  CHECK(shared != NULL);
  CHECK(LOGCOUNT("cuMemAllocManaged size=32 flags=1") == 1);
  mgpuMemFree(shared, NULL);

  /* 0 bytes: NULL, no driver call. */
  CHECK(mgpuMemAlloc(0, NULL, false) == NULL);
  CHECK(LOGCOUNT("cuMemAlloc") == 2);

  float buf[64];
  char line[128];
  mgpuMemHostRegister(buf, 100);
  snprintf(line, sizeof line, "cuMemHostRegister_v2 ptr=%p size=100 flags=0", (void *)buf);
  CHECK(LOGCOUNT(line) == 1);
  mgpuMemHostUnregister(buf);

  /* memref<3x4xf32> at offset 2, dense: 12 floats from buf + 2. */
  struct {
    void *allocated, *aligned;
    int64_t offset, sizes[2], strides[2];
  } m2 = {buf, buf, 2, {3, 4}, {4, 1}};
  mgpuMemHostRegisterMemRef(2, &m2, 4);
  snprintf(line, sizeof line, "cuMemHostRegister_v2 ptr=%p size=48 flags=0", (void *)(buf + 2));
  CHECK(LOGCOUNT(line) == 1);
  mgpuMemHostUnregisterMemRef(2, &m2, 4);
  snprintf(line, sizeof line, "cuMemHostUnregister ptr=%p", (void *)(buf + 2));
  CHECK(LOGCOUNT(line) == 1);
  /* A strided view (rows 8 apart): spans 2*8+3+1 = 20 floats. */
  m2.strides[0] = 8;
  mgpuMemHostRegisterMemRef(2, &m2, 4);
  snprintf(line, sizeof line, "cuMemHostRegister_v2 ptr=%p size=80 flags=0", (void *)(buf + 2));
  CHECK(LOGCOUNT(line) == 1);
  /* A reversed view: elements at offsets 4, 3, 2. */
  struct {
    void *allocated, *aligned;
    int64_t offset, sizes[1], strides[1];
  } m1 = {buf, buf, 4, {3}, {-1}};
  mgpuMemHostRegisterMemRef(1, &m1, 4);
  snprintf(line, sizeof line, "cuMemHostRegister_v2 ptr=%p size=12 flags=0", (void *)(buf + 2));
  CHECK(LOGCOUNT(line) == 1);
  /* An empty memref registers nothing. */
  m1.sizes[0] = 0;
  mgpuMemHostRegisterMemRef(1, &m1, 4);
  CHECK(LOGCOUNT("cuMemHostRegister_v2") == 4);
}

static void run_events(void) {
  void *s1 = mgpuStreamCreate(), *s2 = mgpuStreamCreate();
  void *e = mgpuEventCreate();
  CHECK(s1 && s2 && e);
  CHECK(LOGCOUNT("cuEventCreate flags=2") == 1); /* timing disabled */
  mgpuEventRecord(e, s1);
  mgpuStreamWaitEvent(s2, e);
  mgpuEventSynchronize(e);
  char line[128];
  snprintf(line, sizeof line, "cuEventRecord event=%p stream=%p", e, s1);
  CHECK(LOGCOUNT(line) == 1);
  snprintf(line, sizeof line, "cuStreamWaitEvent stream=%p event=%p flags=0", s2, e);
  CHECK(LOGCOUNT(line) == 1);
  CHECK(LOGCOUNT("cuEventSynchronize") == 1);
  mgpuEventDestroy(e);
  mgpuEventDestroy(NULL);
  CHECK(LOGCOUNT("cuEventDestroy_v2") == 1);
  mgpuStreamDestroy(s1);
  mgpuStreamDestroy(s2);
  mgpuStreamDestroy(NULL);
  CHECK(LOGCOUNT("cuStreamDestroy_v2") == 2);
}

static void run_fail_alloc(void) {
  mgpuMemAlloc(1024, NULL, false);
  fprintf(stderr, "continued after a failed allocation\n");
}

static int g_handled;
static char g_message[1024];

static void handler(const char *message, void *user_data) {
  CHECK(user_data == &g_handled);
  g_handled++;
  snprintf(g_message, sizeof g_message, "%s", message);
}

/* With a handler the program decides: the failing call returns NULL. */
static void run_handler(void) {
  gpuccSetErrorHandler(handler, &g_handled);
  CHECK(mgpuMemAlloc(1024, NULL, false) == NULL);
  CHECK(g_handled == 1);
  CHECK(strcmp(g_message, "mgpuMemAlloc: cuMemAlloc_v2 failed: CUDA_ERROR_OUT_OF_MEMORY "
                          "(out of memory) allocating 1024 bytes") == 0);
  /* Other calls still work. */
  void *s = mgpuStreamCreate();
  CHECK(s != NULL);
  mgpuStreamDestroy(s);
  CHECK(g_handled == 1);
  /* Back to the default: print and exit(1). */
  gpuccSetErrorHandler(NULL, NULL);
  mgpuMemAlloc(1024, NULL, false);
  fprintf(stderr, "continued after a failed allocation\n");
}

static void run_missing_kernel(void) {
  void *m = load_kern();
  mgpuModuleGetFunction(m, "missing");
  fprintf(stderr, "continued after a missing kernel\n");
}

/* Unloading at exit when the driver is shutting down is quiet. */
static void run_unload_deinit(void) {
  void *m = load_kern();
  CHECK(mgpuModuleGetFunction(m, "k") != NULL);
  unload_kern(m);
  CHECK(LOGCOUNT("cuModuleUnload -> fail 4") == 1);
}

static void run_unload_error(void) {
  void *m = load_kern();
  CHECK(mgpuModuleGetFunction(m, "k") != NULL);
  unload_kern(m);
  fprintf(stderr, "still running\n");
}

/* Many threads ask for a kernel of the same, not yet loaded, module: the
 * driver is started and the module loaded exactly once. */
#define NTHREADS 16
static pthread_barrier_t g_barrier;
static void *g_module;

static void *thread_main(void *arg) {
  (void)arg;
  pthread_barrier_wait(&g_barrier);
  void *f = mgpuModuleGetFunction(g_module, "k");
  CHECK(f != NULL);
  void *p = mgpuMemAlloc(64, NULL, false);
  CHECK(p != NULL);
  mgpuMemFree(p, NULL);
  return f;
}

static void run_threads(void) {
  g_module = load_kern();
  pthread_t t[NTHREADS];
  pthread_barrier_init(&g_barrier, NULL, NTHREADS);
  for (int i = 0; i < NTHREADS; i++)
    CHECK(pthread_create(&t[i], NULL, thread_main, NULL) == 0);
  void *first = NULL;
  for (int i = 0; i < NTHREADS; i++) {
    void *f;
    CHECK(pthread_join(t[i], &f) == 0);
    CHECK(!first || f == first);
    first = f;
  }
  pthread_barrier_destroy(&g_barrier);
  CHECK(LOGCOUNT("cuInit") == 1);
  CHECK(LOGCOUNT("cuDevicePrimaryCtxRetain") == 1);
  CHECK(LOGCOUNT("cuModuleLoadData image=FAKECUBIN:sm_90") == 1);
  /* Looked up in the driver once; every thread gets the same kernel. */
  CHECK(LOGCOUNT("cuModuleGetFunction name=k") == 1);
  CHECK(LOGCOUNT("cuFuncGetAttribute name=k attr=0") == 1);
  CHECK(LOGCOUNT("cuMemAlloc_v2") == NTHREADS);
  CHECK(LOGCOUNT("no current context") == 0);
  unload_kern(g_module);
}

/* Many threads use the runtime at once, as a multi-threaded host program
 * does: while the shared module is loaded for the first time, each thread
 * also loads a module of its own, then launches on its own stream with its
 * own arguments, fills and copies memory, records and waits on an event.
 * Checked: the driver was started once, each module loaded once, every
 * launch reached the driver once with its own thread's arguments (the log
 * line carries them), and each thread read back its own data. The
 * ThreadSanitizer variant of this scenario (runtime.tsan.cuda.stress) is
 * the data-race check of these paths. */
#define STRESS_THREADS 8
#define STRESS_ROUNDS 6
#define STRESS_WORDS 256

static void *stress_main(void *arg) {
  int id = (int)(intptr_t)arg;
  pthread_barrier_wait(&g_barrier);
  void *own = mgpuModuleLoad(g_blob, g_blob_size);
  void *shared_k = mgpuModuleGetFunction(g_module, "k");
  void *own_k = mgpuModuleGetFunction(own, "k_own");
  void *s = mgpuStreamCreate(), *ev = mgpuEventCreate();
  uint32_t *d = mgpuMemAlloc(STRESS_WORDS * sizeof *d, s, false);
  CHECK(own && shared_k && own_k && s && ev && d);
  for (int r = 0; r < STRESS_ROUNDS; r++) {
    int64_t a = id, b = r;
    void *params[] = {&a, &b};
    mgpuLaunchKernel(r % 2 ? shared_k : own_k, 1 + id, 1, 1, 32, 1, 1, 0, s, params, NULL,
                     2);
    uint32_t value = (uint32_t)(id * 1000 + r);
    mgpuMemset32(d, value, STRESS_WORDS, s);
    mgpuEventRecord(ev, s);
    mgpuStreamWaitEvent(s, ev);
    uint32_t host[STRESS_WORDS];
    mgpuMemcpy(host, d, sizeof host, s);
    mgpuStreamSynchronize(s);
    for (int i = 0; i < STRESS_WORDS; i++)
      CHECK(host[i] == value);
  }
  mgpuMemFree(d, s);
  mgpuEventDestroy(ev);
  mgpuStreamDestroy(s);
  mgpuModuleUnload(own);
  return NULL;
}

static void run_stress(void) {
  g_module = load_kern();
  pthread_t t[STRESS_THREADS];
  pthread_barrier_init(&g_barrier, NULL, STRESS_THREADS);
  for (int i = 0; i < STRESS_THREADS; i++)
    CHECK(pthread_create(&t[i], NULL, stress_main, (void *)(intptr_t)i) == 0);
  for (int i = 0; i < STRESS_THREADS; i++)
    CHECK(pthread_join(t[i], NULL) == 0);
  pthread_barrier_destroy(&g_barrier);
  CHECK(LOGCOUNT("cuInit") == 1);
  CHECK(LOGCOUNT("cuDevicePrimaryCtxRetain") == 1);
  CHECK(LOGCOUNT("cuModuleLoadData image=FAKECUBIN:sm_90") == 1 + STRESS_THREADS);
  CHECK(LOGCOUNT("cuModuleUnload") == STRESS_THREADS);
  /* "name=k" matches k_own too: k once, k_own once per module. */
  CHECK(LOGCOUNT("cuModuleGetFunction name=k") == 1 + STRESS_THREADS);
  CHECK(LOGCOUNT("cuModuleGetFunction name=k_own") == STRESS_THREADS);
  CHECK(LOGCOUNT("cuStreamCreate") == STRESS_THREADS);
  CHECK(LOGCOUNT("cuStreamDestroy_v2") == STRESS_THREADS);
  CHECK(LOGCOUNT("cuEventDestroy_v2") == STRESS_THREADS);
  CHECK(LOGCOUNT("cuMemFree_v2") == STRESS_THREADS);
  CHECK(LOGCOUNT("cuLaunchKernel") == STRESS_THREADS * STRESS_ROUNDS);
  CHECK(LOGCOUNT("cuStreamSynchronize") == STRESS_THREADS * STRESS_ROUNDS);
  CHECK(LOGCOUNT("no current context") == 0);
  for (int id = 0; id < STRESS_THREADS; id++)
    for (int r = 0; r < STRESS_ROUNDS; r++) {
      char line[128];
      snprintf(line, sizeof line, "name=%s grid=%d,1,1 block=32,1,1 smem=0", r % 2 ? "k" : "k_own",
               1 + id);
      char args[32];
      snprintf(args, sizeof args, "args=%d,%d", id, r);
      CHECK(rt_log_count2("FAKE_CUDA_LOG", line, args) == 1);
    }
  unload_kern(g_module);
}

/* The device comes from GPUCC_DEVICE, or from mgpuSetDefaultDevice before
 * the first GPU operation. */
static void run_device_env(void) {
  void *m = load_kern();
  CHECK(mgpuModuleGetFunction(m, "k") != NULL);
  CHECK(LOGCOUNT("cuDeviceGet ordinal=1") == 1);
  unload_kern(m);
}

static void run_set_device(void) {
  void *m = load_kern();
  mgpuSetDefaultDevice(1);
  CHECK(LOGCOUNT("cu") == 0);
  CHECK(mgpuModuleGetFunction(m, "k") != NULL);
  CHECK(LOGCOUNT("cuDeviceGet ordinal=1") == 1);
  mgpuSetDefaultDevice(1); /* the same device: fine */
  mgpuSetDefaultDevice(0); /* another one, too late: an error */
  fprintf(stderr, "continued after switching devices\n");
}

static void run_stream_only(void) {
  void *m = load_kern();
  void *s = mgpuStreamCreate();
  CHECK(s == NULL);
  fprintf(stderr, "continued without a device\n");
  unload_kern(m);
}

/* A driver without a device, nothing forced: the runtime falls back to the
 * host backend after asking CUDA. Streams work there; the kernel lookup
 * fails, since the program carries no host object. */
static void run_no_device(void) {
  void *m = load_kern();
  void *s = mgpuStreamCreate();
  CHECK(s != NULL);
  CHECK(gpuccBackendName() && strcmp(gpuccBackendName(), "host") == 0);
  CHECK(LOGCOUNT("cuInit") == 1);
  CHECK(LOGCOUNT("cuStreamCreate") == 0);
  mgpuStreamDestroy(s);
  fprintf(stderr, "stream created on the host\n");
  mgpuModuleGetFunction(m, "k");
  fprintf(stderr, "continued after the kernel lookup\n");
}

/* GPUCC_BACKEND=host: the CUDA driver is never opened, even with a device. */
static void run_forced_host(void) {
  void *m = load_kern();
  void *s = mgpuStreamCreate();
  CHECK(s != NULL);
  CHECK(gpuccBackendName() && strcmp(gpuccBackendName(), "host") == 0);
  mgpuStreamDestroy(s);
  CHECK(LOGCOUNT("cu") == 0);
  fprintf(stderr, "stream created on the host\n");
  mgpuModuleGetFunction(m, "k");
  fprintf(stderr, "continued after the kernel lookup\n");
}

/* Plain images, as upstream mlir-translate embeds them, go to the driver as
 * they are (PTX with a NUL added). */
static void run_plain(void) {
  unsigned char elf[64] = {0x7f, 'E', 'L', 'F', 2, 1, 1};
  elf[18] = 190; /* EM_CUDA */
  void *m = mgpuModuleLoad(elf, sizeof elf);
  CHECK(mgpuModuleGetFunction(m, "k") != NULL);
  CHECK(LOGCOUNT("cuModuleLoadData image=.ELF") == 1);
  mgpuModuleUnload(m);

  static const char ptx[] = "//\n// Generated by LLVM NVPTX Back-End\n.version 7.8\n.target sm_90\n";
  m = mgpuModuleLoad((void *)ptx, sizeof ptx - 1); /* without the NUL */
  CHECK(mgpuModuleGetFunction(m, "k") != NULL);
  char line[128];
  snprintf(line, sizeof line, "cuModuleLoadDataEx len=%zu opt=-1", strlen(ptx));
  CHECK(LOGCOUNT(line) == 1);
  mgpuModuleUnload(m);
  CHECK(LOGCOUNT("cuModuleUnload") == 2);
}

static void run_plain_wrong_vendor(void) {
  unsigned char elf[64] = {0x7f, 'E', 'L', 'F', 2, 1, 1};
  elf[18] = 224; /* EM_AMDGPU */
  void *m = mgpuModuleLoad(elf, sizeof elf);
  mgpuModuleGetFunction(m, "k");
  fprintf(stderr, "continued after a failed load\n");
}

static void run_jit(void) {
  static const char ptx[] = "//\n.version 7.8\n.target sm_90\n";
  void *m = mgpuModuleLoadJIT((void *)ptx, 3);
  CHECK(LOGCOUNT("cu") == 0);
  CHECK(mgpuModuleGetFunction(m, "k") != NULL);
  char line[128];
  snprintf(line, sizeof line, "cuModuleLoadDataEx len=%zu opt=3", strlen(ptx));
  CHECK(LOGCOUNT(line) == 1);
  mgpuModuleUnload(m);
}

static void run_jit_fail(void) {
  static const char ptx[] = "//\n.version 9.9\n.target sm_90\n";
  void *m = mgpuModuleLoadJIT((void *)ptx, 2);
  mgpuModuleGetFunction(m, "k");
  fprintf(stderr, "continued after a failed load\n");
}

static void run_tensor_map(void) {
  float *buf = calloc(64 * 128 + 16, sizeof *buf);
  struct {
    void *allocated, *aligned;
    int64_t offset, sizes[2], strides[2];
  } d = {buf, buf, 0, {64, 128}, {128, 1}};
  int64_t box[2] = {8, 128};
  void *map1 = mgpuTensorMapEncodeTiledMemref(2, &d, 7 /* FLOAT32 */, 0, 3, 2, 0, box);
  void *map2 = mgpuTensorMapEncodeTiledMemref(2, &d, 7, 0, 3, 2, 0, box);
  CHECK(map1 != NULL && map1 == map2); /* the same request, one descriptor */
  char line[256];
  snprintf(line, sizeof line,
           "cuTensorMapEncodeTiled dtype=7 rank=2 addr=%p dims=128,64 strides=512 "
           "box=128,8 estride0=1 interleave=0 swizzle=3 l2=2 oob=0",
           (void *)buf);
  CHECK(LOGCOUNT(line) == 2);
  CHECK(LOGCOUNT("cuMemAlloc_v2 size=128") == 1);
  CHECK(LOGCOUNT("cuMemcpyHtoD_v2") == 1);
  /* A view starting 16 floats in is another descriptor, at its own address. */
  d.offset = 16;
  void *map3 = mgpuTensorMapEncodeTiledMemref(2, &d, 7, 0, 3, 2, 0, box);
  CHECK(map3 != NULL && map3 != map1);
  snprintf(line, sizeof line, "addr=%p", (void *)(buf + 16));
  CHECK(LOGCOUNT(line) == 1);
  /* Rank 6 cannot be described: reported (here to a handler), NULL. */
  gpuccSetErrorHandler(handler, &g_handled);
  CHECK(mgpuTensorMapEncodeTiledMemref(6, &d, 7, 0, 3, 2, 0, box) == NULL);
  CHECK(g_handled == 1 && strstr(g_message, "unsupported request: rank 6") != NULL);
  free(buf);
}

/* ---- kernel faults (FAKE_CUDA_FAIL makes a call return 700, 719...) ---- */

/* stdout, fully buffered, into stderr's pipe: a report that flushed stdout
 * first shows what was printed before it, in order. */
static void stdout_into_stderr(void) {
  static char buf[1 << 16];
  setvbuf(stdout, buf, _IOFBF, sizeof buf);
  CHECK(dup2(2, 1) == 1);
}

static void launch_on(void *f, void *stream) {
  mgpuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, stream, NULL, NULL, 0);
}

/* k on s1, then k2 on s2: the fault at s1's synchronization is k's. */
static void run_fault_sync(void) {
  stdout_into_stderr();
  void *m = load_kern();
  void *k = mgpuModuleGetFunction(m, "k"), *k2 = mgpuModuleGetFunction(m, "k2");
  void *s1 = mgpuStreamCreate(), *s2 = mgpuStreamCreate();
  launch_on(k, s1);
  launch_on(k2, s2);
  printf("printed before the fault\n");
  mgpuStreamSynchronize(s1);
  fprintf(stderr, "continued after a fault\n");
}

/* An event stands for its stream's work when it was recorded: k2's, not
 * the k launched on that stream after it. */
static void run_fault_event(void) {
  void *m = load_kern();
  void *k = mgpuModuleGetFunction(m, "k"), *k2 = mgpuModuleGetFunction(m, "k2");
  void *s = mgpuStreamCreate();
  void *e = mgpuEventCreate();
  launch_on(k2, s);
  mgpuEventRecord(e, s);
  launch_on(k, s);
  mgpuEventSynchronize(e);
  fprintf(stderr, "continued after a fault\n");
}

/* The default stream, a copy. */
static void run_fault_copy(void) {
  void *m = load_kern();
  launch_on(mgpuModuleGetFunction(m, "k2"), NULL);
  int64_t host[4] = {0}, *dev = mgpuMemAlloc(sizeof host, NULL, false);
  mgpuMemcpy(host, dev, sizeof host, NULL);
  fprintf(stderr, "continued after a fault\n");
}

/* No kernel ran: the driver's error as it is. */
static void run_fault_no_kernel(void) {
  void *s = mgpuStreamCreate();
  mgpuStreamSynchronize(s);
  fprintf(stderr, "continued after a failed synchronization\n");
}

/* A handler gets the line without "gpucc: ", and the program goes on. */
static void run_fault_handler(void) {
  gpuccSetErrorHandler(handler, &g_handled);
  void *m = load_kern();
  void *s = mgpuStreamCreate();
  launch_on(mgpuModuleGetFunction(m, "k"), s);
  mgpuStreamSynchronize(s);
  CHECK(g_handled == 1);
  CHECK(strcmp(g_message, "kernel 'k' (module kern): illegal instruction") == 0);
  mgpuStreamDestroy(s);
  unload_kern(m);
}

/* ---- freeing what gpu.alloc did not hand out ---- */

void gpuccOpSite(const char *where); /* what compiled code calls */

static void run_free_twice(void) {
  gpuccSetErrorHandler(handler, &g_handled);
  void *d = mgpuMemAlloc(64, NULL, false);
  mgpuMemFree(d, NULL);
  gpuccOpSite("prog.mlir:12:5");
  mgpuMemFree(d, NULL);
  CHECK(g_handled == 1);
  char want[256];
  snprintf(want, sizeof want,
           "prog.mlir:12:5: gpu.dealloc: %p was not allocated by gpu.alloc or was already freed",
           d);
  CHECK(strcmp(g_message, want) == 0);
  CHECK(LOGCOUNT("cuMemFree_v2") == 1);
  /* The site applies to one call only; other pointers are unaffected. */
  void *a = mgpuMemAlloc(64, NULL, false), *b = mgpuMemAlloc(64, NULL, false);
  mgpuMemFree(b, NULL);
  mgpuMemFree(a, NULL);
  CHECK(g_handled == 1 && LOGCOUNT("cuMemFree_v2") == 3);
  mgpuMemFree(a, NULL);
  snprintf(want, sizeof want, "mgpuMemFree: %p was not allocated by gpu.alloc or was already freed",
           a);
  CHECK(g_handled == 2 && strcmp(g_message, want) == 0);
}

/* Threads allocating and freeing at once, each holding some buffers and
 * freeing them out of order: no false "not allocated" (which would exit 1),
 * and the registry grows and sweeps its tombstones under contention (the
 * ThreadSanitizer variant, runtime.tsan.cuda.alloc.stress, checks its
 * locking). */
#define ALLOC_THREADS 8
#define ALLOC_ROUNDS 50
#define ALLOC_HELD 16

static void *alloc_main(void *arg) {
  (void)arg;
  pthread_barrier_wait(&g_barrier);
  for (int r = 0; r < ALLOC_ROUNDS; r++) {
    void *held[ALLOC_HELD];
    for (int i = 0; i < ALLOC_HELD; i++)
      CHECK((held[i] = mgpuMemAlloc(16 + 16 * (size_t)i, NULL, false)) != NULL);
    for (int i = 0; i < ALLOC_HELD; i++)
      mgpuMemFree(held[(i * 7 + r) % ALLOC_HELD], NULL);
  }
  return NULL;
}

static void run_alloc_stress(void) {
  pthread_t t[ALLOC_THREADS];
  pthread_barrier_init(&g_barrier, NULL, ALLOC_THREADS);
  for (int i = 0; i < ALLOC_THREADS; i++)
    CHECK(pthread_create(&t[i], NULL, alloc_main, NULL) == 0);
  for (int i = 0; i < ALLOC_THREADS; i++)
    CHECK(pthread_join(t[i], NULL) == 0);
  pthread_barrier_destroy(&g_barrier);
  CHECK(LOGCOUNT("cuMemFree_v2") == ALLOC_THREADS * ALLOC_ROUNDS * ALLOC_HELD);
}

static void run_free_foreign(void) {
  char host[64];
  mgpuMemFree(host, NULL);
  fprintf(stderr, "continued after a bad free\n");
}

static void run_log(void) {
  void *m = load_kern();
  CHECK(mgpuModuleGetFunction(m, "k") != NULL);
  unload_kern(m);
}

static const struct rt_test tests[] = {
    {"select", run_select, 0, {0}, {"gpucc"}, 0},
    {"select_ptx", run_select_ptx, 0, {0}, {"gpucc"}, 0},
    {"select_none",
     run_select_none,
     1,
     {"gpucc: runtime error: mgpuModuleGetFunction: no code for device 0 'Fake GPU' (sm_75) "
      "in module 'kern', which carries code for: sm_80 sm_90 gfx90a; rebuild with "
      "--offload-arch=sm_75\n"},
     {"continued"},
     0},
    {"lazy", run_lazy, 0, {0}, {"gpucc"}, 0},
    {"launch", run_launch, 0, {0}, {"gpucc"}, 0},
    {"cluster", run_cluster, 0, {0}, {"gpucc"}, 0},
    {"bad_launch_size",
     run_bad_launch_size,
     1,
     {"gpucc: runtime error: mgpuLaunchKernel: invalid launch size: grid (-1, 1, 1)"},
     {"continued"},
     0},
    {"smem_too_big",
     run_smem_too_big,
     1,
     {"gpucc: runtime error: mgpuLaunchKernel: kernel 'k' launched with 300000 bytes of "
      "dynamic shared memory, more than the 232448 bytes a block can have (sm_90)\n"},
     {"continued", "cuLaunchKernel"},
     0},
    {"limit_manifest", run_limit_manifest, 0, {0}, {"gpucc", "refused with"}, 0},
    {"limit_driver", run_limit_driver, 0, {0}, {"gpucc", "refused with"}, 0},
    {"limit_exit",
     run_limit_exit,
     1,
     {"gpucc: runtime error: mgpuLaunchKernel: kernel 'k' launched with 1024 threads per "
      "block; it was compiled for at most 128 (sm_90)\n"},
     {"continued"},
     0},
    {"fail_launch",
     run_fail_launch,
     1,
     {"gpucc: runtime error: mgpuLaunchKernel: cuLaunchKernel failed: CUDA_ERROR_LAUNCH_FAILED "
      "(unspecified launch failure) launching grid (1, 1, 1), block (32, 1, 1)\n"},
     {"continued"},
     0},
    {"memory", run_memory, 0, {0}, {"gpucc"}, 0},
    {"events", run_events, 0, {0}, {"gpucc"}, 0},
    {"fail_alloc",
     run_fail_alloc,
     1,
     {"gpucc: runtime error: mgpuMemAlloc: cuMemAlloc_v2 failed: CUDA_ERROR_OUT_OF_MEMORY "
      "(out of memory) allocating 1024 bytes\n"},
     {"continued"},
     0},
    {"handler",
     run_handler,
     1,
     {"gpucc: runtime error: mgpuMemAlloc: cuMemAlloc_v2 failed: CUDA_ERROR_OUT_OF_MEMORY"},
     {"continued", "CHECK"},
     0},
    {"missing_kernel",
     run_missing_kernel,
     1,
     {"gpucc: runtime error: mgpuModuleGetFunction: cuModuleGetFunction failed: "
      "CUDA_ERROR_NOT_FOUND (named symbol not found) for kernel 'missing' of module 'kern'"},
     {"continued"},
     0},
    {"unload_deinit", run_unload_deinit, 0, {0}, {"gpucc"}, 0},
    {"unload_error",
     run_unload_error,
     0,
     {"gpucc: runtime warning: mgpuModuleUnload: cuModuleUnload failed: "
      "CUDA_ERROR_INVALID_VALUE (invalid argument)",
      "still running"},
     {"runtime error"},
     0},
    {"threads", run_threads, 0, {0}, {"gpucc"}, 0},
    {"stress", run_stress, 0, {0}, {"gpucc"}, 0},
    {"device_env", run_device_env, 0, {0}, {"gpucc"}, 0},
    {"device_env_bad",
     run_stream_only,
     1,
     {"gpucc: runtime error: no GPU found (CUDA: device 5 requested but 2 found; HIP: "},
     {"continued"},
     0},
    {"set_device",
     run_set_device,
     1,
     {"gpucc: runtime error: mgpuSetDefaultDevice: device 0 requested, but the program "
      "already runs on device 1 ('Fake GPU')"},
     {"continued"},
     0},
    {"no_device",
     run_no_device,
     1,
     {"stream created on the host\ngpucc: runtime error: mgpuModuleGetFunction: no code for "
      "device 0 'CPU (",
      " cores)' (host) in module 'kern', which carries code for: sm_80 sm_90 gfx90a; rebuild "
      "with --offload-arch=host (no GPU found: CUDA: no device; HIP: /nonexistent not found "
      "(from GPUCC_HIP_LIBRARY))\n"},
     {"continued"},
     0},
    {"no_device_forced",
     run_stream_only,
     1,
     {"gpucc: runtime error: no GPU found (CUDA: no device; other backends not tried: "
      "GPUCC_BACKEND=cuda); this program carries code for: sm_80 sm_90 gfx90a\n"},
     {"continued", "host"},
     0},
    {"forced_hip",
     run_stream_only,
     1,
     {"gpucc: runtime error: no GPU found (HIP: /nonexistent not found (from "
      "GPUCC_HIP_LIBRARY); other backends not tried: GPUCC_BACKEND=hip)"},
     {"fake_cuda", "continued"},
     0},
    {"forced_bogus",
     run_stream_only,
     1,
     {"gpucc: runtime error: GPUCC_BACKEND='bogus' is not a backend (known: cuda, hip, vulkan, "
      "host)"},
     {"continued"},
     0},
    {"forced_host",
     run_forced_host,
     1,
     {"stream created on the host\ngpucc: runtime error: mgpuModuleGetFunction: no code for "
      "device 0 'CPU (",
      " cores)' (host) in module 'kern', which carries code for: sm_80 sm_90 gfx90a; rebuild "
      "with --offload-arch=host\n"},
     {"continued"},
     0},
    {"plain", run_plain, 0, {0}, {"gpucc"}, 0},
    {"plain_wrong_vendor",
     run_plain_wrong_vendor,
     1,
     {"gpucc: runtime error: mgpuModuleGetFunction: the module holds code for AMD GPUs (AMD "
      "code object), but device 0 'Fake GPU' (sm_90) is an NVIDIA GPU; rebuild with "
      "--offload-arch=sm_90\n"},
     {"continued"},
     0},
    {"jit", run_jit, 0, {0}, {"gpucc"}, 0},
    {"jit_fail",
     run_jit_fail,
     1,
     {"gpucc: runtime error: mgpuModuleGetFunction: cuModuleLoadDataEx failed: "
      "CUDA_ERROR_INVALID_PTX (a PTX JIT compilation failed) for the module's assembly: "
      "ptxas fatal: fake JIT error at line 1"},
     {"continued"},
     0},
    {"tensor_map", run_tensor_map, 0, {0}, {"gpucc"}, 0},
    {"fault_sync",
     run_fault_sync,
     1,
     {"printed before the fault\ngpucc: kernel 'k' (module kern): illegal memory access\n"},
     {"continued", "runtime error", "k2"},
     0},
    {"fault_event",
     run_fault_event,
     1,
     {"gpucc: kernel 'k2' (module kern): misaligned memory access\n"},
     {"continued", "runtime error"},
     0},
    {"fault_copy",
     run_fault_copy,
     1,
     {"gpucc: kernel 'k2' (module kern): trap or unspecified fault\n"},
     {"continued", "runtime error"},
     0},
    {"fault_no_kernel",
     run_fault_no_kernel,
     1,
     {"gpucc: runtime error: mgpuStreamSynchronize: cuStreamSynchronize failed: "
      "CUDA_ERROR_ILLEGAL_ADDRESS (an illegal memory access was encountered)"},
     {"continued", "gpucc: kernel"},
     0},
    {"fault_handler", run_fault_handler, 0, {0}, {"gpucc", "CHECK"}, 0},
    {"free_twice", run_free_twice, 0, {0}, {"gpucc", "CHECK"}, 0},
    {"alloc_stress", run_alloc_stress, 0, {0}, {"gpucc"}, 0},
    {"free_foreign",
     run_free_foreign,
     1,
     {"gpucc: runtime error: mgpuMemFree: 0x",
      " was not allocated by gpu.alloc or was already freed\n"},
     {"continued", "cuMemFree"},
     0},
    {"log",
     run_log,
     0,
     {"gpucc: log: loaded ",
      "gpucc: log: cuda: device 0 of 1: 'Fake GPU', compute capability 9.0 (sm_90)",
      "gpucc: log: using backend cuda, device 0 'Fake GPU' (sm_90)",
      "gpucc: log: module 'kern' (carries sm_80 sm_90 gfx90a) on sm_90: chose sm_90 cubin: "
      "exact match for compute capability 9.0"},
     {"runtime error"},
     0},
};

int main(int argc, char **argv) {
  return rt_test_main(argc, argv, tests, sizeof tests / sizeof tests[0]);
}
