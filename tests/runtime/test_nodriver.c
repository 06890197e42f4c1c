/* test_nodriver.c: a program built like gpucc's output, on a machine with no
 * GPU driver at all.
 *
 * As in translated host code, the module is loaded by a global constructor of
 * priority 123 (before main) and unloaded by the matching destructor. The
 * program must run to completion when it never uses the GPU, and stop with
 * one clear line when it does. */
#include <dlfcn.h>
#include <string.h>

#include "gpucc_rt.h"
#include "harness.h"

/* A fake device object: its text and NUL, which the fake drivers read. */
#define OBJ(text) text, sizeof text

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

static void run_stream(void) {
  mgpuStreamCreate();
  fprintf(stderr, "continued without a device\n");
}

static int g_calls;

static void handler(const char *message, void *user_data) {
  (void)user_data;
  g_calls++;
  CHECK(strncmp(message, "no GPU found (", 14) == 0);
}

/* A program that handles the error itself keeps running: every operation
 * that needs the device reports again and does nothing. */
static void run_handler(void) {
  gpuccSetErrorHandler(handler, NULL);
  CHECK(mgpuStreamCreate() == NULL);
  CHECK(mgpuModuleGetFunction(g_module, "k") == NULL);
  CHECK(mgpuMemAlloc(16, NULL, false) == NULL);
  mgpuLaunchKernel(NULL, 1, 1, 1, 1, 1, 1, 0, NULL, NULL, NULL, 0);
  CHECK(g_calls == 4);
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

static const struct rt_test tests[] = {
    {"idle", run_idle, 0, {0}, {"gpucc"}, 0},
    {"stream",
     run_stream,
     1,
     {"gpucc: runtime error: no GPU found (CUDA: /nonexistent not found (from "
      "GPUCC_CUDA_LIBRARY); HIP: /nonexistent not found (from GPUCC_HIP_LIBRARY)); this "
      "program carries code for: sm_80 sm_90 gfx90a gfx942\n"},
     {"continued"},
     0},
    {"handler", run_handler, 0, {0}, {"gpucc"}, 0},
    {"default_names",
     run_stream,
     1,
     {"gpucc: runtime error: no GPU found (CUDA: libcuda.so.1 not found; HIP: "
      "libamdhip64.so not found); this program carries code for: sm_80 sm_90 gfx90a "
      "gfx942\n"},
     {"continued"},
     drivers_installed},
};

int main(int argc, char **argv) {
  return rt_test_main(argc, argv, tests, sizeof tests / sizeof tests[0]);
}
