/* test_vulkan.c: the Vulkan backend on a real Vulkan driver (Mesa's
 * lavapipe here and in CI), through the public mgpu* functions as programs
 * built by gpucc call them: a fat binary holding SPIR-V modules (vendor
 * vulkan, format spirv, target spirv), assembled from the .spvasm files
 * beside this one (VK_TEST_SPV_DIR names where the build put them).
 *
 * Each scenario runs in a child (harness.h). A scenario skips (77) when no
 * Vulkan device can be opened; the ones about automatic selection skip too
 * where a GPU would rightly be chosen. */
#include <dlfcn.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#define VK_NO_PROTOTYPES
#include <vulkan/vulkan_core.h>

#include "gpucc_rt.h"
#include "harness.h"

/* ---- modules ------------------------------------------------------------ */

static void *g_blob;

/* The assembled module `name`.spv, malloc'ed. */
static unsigned char *read_spv(const char *name, size_t *size) {
  char path[1024];
  snprintf(path, sizeof path, "%s/%s.spv", getenv("VK_TEST_SPV_DIR"), name);
  FILE *f = fopen(path, "rb");
  CHECK(f != NULL);
  unsigned char *d = malloc(1 << 16);
  CHECK(d != NULL);
  *size = fread(d, 1, 1 << 16, f);
  fclose(f);
  CHECK(*size > 20 && *size < (1 << 16));
  return d;
}

/* A module of gpu.module "kern" whose only object is `data`. */
static void *load_object(enum fatbin_vendor vendor, const char *target, enum fatbin_format format,
                         const void *data, size_t size) {
  const struct fatbin_entry e[] = {{"kern", vendor, target, format, data, size, NULL}};
  size_t blob_size;
  g_blob = rt_make_blob(e, 1, &blob_size);
  CHECK(g_blob != NULL);
  return mgpuModuleLoad(g_blob, blob_size);
}

static void *load_spv(const char *name) {
  size_t size;
  unsigned char *d = read_spv(name, &size);
  void *m = load_object(FATBIN_VENDOR_VULKAN, "spirv", FATBIN_FORMAT_SPIRV, d, size);
  free(d);
  return m;
}

/* ---- vector add --------------------------------------------------------- */

/* c = a + alpha * b on n elements in blocks of `block`; checks c. */
static void run_vadd_once(void *fn, long n, long block, void *stream) {
  size_t bytes = (size_t)n * sizeof(float);
  float *ha = malloc(bytes), *hb = malloc(bytes), *hc = malloc(bytes);
  CHECK(ha && hb && hc);
  for (long i = 0; i < n; i++)
    ha[i] = (float)i, hb[i] = (float)(3 * i % 1000), hc[i] = -1;
  float *a = mgpuMemAlloc(bytes, stream, false), *b = mgpuMemAlloc(bytes, stream, false);
  float *c = mgpuMemAlloc(bytes, stream, false);
  CHECK(a && b && c);
  CHECK((uintptr_t)a % 256 == 0 && (uintptr_t)b % 256 == 0 && (uintptr_t)c % 256 == 0);
  mgpuMemcpy(a, ha, bytes, stream);
  mgpuMemcpy(b, hb, bytes, stream);
  mgpuMemset32(c, 0, (size_t)n, stream);
  float alpha = 0.5f;
  int64_t count = n;
  void *params[] = {&a, &b, &c, &alpha, &count};
  mgpuLaunchKernel(fn, (n + block - 1) / block, 1, 1, block, 1, 1, 0, stream, params, NULL, 5);
  mgpuMemcpy(hc, c, bytes, stream);
  mgpuStreamSynchronize(stream);
  long bad = 0;
  for (long i = 0; i < n; i++)
    bad += hc[i] != ha[i] + alpha * hb[i];
  fprintf(stderr, "n=%ld block=%ld: %ld wrong\n", n, block, bad);
  CHECK(bad == 0);
  mgpuMemFree(a, stream);
  mgpuMemFree(b, stream);
  mgpuMemFree(c, stream);
  free(ha), free(hb), free(hc);
}

static void run_vadd(void) {
  void *m = load_spv("vadd");
  void *fn = mgpuModuleGetFunction(m, "vadd");
  CHECK(fn != NULL);
  CHECK(strcmp(gpuccBackendName(), "vulkan") == 0);
  void *s = mgpuStreamCreate();
  run_vadd_once(fn, 1000, 64, s);
  run_vadd_once(fn, 100003, 256, s);
  run_vadd_once(fn, 77, 1024, NULL);
  run_vadd_once(fn, 5000, 64, s); /* the cached pipeline of block 64 again */
  mgpuStreamDestroy(s);
  mgpuModuleUnload(m);
  free(g_blob);
}

/* ---- memory ------------------------------------------------------------- */

static void run_memory(void) {
  enum { N = 4096 };
  unsigned char *x = mgpuMemAlloc(N, NULL, false), *y = mgpuMemAlloc(N, NULL, false);
  unsigned char host[N], back[N];
  CHECK(x && y);
  for (int i = 0; i < N; i++)
    host[i] = (unsigned char)(i * 7 + 1);
  mgpuMemcpy(x, host, N, NULL);            /* host to device */
  mgpuMemset32(y, 0xdeadbeef, N / 4, NULL); /* sentinels */
  mgpuMemcpy(y + 8, x + 3, 1001, NULL);    /* device to device, odd size and offsets */
  mgpuMemcpy(back, y, N, NULL);            /* device to host */
  for (int i = 0; i < N; i++) {
    unsigned char want = i >= 8 && i < 1009 ? host[i - 8 + 3] : ((const unsigned char[]){
                                                                   0xef, 0xbe, 0xad, 0xde})[i % 4];
    CHECK(back[i] == want);
  }
  /* 32-bit fill of an odd count, past a word offset. */
  mgpuMemset32(y, 0, N / 4, NULL);
  mgpuMemset32(y + 4, 0x01020304, 1001, NULL);
  mgpuMemcpy(back, y, N, NULL);
  uint32_t w;
  memcpy(&w, back, 4);
  CHECK(w == 0);
  memcpy(&w, back + 4, 4);
  CHECK(w == 0x01020304);
  memcpy(&w, back + 4 + 4 * 1000, 4);
  CHECK(w == 0x01020304);
  memcpy(&w, back + 4 + 4 * 1001, 4);
  CHECK(w == 0);
  /* 16-bit fills: a halfword before the words, after them, alone, none. */
  static const struct {
    int offset, count;
  } fills[] = {{2, 7}, {0, 1}, {6, 1}, {20, 2}, {34, 9}, {100, 1001}, {2002, 1}};
  for (size_t k = 0; k < sizeof fills / sizeof fills[0]; k++) {
    mgpuMemset32(y, 0, N / 4, NULL);
    mgpuMemset16(y + fills[k].offset, 0xabcd, (size_t)fills[k].count, NULL);
    mgpuMemcpy(back, y, N, NULL);
    for (int i = 0; i < N; i += 2) {
      uint16_t h;
      memcpy(&h, back + i, 2);
      int inside = i >= fills[k].offset && i < fills[k].offset + 2 * fills[k].count;
      if (h != (inside ? 0xabcd : 0))
        fprintf(stderr, "memset16 at %d of %d: halfword %d is 0x%x\n", fills[k].offset,
                fills[k].count, i, h);
      CHECK(h == (inside ? 0xabcd : 0));
    }
  }
  /* Host to host, through the runtime. */
  unsigned char other[16];
  mgpuMemcpy(other, host, sizeof other, NULL);
  CHECK(memcmp(other, host, sizeof other) == 0);
  mgpuMemFree(x, NULL);
  mgpuMemFree(y, NULL);
  fprintf(stderr, "memory done\n");
}

/* ---- streams and events ------------------------------------------------- */

/* Stream 1 computes c1 = a + b; stream 2 waits for it through an event
 * (destroyed at once, as MLIR's lowering of gpu.wait does) and computes
 * c2 = c1 + 2 b. */
static void run_streams(void) {
  enum { N = 1 << 18 };
  void *m = load_spv("vadd");
  void *fn = mgpuModuleGetFunction(m, "vadd");
  void *s1 = mgpuStreamCreate(), *s2 = mgpuStreamCreate();
  CHECK(fn && s1 && s2);
  float *h = malloc(N * sizeof *h);
  CHECK(h);
  for (int i = 0; i < N; i++)
    h[i] = (float)(i % 977);
  float *a = mgpuMemAlloc(N * sizeof *a, s1, false), *b = mgpuMemAlloc(N * sizeof *b, s1, false);
  float *c1 = mgpuMemAlloc(N * sizeof *a, s1, false), *c2 = mgpuMemAlloc(N * sizeof *a, s2, false);
  mgpuMemcpy(a, h, N * sizeof *h, s1);
  mgpuMemcpy(b, h, N * sizeof *h, s1);
  float one = 1, two = 2;
  int64_t n = N;
  void *p1[] = {&a, &b, &c1, &one, &n}, *p2[] = {&c1, &b, &c2, &two, &n};
  mgpuLaunchKernel(fn, N / 256, 1, 1, 256, 1, 1, 0, s1, p1, NULL, 5);
  void *ev = mgpuEventCreate();
  mgpuEventRecord(ev, s1);
  mgpuStreamWaitEvent(s2, ev);
  mgpuEventDestroy(ev);
  mgpuLaunchKernel(fn, N / 256, 1, 1, 256, 1, 1, 0, s2, p2, NULL, 5);
  void *done = mgpuEventCreate();
  mgpuEventRecord(done, s2);
  mgpuStreamDestroy(s1);
  mgpuEventSynchronize(done);
  mgpuEventDestroy(done);
  mgpuMemcpy(h, c2, N * sizeof *h, s2);
  mgpuStreamSynchronize(s2);
  for (int i = 0; i < N; i++)
    CHECK(h[i] == 4.0f * (float)(i % 977));
  mgpuStreamDestroy(s2);
  free(h);
  fprintf(stderr, "streams done\n");
}

/* ---- refusals ----------------------------------------------------------- */

static void run_missing_cap(void) {
  void *m = load_spv("clustered");
  mgpuModuleGetFunction(m, "clustered");
  fprintf(stderr, "continued\n");
}

/* A known_block_size kernel: its block runs, another is refused. */
static void run_local_size(void) {
  void *m = load_spv("fixed");
  void *fn = mgpuModuleGetFunction(m, "fixed");
  CHECK(fn != NULL);
  uint32_t *out = mgpuMemAlloc(1000 * 4, NULL, false), back[1000];
  int64_t n = 1000;
  void *params[] = {&out, &n};
  mgpuLaunchKernel(fn, 16, 1, 1, 64, 1, 1, 0, NULL, params, NULL, 2);
  mgpuMemcpy(back, out, sizeof back, NULL);
  for (uint32_t i = 0; i < 1000; i++)
    CHECK(back[i] == i);
  fprintf(stderr, "block 64 done\n");
  mgpuLaunchKernel(fn, 8, 1, 1, 128, 1, 1, 0, NULL, params, NULL, 2);
  fprintf(stderr, "continued\n");
}

static void *vadd_function(void) {
  void *fn = mgpuModuleGetFunction(load_spv("vadd"), "vadd");
  CHECK(fn != NULL);
  return fn;
}

static void run_param_count(void) {
  void *fn = vadd_function();
  float *a = mgpuMemAlloc(64, NULL, false);
  void *params[] = {&a, &a, &a};
  mgpuLaunchKernel(fn, 1, 1, 1, 16, 1, 1, 0, NULL, params, NULL, 3);
  fprintf(stderr, "continued\n");
}

static void run_smem(void) {
  void *fn = vadd_function();
  float *a = mgpuMemAlloc(64, NULL, false), alpha = 1;
  int64_t n = 16;
  void *params[] = {&a, &a, &a, &alpha, &n};
  mgpuLaunchKernel(fn, 1, 1, 1, 16, 1, 1, 64, NULL, params, NULL, 5);
  fprintf(stderr, "continued\n");
}

/* A SPIR-V module whose second instruction runs past its end. */
static const uint32_t bad_spirv[] = {0x07230203, 0x00010300, 0, 8, 0,
                                     (2u << 16) | 17, 1, (9u << 16) | 17};

static void run_bad_spirv(void) {
  struct fatbin_entry e = {"kern", FATBIN_VENDOR_VULKAN, "spirv", FATBIN_FORMAT_SPIRV, bad_spirv,
                           sizeof bad_spirv, NULL};
  char err[256];
  CHECK(fatbin_check_object(&e, bad_spirv, sizeof bad_spirv, err, sizeof err) != 0);
  fprintf(stderr, "check: %s\n", err);
  uint32_t zero[8];
  memcpy(zero, bad_spirv, sizeof zero);
  zero[7] = 17; /* a word count of 0 */
  CHECK(fatbin_check_object(&e, zero, sizeof zero, err, sizeof err) != 0);
  fprintf(stderr, "check: %s\n", err);
  CHECK(fatbin_check_object(&e, zero, sizeof zero - 2, err, sizeof err) != 0);
  fprintf(stderr, "check: %s\n", err);
  size_t size;
  unsigned char *good = read_spv("vadd", &size);
  e.data = good;
  e.size = size;
  CHECK(fatbin_check_object(&e, good, size, err, sizeof err) == 0);
  free(good);
  /* The runtime reads the module itself too: refused, not a crash. */
  void *m = load_object(FATBIN_VENDOR_VULKAN, "spirv", FATBIN_FORMAT_SPIRV, bad_spirv,
                        sizeof bad_spirv);
  mgpuModuleGetFunction(m, "vadd");
  fprintf(stderr, "continued\n");
}

/* ---- gpucc-fatbin ------------------------------------------------------- */

/* Runs `gpucc-fatbin <cmd> <file>` (GPUCC_FATBIN names it) and copies its
 * output to stderr. */
static void fatbin_tool(const char *cmd, const char *file) {
  char line[1024];
  snprintf(line, sizeof line, "'%s' %s '%s' 2>&1", getenv("GPUCC_FATBIN"), cmd, file);
  FILE *p = popen(line, "r");
  CHECK(p != NULL);
  while (fgets(line, sizeof line, p))
    fputs(line, stderr);
  CHECK(pclose(p) == 0);
}

/* `list` shows the SPIR-V module's capabilities; `verify` checks it. */
static void run_fatbin_list(void) {
  size_t size, blob_size;
  unsigned char *d = read_spv("vadd", &size);
  const struct fatbin_entry e[] = {
      {"kern", FATBIN_VENDOR_NVIDIA, "sm_80", FATBIN_FORMAT_PTX, ".target sm_80", 14, NULL},
      {"kern", FATBIN_VENDOR_VULKAN, "spirv", FATBIN_FORMAT_SPIRV, d, size, NULL}};
  void *blob = rt_make_blob(e, 2, &blob_size);
  char path[] = "/tmp/gpucc_vulkan_list_XXXXXX";
  int fd = mkstemp(path);
  CHECK(fd >= 0 && blob);
  CHECK(write(fd, blob, blob_size) == (ssize_t)blob_size && close(fd) == 0);
  fatbin_tool("list", path);
  fatbin_tool("verify", path);
  unlink(path);
  free(blob);
  free(d);
}

/* ---- automatic selection ------------------------------------------------ */

/* Only a CPU device (lavapipe): the host backend runs the program, and the
 * lookup of a kernel it has no host code for says why Vulkan was not used. */
static void run_auto_cpu(void) {
  void *m = load_spv("vadd");
  void *s = mgpuStreamCreate();
  CHECK(s && strcmp(gpuccBackendName(), "host") == 0);
  mgpuStreamDestroy(s);
  mgpuModuleGetFunction(m, "vadd");
  fprintf(stderr, "continued\n");
}

/* No SPIR-V in the program: the Vulkan backend is not even looked for. */
static void run_no_spirv(void) {
  load_object(FATBIN_VENDOR_NVIDIA, "sm_80", FATBIN_FORMAT_CUBIN, "FAKECUBIN:sm_80", 16);
  void *s = mgpuStreamCreate();
  CHECK(s && strcmp(gpuccBackendName(), "host") == 0);
  mgpuStreamDestroy(s);
  fprintf(stderr, "on the host\n");
}

/* Forced to Vulkan without SPIR-V: as CUDA without a cubin, no code. */
static void run_forced_no_spirv(void) {
  void *m = load_object(FATBIN_VENDOR_NVIDIA, "sm_80", FATBIN_FORMAT_CUBIN, "FAKECUBIN:sm_80", 16);
  mgpuModuleGetFunction(m, "k");
  fprintf(stderr, "continued\n");
}

/* GPUCC_DEVICE numbers Vulkan's devices too. */
static void run_device_env(void) {
  load_spv("vadd");
  mgpuStreamCreate();
  fprintf(stderr, "continued\n");
}

/* ---- skips -------------------------------------------------------------- */

/* The physical devices' types: -1 without a Vulkan device. */
static int device_types(int *cpus, int *others) {
  *cpus = *others = 0;
  void *lib = dlopen("libvulkan.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib)
    return -1;
  PFN_vkGetInstanceProcAddr gipa;
  void *sym = dlsym(lib, "vkGetInstanceProcAddr");
  memcpy(&gipa, &sym, sizeof gipa);
  PFN_vkCreateInstance create = (PFN_vkCreateInstance)gipa(NULL, "vkCreateInstance");
  VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
                           .apiVersion = VK_API_VERSION_1_2};
  VkInstanceCreateInfo info = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
                               .pApplicationInfo = &app};
  VkInstance inst;
  if (!create || create(&info, NULL, &inst) != VK_SUCCESS)
    return -1;
  PFN_vkEnumeratePhysicalDevices enumerate =
      (PFN_vkEnumeratePhysicalDevices)gipa(inst, "vkEnumeratePhysicalDevices");
  PFN_vkGetPhysicalDeviceProperties props =
      (PFN_vkGetPhysicalDeviceProperties)gipa(inst, "vkGetPhysicalDeviceProperties");
  PFN_vkDestroyInstance destroy = (PFN_vkDestroyInstance)gipa(inst, "vkDestroyInstance");
  VkPhysicalDevice devs[16];
  uint32_t n = 16;
  enumerate(inst, &n, devs);
  for (uint32_t i = 0; i < n; i++) {
    VkPhysicalDeviceProperties p;
    props(devs[i], &p);
    *(p.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU ? cpus : others) += 1;
  }
  destroy(inst, NULL);
  return 0;
}

static int no_device(void) {
  int cpus, others;
  int rc = device_types(&cpus, &others) != 0 || cpus + others == 0;
  if (rc)
    fprintf(stderr, "no Vulkan device: skipped\n");
  return rc;
}

/* Automatic selection takes a GPU when there is one: skip where the test
 * expects lavapipe alone. */
static int not_cpu_only(void) {
  int cpus, others;
  int rc = device_types(&cpus, &others) != 0 || cpus == 0 || others > 0;
  if (rc)
    fprintf(stderr, "not a machine with only a CPU Vulkan device: skipped\n");
  return rc;
}

static const struct rt_test tests[] = {
    {"vadd", run_vadd, 0, {"n=1000 block=64: 0 wrong", "n=100003 block=256: 0 wrong",
                           "n=77 block=1024: 0 wrong"}, {"gpucc:", "CHECK"}, no_device},
    {"memory", run_memory, 0, {"memory done"}, {"gpucc:", "CHECK"}, no_device},
    {"streams", run_streams, 0, {"streams done"}, {"gpucc:", "CHECK"}, no_device},
    {"missing_cap",
     run_missing_cap,
     1,
     {"gpucc: runtime error: mgpuModuleGetFunction: the Vulkan device '",
      "' lacks subgroup clustered operations in compute shaders, which SPIR-V capability "
      "GroupNonUniformClustered of the module needs\n"},
     {"continued"},
     no_device},
    {"local_size",
     run_local_size,
     1,
     {"block 64 done\ngpucc: runtime error: mgpuLaunchKernel: kernel 'fixed' launched with block "
      "(128, 1, 1); it was compiled for block (64, 1, 1) only (spirv)\n"},
     {"continued"},
     no_device},
    {"param_count",
     run_param_count,
     1,
     {"gpucc: runtime error: mgpuLaunchKernel: kernel 'vadd' takes 5 parameters (its "
      "push-constant block), the launch passes 3\n"},
     {"continued"},
     no_device},
    {"smem",
     run_smem,
     1,
     {"gpucc: runtime error: mgpuLaunchKernel: kernel 'vadd' launched with 64 bytes of dynamic "
      "shared memory, which Vulkan does not have"},
     {"continued"},
     no_device},
    {"bad_spirv",
     run_bad_spirv,
     1,
     {"check: fatbin: spirv spirv of module 'kern': instruction at word 7 (opcode 17) runs past "
      "the end of the module\n",
      "check: fatbin: spirv spirv of module 'kern': instruction at word 7 (opcode 17) has a "
      "word count of 0\n",
      "check: fatbin: spirv spirv of module 'kern' is 30 bytes, not a whole number of words\n",
      "gpucc: runtime error: mgpuModuleGetFunction: the SPIR-V module is malformed: malformed "
      "instruction at word 7\n"},
     {"continued"},
     no_device},
    {"device_env",
     run_device_env,
     1,
     {"gpucc: runtime error: no GPU found (Vulkan: device 99 requested but ",
      " found; other backends not tried: GPUCC_BACKEND=vulkan); this program carries code for: "
      "spirv\n"},
     {"continued"},
     no_device},
    {"fatbin_list",
     run_fatbin_list,
     0,
     {"MODULE  VENDOR  TARGET  FORMAT  SIZE  STORED  NOTES\n",
      "kern    vulkan  spirv   spirv   ",
      "  caps: Shader,Int64,PhysicalStorageBufferAddresses\n"},
     {"CHECK", "error"},
     0},
    {"auto_cpu",
     run_auto_cpu,
     1,
     {"gpucc: log: vulkan: only a CPU Vulkan device (llvmpipe",
      "which carries code for: spirv; rebuild with --offload-arch=host (no GPU found: CUDA: "
      "/nonexistent not found (from GPUCC_CUDA_LIBRARY); HIP: /nonexistent not found (from "
      "GPUCC_HIP_LIBRARY); Vulkan: only a CPU Vulkan device (llvmpipe"},
     {"continued"},
     not_cpu_only},
    {"no_spirv",
     run_no_spirv,
     0,
     {"gpucc: log: vulkan: the program carries no SPIR-V: not looked for\n", "on the host\n"},
     {"libvulkan", "CHECK"},
     0},
    {"forced_no_spirv",
     run_forced_no_spirv,
     1,
     {"gpucc: runtime error: mgpuModuleGetFunction: no code for device 0 '",
      "' (spirv) in module 'kern', which carries code for: sm_80; rebuild with "
      "--offload-arch=spirv\n"},
     {"continued"},
     no_device},
};

int main(int argc, char **argv) {
  return rt_test_main(argc, argv, tests, sizeof tests / sizeof tests[0]);
}
