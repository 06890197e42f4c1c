/* test_nodriver.c: a program built like gpucc's output, on a machine with no
 * GPU driver at all.
 *
 * As in translated host code, the module is loaded by a global constructor of
 * priority 123 (before main) and unloaded by the matching destructor. The
 * program carries GPU code only (no `host` object). Without GPUCC_BACKEND the
 * runtime falls back to the host backend: what needs no kernel (streams,
 * memory) works, and the first kernel lookup stops the program with one line
 * naming the CPU, the targets carried and --offload-arch=host. With
 * GPUCC_BACKEND=cuda or hip, nothing else is tried and the first operation
 * stops the program with "no GPU found". A program that never uses the GPU
 * runs to completion either way. */
#include <dlfcn.h>
#include <string.h>
#include <unistd.h>

#include "gpucc_rt.h"
#include "harness.h"

/* A fake device object: its text and NUL, which the fake drivers read. */
#define OBJ(text) text, sizeof text, NULL /* no features recorded */

/* Why no GPU backend started, with both libraries pointed at nothing. */
#define NO_DRIVERS                                                                          \
  "CUDA: /nonexistent not found (from GPUCC_CUDA_LIBRARY); HIP: /nonexistent not found "   \
  "(from GPUCC_HIP_LIBRARY)"

static void *g_blob;
static void *g_module;

__attribute__((constructor(123))) static void load_module(void) {
  const struct fatbin_entry e[] = {
      {"kern", FATBIN_VENDOR_NVIDIA, "sm_80", FATBIN_FORMAT_CUBIN, OBJ("FAKECUBIN:sm_80")},
      {"kern", FATBIN_VENDOR_NVIDIA, "sm_90", FATBIN_FORMAT_CUBIN, OBJ("FAKECUBIN:sm_90")},
      {"kern", FATBIN_VENDOR_NVIDIA, "sm_90", FATBIN_FORMAT_PTX, OBJ(".target sm_90")},
      {"kern", FATBIN_VENDOR_AMD, "gfx90a", FATBIN_FORMAT_HSACO, OBJ("FAKEHSACO:gfx90a")},
      {"kern", FATBIN_VENDOR_AMD, "gfx942", FATBIN_FORMAT_HSACO, OBJ("FAKEHSACO:gfx942")},
  };
  size_t size;
  g_blob = rt_make_blob(e, sizeof e / sizeof e[0], &size);
  g_module = mgpuModuleLoad(g_blob, size);
}

__attribute__((destructor(123))) static void unload_module(void) {
  mgpuModuleUnload(g_module);
  free(g_blob);
}

static void run_idle(void) {
  CHECK(g_module != NULL);
  CHECK(gpuccBackendName() == NULL);
  CHECK(mgpuMemAlloc(0, NULL, false) == NULL);
}

/* On the host backend: streams and memory work without a module;
 * the kernel lookup then fails (see the table). */
static void run_host_ops(void) {
  void *s = mgpuStreamCreate();
  CHECK(s != NULL);
  CHECK(gpuccBackendName() && strcmp(gpuccBackendName(), "host") == 0);
  int *a = mgpuMemAlloc(64 * sizeof(int), s, false);
  int *b = mgpuMemAlloc(64 * sizeof(int), s, true);
  CHECK(a && b);
  mgpuMemset32(a, 7, 64, s);
  mgpuMemcpy(b, a, 64 * sizeof(int), s);
  mgpuStreamSynchronize(s);
  CHECK(b[0] == 7 && b[63] == 7);
  mgpuMemFree(a, s);
  mgpuMemFree(b, s);
  mgpuStreamDestroy(s);
  fprintf(stderr, "host operations done\n");
  mgpuModuleGetFunction(g_module, "k");
  fprintf(stderr, "continued after the kernel lookup\n");
}

/* Forced to a GPU backend: the first operation needing a device fails. */
static void run_stream(void) {
  mgpuStreamCreate();
  fprintf(stderr, "continued without a device\n");
}

static int g_calls;
static char g_last[1024];

static void handler(const char *message, void *user_data) {
  (void)user_data;
  g_calls++;
  snprintf(g_last, sizeof g_last, "%s", message);
}

/* A program that handles the error itself keeps running: the host backend
 * works, and each lookup of a kernel the program lacks reports again. */
static void run_handler(void) {
  gpuccSetErrorHandler(handler, NULL);
  void *s = mgpuStreamCreate();
  CHECK(s != NULL);
  void *p = mgpuMemAlloc(16, s, false);
  CHECK(p != NULL);
  CHECK(g_calls == 0);
  char want[512];
  snprintf(want, sizeof want,
           "mgpuModuleGetFunction: no code for device 0 'CPU (%ld cores)' (host) in module "
           "'kern', which carries code for: sm_80 sm_90 gfx90a gfx942; rebuild with "
           "--offload-arch=host (no GPU found: " NO_DRIVERS ")",
           sysconf(_SC_NPROCESSORS_ONLN));
  CHECK(mgpuModuleGetFunction(g_module, "k") == NULL);
  CHECK(g_calls == 1);
  if (strcmp(g_last, want) != 0)
    fprintf(stderr, "got:  %s\nwant: %s\n", g_last, want);
  CHECK(strcmp(g_last, want) == 0);
  CHECK(mgpuModuleGetFunction(g_module, "k") == NULL); /* not cached: reported again */
  CHECK(g_calls == 2 && strcmp(g_last, want) == 0);
  mgpuLaunchKernel(NULL, 1, 1, 1, 1, 1, 1, 0, s, NULL, NULL, 0);
  CHECK(g_calls == 3);
  CHECK(strcmp(g_last, "mgpuLaunchKernel: no kernel to launch (mgpuModuleGetFunction failed "
                       "earlier)") == 0);
  mgpuMemFree(p, s);
  mgpuStreamDestroy(s);
  CHECK(g_calls == 3);
  CHECK(gpuccBackendName() && strcmp(gpuccBackendName(), "host") == 0);
}

/* Forced to a GPU backend with a handler: every operation that needs the
 * device reports again and does nothing; no backend ever starts. */
static void run_forced_handler(void) {
  gpuccSetErrorHandler(handler, NULL);
  CHECK(mgpuStreamCreate() == NULL);
  CHECK(strncmp(g_last, "no GPU found (", 14) == 0);
  CHECK(mgpuModuleGetFunction(g_module, "k") == NULL);
  CHECK(strncmp(g_last, "no GPU found (", 14) == 0);
  CHECK(mgpuMemAlloc(16, NULL, false) == NULL);
  CHECK(strncmp(g_last, "no GPU found (", 14) == 0);
  mgpuLaunchKernel(NULL, 1, 1, 1, 1, 1, 1, 0, NULL, NULL, NULL, 0);
  CHECK(g_calls == 4);
  CHECK(strncmp(g_last, "no GPU found (", 14) == 0);
  CHECK(gpuccBackendName() == NULL);
}

/* With the drivers' real names: only meaningful where neither is installed. */
static int drivers_installed(void) {
  const char *names[] = {"libcuda.so.1", "libamdhip64.so", "libamdhip64.so.6",
                         "libamdhip64.so.5"};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    void *h = dlopen(names[i], RTLD_LAZY | RTLD_LOCAL);
    if (h) {
      dlclose(h);
      return 1;
    }
  }
  return 0;
}

/* The kernel lookup's message, in two pieces around the number of cores, and
 * (third piece) why no GPU was used. */
#define NO_HOST_CODE_1 "gpucc: runtime error: mgpuModuleGetFunction: no code for device 0 'CPU ("
#define NO_HOST_CODE_2                                                                      \
  " cores)' (host) in module 'kern', which carries code for: sm_80 sm_90 gfx90a gfx942; "   \
  "rebuild with --offload-arch=host (no GPU found: "

static const struct rt_test tests[] = {
    {"idle", run_idle, 0, {0}, {"gpucc"}, 0},
    {"stream",
     run_host_ops,
     1,
     {"host operations done\n" NO_HOST_CODE_1, NO_HOST_CODE_2 NO_DRIVERS ")\n"},
     {"continued"},
     0},
    {"handler", run_handler, 0, {0}, {"gpucc", "got:"}, 0},
    {"default_names",
     run_host_ops,
     1,
     {"gpucc: log: cuda: libcuda.so.1 not found\n", "gpucc: log: hip: libamdhip64.so not found\n",
      "gpucc: log: using backend host, device 0 'CPU (", "host operations done\n" NO_HOST_CODE_1,
      NO_HOST_CODE_2 "CUDA: libcuda.so.1 not found; HIP: libamdhip64.so not found)\n"},
     {"continued"},
     drivers_installed},
    {"forced_cuda",
     run_stream,
     1,
     {"gpucc: runtime error: no GPU found (CUDA: /nonexistent not found (from "
      "GPUCC_CUDA_LIBRARY); other backends not tried: GPUCC_BACKEND=cuda); this program "
      "carries code for: sm_80 sm_90 gfx90a gfx942\n"},
     {"continued", "host"},
     0},
    {"forced_hip",
     run_stream,
     1,
     {"gpucc: runtime error: no GPU found (HIP: /nonexistent not found (from "
      "GPUCC_HIP_LIBRARY); other backends not tried: GPUCC_BACKEND=hip); this program "
      "carries code for: sm_80 sm_90 gfx90a gfx942\n"},
     {"continued", "CUDA"},
     0},
    {"forced_handler", run_forced_handler, 0, {0}, {"gpucc"}, 0},
    {"forced_default_names",
     run_stream,
     1,
     {"gpucc: runtime error: no GPU found (CUDA: libcuda.so.1 not found; other backends not "
      "tried: GPUCC_BACKEND=cuda); this program carries code for: sm_80 sm_90 gfx90a "
      "gfx942\n"},
     {"continued"},
     drivers_installed},
};

int main(int argc, char **argv) {
  return rt_test_main(argc, argv, tests, sizeof tests / sizeof tests[0]);
}
