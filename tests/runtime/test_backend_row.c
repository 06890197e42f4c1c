/* test_backend_row.c: a runtime with one more backend, for a vendor of its
 * own (backend_test.c, fatbin_test_vendor.c), linked only into this test.
 * With no CUDA or HIP driver, the default order reaches the test backend
 * before the host CPU; its rules choose among its objects in a fat binary
 * that also holds another vendor's, its driver launches the kernel, its
 * plain objects are recognized, and its row's label and arch make the
 * messages: none of it needed a change to the runtime's shared code. */
#include <string.h>

#include "gpucc_rt.h"
#include "harness.h"
#include "test_vendor.h"

#define OBJ(text) text, sizeof text, NULL /* no features recorded */

static void launch_from(const struct fatbin_entry *e, size_t n) {
  size_t size;
  void *blob = rt_make_blob(e, n, &size);
  /* The archive reads back, and each object passes its row's check. */
  struct fatbin *fb;
  CHECK(fatbin_open(blob, size, &fb, NULL, 0) == 0);
  CHECK(fatbin_count(fb) == n && fatbin_skipped(fb) == 0);
  for (size_t i = 0; i < n; i++)
    CHECK(fatbin_verify(fb, i, NULL, 0) == 0 || fatbin_get(fb, i)->vendor != TEST_VENDOR);
  fatbin_close(fb);
  CHECK(strcmp(fatbin_vendor_name(TEST_VENDOR), "testvendor") == 0);

  void *m = mgpuModuleLoad(blob, size);
  void *f = mgpuModuleGetFunction(m, "k");
  CHECK(gpuccBackendName() && strcmp(gpuccBackendName(), "test") == 0);
  mgpuLaunchKernel(f, 2, 1, 1, 32, 1, 1, 0, NULL, NULL, NULL, 0);
  mgpuModuleUnload(m);
  free(blob);
}

/* The exact object, among the other vendor's and older and newer ones. */
static void run_exact(void) {
  const struct fatbin_entry e[] = {
      {"kern", FATBIN_VENDOR_NVIDIA, "sm_90", FATBIN_FORMAT_CUBIN, OBJ("FAKECUBIN:sm_90")},
      {"kern", TEST_VENDOR, "test1", TEST_FORMAT, OBJ("TESTOBJ:test1")},
      {"kern", TEST_VENDOR, "test2", TEST_FORMAT, OBJ("TESTOBJ:test2")},
      {"kern", TEST_VENDOR, "test3", TEST_FORMAT, OBJ("TESTOBJ:test3")},
  };
  launch_from(e, sizeof e / sizeof e[0]);
}

/* No exact one: the newest that runs. */
static void run_older(void) {
  const struct fatbin_entry e[] = {
      {"kern", TEST_VENDOR, "test0", TEST_FORMAT, OBJ("TESTOBJ:test0")},
      {"kern", TEST_VENDOR, "test1", TEST_FORMAT, OBJ("TESTOBJ:test1")},
      {"kern", TEST_VENDOR, "test3", TEST_FORMAT, OBJ("TESTOBJ:test3")},
  };
  launch_from(e, sizeof e / sizeof e[0]);
}

/* Nothing that runs: the message names the carried targets, the device by
 * the row's arch, and what to rebuild with. */
static void run_none(void) {
  const struct fatbin_entry e[] = {
      {"kern", FATBIN_VENDOR_NVIDIA, "sm_90", FATBIN_FORMAT_CUBIN, OBJ("FAKECUBIN:sm_90")},
      {"kern", TEST_VENDOR, "test3", TEST_FORMAT, OBJ("TESTOBJ:test3")},
  };
  launch_from(e, sizeof e / sizeof e[0]);
}

/* A plain object of the test vendor goes to its driver as it is. */
static void run_plain(void) {
  static char image[] = "TESTPLAIN body";
  void *m = mgpuModuleLoad(image, sizeof image);
  void *f = mgpuModuleGetFunction(m, "p");
  mgpuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, NULL, NULL, 0);
  mgpuModuleUnload(m);
}

static const struct rt_test tests[] = {
    {"exact",
     run_exact,
     0,
     {"gpucc: log: using backend test, device 0 'test device' (test2)\n",
      "(carries sm_90 test1 test2 test3) on test2: chose test2 test object: exact match for "
      "test2\n",
      "test backend: launch k of TESTOBJ:test2, grid 2,1,1 block 32,1,1\n"},
     {"runtime error"},
     0},
    {"older",
     run_older,
     0,
     {"chose test1 test object: runs on test2\n",
      "test backend: launch k of TESTOBJ:test1, grid 2,1,1 block 32,1,1\n"},
     {"runtime error"},
     0},
    {"none",
     run_none,
     1,
     {"gpucc: runtime error: mgpuModuleGetFunction: no code for device 0 'test device' (test2) "
      "in module 'kern', which carries code for: sm_90 test3; rebuild with "
      "--offload-arch=test2\n"},
     {"test backend: launch"},
     0},
    {"plain",
     run_plain,
     0,
     {"module (test plain object): 15 bytes, loaded as they are\n",
      "test backend: launch p of TESTPLAIN body, grid 1,1,1 block 1,1,1\n"},
     {"runtime error"},
     0},
};

int main(int argc, char **argv) {
  return rt_test_main(argc, argv, tests, sizeof tests / sizeof tests[0]);
}
