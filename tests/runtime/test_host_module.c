/* test_host_module.c: the host backend through the mgpu* functions, on a
 * machine without GPU driver, with a real `host` object (host_fixture.c,
 * whose path CMakeLists.txt passes in RT_HOST_FIXTURE).
 *
 * Checks what only the whole path shows: the host object is picked from the
 * fat binary, loaded from memory, its kernels found (and cached); a launch
 * runs the block entry when there is one, passes the parameters and dynamic
 * workgroup memory; memory operations work on plain host memory; and the
 * failures (a kernel that is not there, an object of another ABI version, a
 * block over 1024 threads) stop the program with one clear line. */
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include "gpucc_rt.h"
#include "harness.h"

/* A fat binary with an NVIDIA object (ignored on the CPU) and the host
 * object read from the file named by the variable env. */
static void *load_module(const char *env, void **blob) {
  const char *path = getenv(env);
  CHECK(path && *path);
  FILE *f = fopen(path, "rb");
  CHECK(f);
  CHECK(fseek(f, 0, SEEK_END) == 0);
  long size = ftell(f);
  CHECK(size > 0);
  rewind(f);
  char *so = malloc((size_t)size);
  CHECK(so && fread(so, 1, (size_t)size, f) == (size_t)size);
  fclose(f);
  static const char cubin[] = "FAKECUBIN:sm_80";
  const struct fatbin_entry e[] = {
      {"kern", FATBIN_VENDOR_NVIDIA, "sm_80", FATBIN_FORMAT_CUBIN, cubin, sizeof cubin, NULL},
      {"kern", FATBIN_VENDOR_HOST, "host", FATBIN_FORMAT_SO, so, (size_t)size, NULL},
  };
  size_t blob_size;
  *blob = rt_make_blob(e, 2, &blob_size);
  free(so);
  void *m = mgpuModuleLoad(*blob, blob_size);
  CHECK(m != NULL);
  return m;
}

/* Launches fill(out, base, &calls) and checks every element. Returns the
 * number of block-entry calls. */
static int fill(void *f, intptr_t gx, intptr_t gy, intptr_t gz, intptr_t bx, intptr_t by,
                intptr_t bz, int base, int offset) {
  size_t n = (size_t)(gx * gy * gz * bx * by * bz);
  int *out = mgpuMemAlloc(n * sizeof *out, NULL, false);
  CHECK(out != NULL);
  int calls = 0, *pcalls = &calls;
  void *params[] = {&out, &base, &pcalls};
  mgpuLaunchKernel(f, gx, gy, gz, bx, by, bz, 0, NULL, params, NULL, 3);
  for (size_t i = 0; i < n; i++)
    CHECK(out[i] == base + offset + (int)i);
  mgpuMemFree(out, NULL);
  return calls;
}

static void run_launch(void) {
  void *blob;
  void *m = load_module("RT_HOST_FIXTURE", &blob);
  CHECK(gpuccBackendName() == NULL); /* loading a module starts nothing */
  void *f = mgpuModuleGetFunction(m, "fill");
  CHECK(f != NULL);
  CHECK(gpuccBackendName() && strcmp(gpuccBackendName(), "host") == 0);
  CHECK(mgpuModuleGetFunction(m, "fill") == f); /* looked up once */
  /* fill has a block entry: one call per block, none per thread. */
  CHECK(fill(f, 3, 2, 2, 4, 3, 2, 1000, 0) == 12);
  CHECK(fill(f, 1, 1, 1, 1024, 1, 1, -5, 0) == 1);

  /* rotate synchronizes, so it runs on the thread entry, with the launch's
   * dynamic workgroup memory after the object's 16 static bytes. */
  void *r = mgpuModuleGetFunction(m, "rotate");
  CHECK(r != NULL && r != f);
  int *out = mgpuMemAlloc(2 * 15 * sizeof *out, NULL, false);
  void *params[] = {&out};
  mgpuLaunchKernel(r, 2, 1, 1, 5, 3, 1, 15 * sizeof(int), NULL, params, NULL, 1);
  for (int i = 0; i < 30; i++)
    CHECK(out[i] == (i % 15 + 1) % 15);
  mgpuMemFree(out, NULL);
  mgpuModuleUnload(m);
  free(blob);
}

/* Streams, events and memory need no module, and complete at once. */
static void run_memory(void) {
  void *s = mgpuStreamCreate(), *e = mgpuEventCreate();
  CHECK(s && e && s != e);
  CHECK(gpuccBackendName() && strcmp(gpuccBackendName(), "host") == 0);
  uint32_t *a = mgpuMemAlloc(1000, s, false);
  uint16_t *b = mgpuMemAlloc(64, s, true);
  CHECK(a && b && a != (void *)b);
  CHECK((uintptr_t)a % 256 == 0 && (uintptr_t)b % 256 == 0);
  mgpuMemset32(a, 0xdeadbeefu, 250, s);
  mgpuMemset16(b, 0x1234, 32, s);
  mgpuEventRecord(e, s);
  mgpuStreamWaitEvent(s, e);
  mgpuEventSynchronize(e);
  for (int i = 0; i < 250; i++)
    CHECK(a[i] == 0xdeadbeefu);
  for (int i = 0; i < 32; i++)
    CHECK(b[i] == 0x1234);
  mgpuMemcpy(a + 10, b, 64, s); /* device to device */
  mgpuStreamSynchronize(s);
  CHECK(a[9] == 0xdeadbeefu && a[10] == 0x12341234u && a[25] == 0x12341234u &&
        a[26] == 0xdeadbeefu);
  CHECK(mgpuMemAlloc(0, s, false) == NULL);
  mgpuMemHostRegister(a, 1000);
  mgpuMemHostUnregister(a);
  mgpuMemFree(a, s);
  mgpuMemFree(b, s);
  mgpuEventDestroy(e);
  mgpuStreamDestroy(s);
}

/* Two host objects loaded at once, one unloaded and another loaded in its
 * place: each module runs its own object's code. */
static void run_two_modules(void) {
  void *blob_a, *blob_b, *blob_c;
  void *a = load_module("RT_HOST_FIXTURE", &blob_a);
  void *b = load_module("RT_HOST_FIXTURE_B", &blob_b);
  void *fa = mgpuModuleGetFunction(a, "fill"), *fb = mgpuModuleGetFunction(b, "fill");
  CHECK(fa && fb && fa != fb);
  fill(fa, 2, 1, 1, 8, 1, 1, 0, 0);
  fill(fb, 2, 1, 1, 8, 1, 1, 0, 1000000);
  mgpuModuleUnload(a);
  free(blob_a);
  void *c = load_module("RT_HOST_FIXTURE_B", &blob_c);
  void *fc = mgpuModuleGetFunction(c, "fill");
  CHECK(fc != NULL);
  fill(fc, 2, 1, 1, 8, 1, 1, 7, 1000000);
  a = load_module("RT_HOST_FIXTURE", &blob_a);
  fa = mgpuModuleGetFunction(a, "fill");
  fill(fa, 2, 1, 1, 8, 1, 1, 7, 0);
  fill(fb, 1, 1, 1, 8, 1, 1, 3, 1000000);
  mgpuModuleUnload(a);
  mgpuModuleUnload(b);
  mgpuModuleUnload(c);
  free(blob_a);
  free(blob_b);
  free(blob_c);
}

/* Host threads launching at once: the runtime starts once, the shared
 * module is loaded once while each thread also loads a module of its own,
 * and launches from several threads share the worker pool one at a time
 * (host_exec.c serializes them), each seeing its own results. */
#define NTHREADS 6
static pthread_barrier_t g_barrier;
static void *g_shared;

static void *threads_main(void *arg) {
  int id = (int)(intptr_t)arg;
  pthread_barrier_wait(&g_barrier);
  void *blob;
  void *own = load_module("RT_HOST_FIXTURE_B", &blob);
  void *f = mgpuModuleGetFunction(g_shared, "fill");
  void *fo = mgpuModuleGetFunction(own, "fill");
  void *r = mgpuModuleGetFunction(g_shared, "rotate");
  CHECK(f && fo && r && f != fo);
  for (int round = 0; round < 4; round++) {
    CHECK(fill(f, 3, 2, 1, 16, 2, 1, id * 100 + round, 0) == 6);
    CHECK(fill(fo, 2, 1, 1, 8, 1, 1, id, 1000000) == 2);
    int *out = mgpuMemAlloc(2 * 40 * sizeof *out, NULL, false);
    void *params[] = {&out};
    mgpuLaunchKernel(r, 2, 1, 1, 40, 1, 1, 40 * sizeof(int), NULL, params, NULL, 1);
    for (int i = 0; i < 80; i++)
      CHECK(out[i] == (i % 40 + 1) % 40);
    mgpuMemFree(out, NULL);
  }
  mgpuModuleUnload(own);
  free(blob);
  return NULL;
}

static void run_threads(void) {
  void *blob;
  g_shared = load_module("RT_HOST_FIXTURE", &blob);
  pthread_t t[NTHREADS];
  pthread_barrier_init(&g_barrier, NULL, NTHREADS);
  for (int i = 0; i < NTHREADS; i++)
    CHECK(pthread_create(&t[i], NULL, threads_main, (void *)(intptr_t)i) == 0);
  for (int i = 0; i < NTHREADS; i++)
    CHECK(pthread_join(t[i], NULL) == 0);
  pthread_barrier_destroy(&g_barrier);
  CHECK(gpuccBackendName() && strcmp(gpuccBackendName(), "host") == 0);
  mgpuModuleUnload(g_shared);
  free(blob);
}

static void run_zero_grid(void) {
  void *blob;
  void *m = load_module("RT_HOST_FIXTURE", &blob);
  void *f = mgpuModuleGetFunction(m, "fill");
  int out[4] = {-1, -1, -1, -1}, base = 0, calls = 0, *pout = out, *pcalls = &calls;
  void *params[] = {&pout, &base, &pcalls};
  mgpuLaunchKernel(f, 0, 1, 1, 4, 1, 1, 0, NULL, params, NULL, 3);
  mgpuLaunchKernel(f, 1, 1, 1, 4, 0, 1, 0, NULL, params, NULL, 3);
  CHECK(calls == 0 && out[0] == -1 && out[3] == -1);
  mgpuModuleUnload(m);
  free(blob);
}

static void run_too_many_threads(void) {
  void *blob;
  void *m = load_module("RT_HOST_FIXTURE", &blob);
  void *f = mgpuModuleGetFunction(m, "fill");
  int out[1], base = 0, calls = 0, *pout = out, *pcalls = &calls;
  void *params[] = {&pout, &base, &pcalls};
  mgpuLaunchKernel(f, 1, 1, 1, 1025, 1, 1, 0, NULL, params, NULL, 3);
  fprintf(stderr, "continued after the launch\n");
}

static void run_missing_kernel(void) {
  void *blob;
  void *m = load_module("RT_HOST_FIXTURE", &blob);
  mgpuModuleGetFunction(m, "nope");
  fprintf(stderr, "continued after the lookup\n");
}

static void run_abi_mismatch(void) {
  void *blob;
  void *m = load_module("RT_HOST_FIXTURE_ABI99", &blob);
  mgpuModuleGetFunction(m, "fill");
  fprintf(stderr, "continued after the load\n");
}

static void run_log(void) {
  void *blob;
  void *m = load_module("RT_HOST_FIXTURE", &blob);
  CHECK(mgpuModuleGetFunction(m, "fill") != NULL);
  mgpuModuleUnload(m);
  free(blob);
}

static const struct rt_test tests[] = {
    {"launch", run_launch, 0, {0}, {"gpucc"}, 0},
    {"memory", run_memory, 0, {0}, {"gpucc"}, 0},
    {"two_modules", run_two_modules, 0, {0}, {"gpucc"}, 0},
    {"threads", run_threads, 0, {0}, {"gpucc"}, 0},
    {"zero_grid", run_zero_grid, 0, {0}, {"gpucc"}, 0},
    {"too_many_threads",
     run_too_many_threads,
     1,
     {"gpucc: runtime error: mgpuLaunchKernel: cannot run kernel 'fill' on the CPU: 1025 "
      "threads per block; the limit is 1024\n"},
     {"continued"},
     0},
    {"missing_kernel",
     run_missing_kernel,
     1,
     {"gpucc: runtime error: mgpuModuleGetFunction: no kernel named 'nope' in the host "
      "object\n"},
     {"continued"},
     0},
    {"abi_mismatch",
     run_abi_mismatch,
     1,
     {"gpucc: runtime error: mgpuModuleGetFunction: host object has ABI version 99, this "
      "runtime needs 1 (rebuild the program)\n"},
     {"continued"},
     0},
    {"log",
     run_log,
     0,
     {"gpucc: log: cuda: /nonexistent not found (from GPUCC_CUDA_LIBRARY)\n",
      "gpucc: log: using backend host, device 0 'CPU (",
      "gpucc: log: module 'kern' (carries sm_80 host) on host: chose host shared object\n"},
     {"runtime error"},
     0},
};

int main(int argc, char **argv) {
  return rt_test_main(argc, argv, tests, sizeof tests / sizeof tests[0]);
}
