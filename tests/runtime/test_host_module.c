/* test_host_module.c: the host backend through the mgpu* functions, on a
 * machine without GPU driver, with a real `host` object (host_fixture.c,
 * whose path CMakeLists.txt passes in RT_HOST_FIXTURE).
 *
 * Checks what only the whole path shows: the host object is picked from the
 * fat binary, loaded from memory, its kernels found (and cached); a launch
 * runs the block entry when there is one, passes the parameters and dynamic
 * workgroup memory; memory operations work on plain host memory; and the
 * failures (a kernel that is not there, an object of another ABI version, a
 * block over 1024 threads) stop the program with one clear line; launches
 * are held to what the GPU targets the fat binary carries would accept
 * (the limit_* scenarios), or the GPUs' common limits without any.
 *
 * Streams (the stream_* scenarios): two kernels on two streams that wait for
 * each other both finish; a stream runs its operations in order; an event
 * orders one stream after another, also once destroyed (MLIR's lowering of
 * gpu.wait destroys it right after the wait is queued); a queued launch
 * keeps its own copy of the arguments; a failed assertion in a queued
 * kernel is reported at the next synchronization; freeing memory waits for
 * the work in flight; many host threads use streams at once. */
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "gpucc_rt.h"
#include "harness.h"

/* The bytes of the file named by the variable env; free() them. */
static char *read_object(const char *env, size_t *size) {
  const char *path = getenv(env);
  CHECK(path && *path);
  FILE *f = fopen(path, "rb");
  CHECK(f);
  CHECK(fseek(f, 0, SEEK_END) == 0);
  long n = ftell(f);
  CHECK(n > 0);
  rewind(f);
  char *so = malloc((size_t)n);
  CHECK(so && fread(so, 1, (size_t)n, f) == (size_t)n);
  fclose(f);
  *size = (size_t)n;
  return so;
}

/* A fat binary with the GPU objects named in `gpus` ("sm_80 sm_80.ptx
 * gfx942": cubins, PTX and code objects not run on the CPU, but what
 * launches are held to), the host object of the variable env, and the
 * kernel lines given. */
static void *load_module_for(const char *env, const char *gpus,
                             const struct fatbin_kernel *kernels, size_t nkernels,
                             void **blob) {
  static const char gpu_object[] = "FAKE GPU OBJECT";
  struct fatbin_entry e[8];
  char names[8][16];
  size_t n = 0, size;
  for (const char *g = gpus; *g && n < 7; n++) {
    size_t len = strcspn(g, " "), target = strcspn(g, " .");
    snprintf(names[n], sizeof names[n], "%.*s", (int)target, g);
    int nv = strncmp(g, "sm_", 3) == 0, ptx = target < len;
    e[n] = (struct fatbin_entry){"kern", nv ? FATBIN_VENDOR_NVIDIA : FATBIN_VENDOR_AMD,
                                 names[n],
                                 ptx ? FATBIN_FORMAT_PTX
                                 : nv ? FATBIN_FORMAT_CUBIN
                                      : FATBIN_FORMAT_HSACO,
                                 gpu_object, sizeof gpu_object, NULL};
    g += len + (g[len] == ' ');
  }
  char *so = read_object(env, &size);
  e[n++] = (struct fatbin_entry){"kern", FATBIN_VENDOR_HOST, "host", FATBIN_FORMAT_SO, so, size,
                                 NULL};
  size_t blob_size;
  *blob = rt_make_blob_kernels(e, n, kernels, nkernels, &blob_size);
  free(so);
  void *m = mgpuModuleLoad(*blob, blob_size);
  CHECK(m != NULL);
  return m;
}

/* A fat binary with an NVIDIA object (ignored on the CPU) and the host
 * object read from the file named by the variable env. */
static void *load_module(const char *env, void **blob) {
  return load_module_for(env, "sm_80", NULL, 0, blob);
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
 * and launches from several threads share the worker pool at once, each
 * seeing its own results. */
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

/* ---- launch limits: the CPU refuses what the program's GPUs would ---- */

static int g_refused;
static char g_refusal[4096];

static void refusal_handler(const char *message, void *user_data) {
  (void)user_data;
  g_refused++;
  snprintf(g_refusal, sizeof g_refusal, "%s", message);
}

/* Launches fill with a handler installed; 1 when it was refused with
 * exactly `want` and ran no thread, or (want NULL) when it ran them all. */
static int refuses(void *f, intptr_t gx, intptr_t gy, intptr_t gz, intptr_t bx, intptr_t by,
                   intptr_t bz, int32_t smem, void *stream, const char *want) {
  size_t n = (size_t)(gx * gy * gz * bx * by * bz);
  int *out = calloc(n ? n : 1, sizeof *out), base = 1, calls = 0, *pcalls = &calls;
  CHECK(out);
  void *params[] = {&out, &base, &pcalls};
  int refused = g_refused;
  gpuccSetErrorHandler(refusal_handler, NULL);
  mgpuLaunchKernel(f, gx, gy, gz, bx, by, bz, smem, stream, params, NULL, 3);
  gpuccSetErrorHandler(NULL, NULL);
  if (stream)
    mgpuStreamSynchronize(stream);
  int now = g_refused > refused, ran = 0;
  for (size_t i = 0; i < n; i++)
    ran += out[i] == base + (int)i;
  free(out);
  if (now && want && strcmp(g_refusal, want) != 0)
    fprintf(stderr, "refused with '%s'\nnot      '%s'\n", g_refusal, want);
  return want ? now && strcmp(g_refusal, want) == 0 && ran == 0 && calls == 0
              : !now && ran == (int)n;
}

/* known_block_size (256, 1, 1) on every target: the CPU holds launches to
 * it, naming each GPU target once (the sm_90 cubin and PTX are one), also
 * for a launch queued on a stream. */
static void run_limit_shape(void) {
  static const struct fatbin_kernel k[] = {{"kern", "fill", NULL, 256, {256, 1, 1}, 0}};
  void *blob;
  void *m = load_module_for("RT_HOST_FIXTURE", "sm_90 sm_90.ptx gfx942", k, 1, &blob);
  void *f = mgpuModuleGetFunction(m, "fill");
  CHECK(f != NULL);
  CHECK(refuses(f, 2, 1, 1, 256, 1, 1, 0, NULL, NULL));
  CHECK(refuses(f, 1, 1, 1, 1024, 1, 1, 0, NULL,
                "mgpuLaunchKernel: kernel 'fill' launched with 1024 threads per block; it was "
                "compiled for at most 256 (sm_90, gfx942)"));
  CHECK(refuses(f, 1, 1, 1, 128, 2, 1, 0, NULL,
                "mgpuLaunchKernel: kernel 'fill' launched with block (128, 2, 1); it was "
                "compiled for block (256, 1, 1) only (sm_90, gfx942)"));
  void *s = mgpuStreamCreate();
  CHECK(refuses(f, 1, 1, 1, 64, 1, 1, 0, s,
                "mgpuLaunchKernel: kernel 'fill' launched with block (64, 1, 1); it was "
                "compiled for block (256, 1, 1) only (sm_90, gfx942)"));
  CHECK(refuses(f, 1, 1, 1, 256, 1, 1, 0, s, NULL));
  mgpuStreamDestroy(s);
  mgpuModuleUnload(m);
  free(blob);
}

/* A target's own line wins over the module's, for that target alone. */
static void run_limit_target_line(void) {
  static const struct fatbin_kernel k[] = {{"kern", "fill", NULL, 1024, {0, 0, 0}, 0},
                                           {"kern", "fill", "gfx942", 64, {0, 0, 0}, 0}};
  void *blob;
  void *m = load_module_for("RT_HOST_FIXTURE", "sm_90 gfx942", k, 2, &blob);
  void *f = mgpuModuleGetFunction(m, "fill");
  CHECK(refuses(f, 1, 1, 1, 8, 8, 1, 0, NULL, NULL));
  CHECK(refuses(f, 1, 1, 1, 8, 16, 1, 0, NULL,
                "mgpuLaunchKernel: kernel 'fill' launched with 128 threads per block; it was "
                "compiled for at most 64 (gfx942)"));
  mgpuModuleUnload(m);
  free(blob);
}

/* Shared memory as each chip has it: 64 KiB on sm_75 and gfx90a, 227 KiB
 * on sm_90; the kernel's 4096 static bytes count. The message names the
 * targets that refuse with the first one's limit. */
static void run_limit_shared(void) {
  static const struct fatbin_kernel k[] = {{"kern", "fill", NULL, 1024, {0, 0, 0}, 4096}};
  void *blob;
  void *m = load_module_for("RT_HOST_FIXTURE", "sm_75 sm_90 gfx90a", k, 1, &blob);
  void *f = mgpuModuleGetFunction(m, "fill");
  CHECK(refuses(f, 1, 1, 1, 32, 1, 1, 61440, NULL, NULL));
  CHECK(refuses(f, 1, 1, 1, 32, 1, 1, 61441, NULL,
                "mgpuLaunchKernel: kernel 'fill' launched with 61441 bytes of dynamic shared "
                "memory; with its 4096 static bytes that is 65537, more than the 65536 bytes "
                "a block can have (sm_75, gfx90a)"));
  mgpuModuleUnload(m);
  free(blob);
}

/* Built for the host alone: its own line, and the limits every GPU has. */
static void run_limit_host_only(void) {
  static const struct fatbin_kernel k[] = {{"kern", "fill", NULL, 256, {0, 0, 0}, 0}};
  void *blob;
  void *m = load_module_for("RT_HOST_FIXTURE", "", k, 1, &blob);
  void *f = mgpuModuleGetFunction(m, "fill");
  CHECK(refuses(f, 1, 1, 1, 256, 1, 1, 0, NULL, NULL));
  CHECK(refuses(f, 1, 1, 1, 512, 1, 1, 0, NULL,
                "mgpuLaunchKernel: kernel 'fill' launched with 512 threads per block; it was "
                "compiled for at most 256 (host)"));
  CHECK(refuses(f, 1, 1, 1, 1, 1, 128, 0, NULL,
                "mgpuLaunchKernel: kernel 'fill' launched with block (1, 1, 128); a block is "
                "at most (1024, 1024, 64) (host)"));
  CHECK(refuses(f, 1, 1, 65536, 1, 1, 1, 0, NULL,
                "mgpuLaunchKernel: kernel 'fill' launched with grid (1, 1, 65536); a grid is "
                "at most (2147483647, 65535, 65535) blocks (host)"));
  mgpuModuleUnload(m);
  free(blob);
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

/* ---- streams ---- */

static void pause_ms(long ms) {
  struct timespec ts = {0, ms * 1000000L};
  nanosleep(&ts, NULL);
}

static void launch1(void *f, void *stream, void **params, size_t n) {
  mgpuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, stream, params, NULL, n);
}

/* upstream's concurrent-kernels pattern: the first kernel only finishes
 * once the second has run. */
static void run_stream_overlap(void) {
  void *blob;
  void *m = load_module("RT_HOST_FIXTURE", &blob);
  void *wait = mgpuModuleGetFunction(m, "wait_flag"), *set = mgpuModuleGetFunction(m, "set_flag");
  int *flag = mgpuMemAlloc(2 * sizeof(int), NULL, true), *seen = flag + 1;
  *flag = 0, *seen = 0;
  void *s0 = mgpuStreamCreate(), *s1 = mgpuStreamCreate();
  int value = 5;
  void *wp[] = {&flag, &seen}, *sp[] = {&flag, &value};
  launch1(wait, s0, wp, 2);
  launch1(set, s1, sp, 2);
  mgpuStreamSynchronize(s0);
  mgpuStreamSynchronize(s1);
  CHECK(*seen == 5);
  /* Twice the other way round: the synchronizing thread runs nothing that
   * blocks the other stream. */
  *flag = 0;
  launch1(wait, s1, wp, 2);
  launch1(set, s0, sp, 2);
  mgpuStreamSynchronize(s1);
  mgpuStreamDestroy(s0);
  mgpuStreamDestroy(s1);
  CHECK(*seen == 5);
  mgpuMemFree(flag, NULL);
  mgpuModuleUnload(m);
  free(blob);
}

/* One stream: launches, copies and fills run in the order they were
 * queued, the arguments as they were at the launch. */
static void run_stream_order(void) {
  void *blob;
  void *m = load_module("RT_HOST_FIXTURE", &blob);
  void *append = mgpuModuleGetFunction(m, "append");
  int *log = mgpuMemAlloc(128 * sizeof(int), NULL, false), *copy = mgpuMemAlloc(128 * sizeof(int), NULL, false);
  void *s = mgpuStreamCreate();
  mgpuMemset32(log, 0, 128, s);
  int value;
  void *params[] = {&log, &value};
  for (value = 1; value <= 60; value++) {
    launch1(append, s, params, 2);
    if (value == 30) /* a snapshot in the middle, then more launches */
      mgpuMemcpy(copy, log, 128 * sizeof(int), s);
  }
  mgpuStreamSynchronize(s);
  CHECK(log[0] == 60 && copy[0] == 30);
  for (int i = 1; i <= 60; i++)
    CHECK(log[i] == i && (i > 30 || copy[i] == i));
  /* The NULL stream: complete on return. */
  value = 61;
  launch1(append, NULL, params, 2);
  CHECK(log[0] == 61 && log[61] == 61);
  mgpuStreamDestroy(s);
  mgpuMemFree(log, NULL);
  mgpuMemFree(copy, NULL);
  mgpuModuleUnload(m);
  free(blob);
}

/* An event orders the second stream after the first: s2 appends only once
 * s1's kernel, which waits for the host, has finished. */
static void run_stream_events(void) {
  void *blob;
  void *m = load_module("RT_HOST_FIXTURE", &blob);
  void *wait = mgpuModuleGetFunction(m, "wait_flag"), *append = mgpuModuleGetFunction(m, "append");
  int *flag = mgpuMemAlloc(2 * sizeof(int), NULL, true), *seen = flag + 1;
  int *log = mgpuMemAlloc(16 * sizeof(int), NULL, true);
  *flag = 0, *seen = 0;
  memset(log, 0, 16 * sizeof(int));
  void *s1 = mgpuStreamCreate(), *s2 = mgpuStreamCreate();
  void *wp[] = {&flag, &seen};
  int value = 7;
  void *ap[] = {&log, &value};
  launch1(wait, s1, wp, 2);
  void *e = mgpuEventCreate();
  mgpuEventRecord(e, s1);
  mgpuStreamWaitEvent(s2, e);
  mgpuEventDestroy(e);
  launch1(append, s2, ap, 2);
  pause_ms(20);
  CHECK(__atomic_load_n(&log[0], __ATOMIC_ACQUIRE) == 0); /* still held back */
  __atomic_store_n(flag, 3, __ATOMIC_RELEASE);
  mgpuStreamSynchronize(s2);
  CHECK(*seen == 3 && log[0] == 1 && log[1] == 7);
  /* An event never recorded is complete; one recorded on an idle stream
   * too; the host waits for one recorded behind work. */
  void *f = mgpuEventCreate();
  mgpuEventSynchronize(f);
  mgpuStreamWaitEvent(s2, f);
  mgpuEventRecord(f, s1);
  mgpuEventSynchronize(f);
  *flag = 0;
  launch1(wait, s1, wp, 2);
  mgpuEventRecord(f, s1);
  int nine = 9;
  void *sp[] = {&flag, &nine};
  launch1(mgpuModuleGetFunction(m, "set_flag"), s2, sp, 2);
  mgpuEventSynchronize(f);
  CHECK(*seen == 9);
  mgpuEventDestroy(f);
  mgpuStreamDestroy(s1);
  mgpuStreamDestroy(s2);
  mgpuMemFree(flag, NULL);
  mgpuMemFree(log, NULL);
  mgpuModuleUnload(m);
  free(blob);
}

/* A failed assertion in a queued kernel shows at the synchronization. */
static void run_stream_error(void) {
  void *blob;
  void *m = load_module("RT_HOST_FIXTURE", &blob);
  void *check = mgpuModuleGetFunction(m, "check");
  void *s = mgpuStreamCreate();
  int zero = 0;
  void *params[] = {&zero};
  launch1(check, s, params, 1);
  fprintf(stderr, "launched\n");
  mgpuStreamSynchronize(s);
  fprintf(stderr, "continued after the synchronization\n");
}

/* Freeing memory waits for the work in flight, as cuMemFree does. */
static void run_stream_free(void) {
  void *blob;
  void *m = load_module("RT_HOST_FIXTURE", &blob);
  void *f = mgpuModuleGetFunction(m, "fill");
  size_t n = 64 * 256;
  int *out = mgpuMemAlloc(n * sizeof *out, NULL, false), *other = mgpuMemAlloc(64, NULL, false);
  int base = 11, calls = 0, *pcalls = &calls;
  void *params[] = {&out, &base, &pcalls};
  void *s = mgpuStreamCreate();
  for (int i = 0; i < 20; i++)
    mgpuLaunchKernel(f, 64, 1, 1, 256, 1, 1, 0, s, params, NULL, 3);
  mgpuMemFree(other, NULL);
  CHECK(__atomic_load_n(&calls, __ATOMIC_RELAXED) == 20 * 64);
  for (size_t i = 0; i < n; i++)
    CHECK(out[i] == 11 + (int)i);
  mgpuStreamDestroy(s);
  mgpuMemFree(out, NULL);
  mgpuModuleUnload(m);
  free(blob);
}

/* Host threads, each with streams of its own and one shared event chain. */
static void *stream_threads_main(void *arg) {
  int id = (int)(intptr_t)arg;
  void *append = mgpuModuleGetFunction(g_shared, "append");
  void *f = mgpuModuleGetFunction(g_shared, "fill");
  int *log = mgpuMemAlloc(64 * sizeof(int), NULL, false);
  int *out = mgpuMemAlloc(4 * 32 * sizeof(int), NULL, false);
  void *a = mgpuStreamCreate(), *b = mgpuStreamCreate(), *e = mgpuEventCreate();
  mgpuMemset32(log, 0, 64, a);
  int value, calls = 0, *pcalls = &calls, base = id * 1000;
  void *ap[] = {&log, &value}, *fp[] = {&out, &base, &pcalls};
  for (value = 1; value <= 40; value++) {
    launch1(append, a, ap, 2);
    mgpuEventRecord(e, a);
    mgpuStreamWaitEvent(b, e);
    mgpuLaunchKernel(f, 4, 1, 1, 32, 1, 1, 0, b, fp, NULL, 3);
  }
  mgpuStreamSynchronize(b);
  CHECK(log[0] == 40 && log[40] == 40 && calls == 4 * 40);
  for (int i = 0; i < 4 * 32; i++)
    CHECK(out[i] == id * 1000 + i);
  mgpuEventDestroy(e);
  mgpuStreamDestroy(a);
  mgpuStreamDestroy(b);
  mgpuMemFree(log, NULL);
  mgpuMemFree(out, NULL);
  return NULL;
}

static void run_stream_threads(void) {
  void *blob;
  g_shared = load_module("RT_HOST_FIXTURE", &blob);
  pthread_t t[NTHREADS];
  for (int i = 0; i < NTHREADS; i++)
    CHECK(pthread_create(&t[i], NULL, stream_threads_main, (void *)(intptr_t)i) == 0);
  for (int i = 0; i < NTHREADS; i++)
    CHECK(pthread_join(t[i], NULL) == 0);
  mgpuModuleUnload(g_shared);
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
     {"gpucc: runtime error: mgpuLaunchKernel: kernel 'fill' launched with 1025 threads per "
      "block; it was compiled for at most 1024 (sm_80)\n"},
     {"continued"},
     0},
    {"limit_shape", run_limit_shape, 0, {0}, {"gpucc", "refused with"}, 0},
    {"limit_target_line", run_limit_target_line, 0, {0}, {"gpucc", "refused with"}, 0},
    {"limit_shared", run_limit_shared, 0, {0}, {"gpucc", "refused with"}, 0},
    {"limit_host_only", run_limit_host_only, 0, {0}, {"gpucc", "refused with"}, 0},
    {"missing_kernel",
     run_missing_kernel,
     1,
     {"gpucc: runtime error: mgpuModuleGetFunction: no kernel named 'nope' in the host "
      "object\n"},
     {"continued"},
     0},
    {"stream_overlap", run_stream_overlap, 0, {0}, {"gpucc"}, 0},
    {"stream_order", run_stream_order, 0, {0}, {"gpucc"}, 0},
    {"stream_events", run_stream_events, 0, {0}, {"gpucc"}, 0},
    {"stream_error",
     run_stream_error,
     1,
     {"launched\n",
      "fixture.mlir:7: check: block: [0,0,0], thread: [0,0,0] Assertion `value != 0` failed.\n",
      "gpucc: runtime error: mgpuStreamSynchronize: kernel 'check' failed on the CPU: a "
      "device-side assertion failed (cf.assert)\n"},
     {"continued"},
     0},
    {"stream_free", run_stream_free, 0, {0}, {"gpucc"}, 0},
    {"stream_threads", run_stream_threads, 0, {0}, {"gpucc"}, 0},
    {"abi_mismatch",
     run_abi_mismatch,
     1,
     {"gpucc: runtime error: mgpuModuleGetFunction: host object has ABI version 99, this "
      "runtime needs 5 (rebuild the program)\n"},
     {"continued"},
     0},
    {"log",
     run_log,
     0,
     {"gpucc: log: cuda: /nonexistent not found (from GPUCC_CUDA_LIBRARY)\n",
      "gpucc: log: using backend host, device 0 'CPU (",
      "gpucc: log: module 'kern' (carries sm_80 host) on host: chose host shared object\n",
      "gpucc: log: kernel 'fill' on sm_80: at most 1024 threads per block, any block shape, 0 "
      "static bytes, at most 166912 bytes of shared memory\n"},
     {"runtime error"},
     0},
};

int main(int argc, char **argv) {
  return rt_test_main(argc, argv, tests, sizeof tests / sizeof tests[0]);
}
