/* bench_load.c: what it costs libgpucc_rt to pick and load one object out of
 * a fat binary of 8 targets, against handing that object to the driver
 * directly.
 *
 * The archive holds what gpucc builds for
 * --offload-arch=sm_70,sm_75,sm_80,sm_86,sm_89,sm_90,gfx90a,gfx942: six
 * cubins and two code objects of 200 KiB each. Their bytes are
 * pseudo-random "instructions" from one generator, each target changing
 * about one in sixteen of them, so that, like real objects of one program,
 * they compress somewhat on their own and much better against each other.
 * It is written with fatbin_write_ex in each compression mode, and one load
 * is what a program does at its first kernel lookup: mgpuModuleLoad +
 * mgpuModuleGetFunction (open the index, select the sm_86 cubin for a
 * compute capability 8.6 device, read and if need be inflate its frame and
 * its dictionary's, load it), then mgpuModuleUnload. Every load is a first
 * load: nothing inflated is kept from one to the next, as a program loads
 * each of its archives once. The baseline is cuModuleLoadData +
 * cuModuleGetFunction + cuModuleUnload of the raw cubin on the same fake
 * driver (FAKE_CUDA_MODE=bench: it only checks the image's tag), so the ratio
 * is the runtime's whole cost over a driver that does no work.
 *
 * Best round of several for each; prints times per load (issue 16 goal: under 100 us)
 * and ratios, and how much of a load is inflating the object
 * (fatbin_read_object on an open archive): with these objects, which
 * compress only 1.7x on their own, zstd alone takes longer than the goal.
 * No time is asserted.
 * Usage: bench_load [loads per round]   (default 20) */
#include <stdint.h>

#include "bench_driver.h"
#include "fatbin.h"
#include "gpucc_rt.h"

#define ROUNDS 5
#define NTARGETS 8
#define OBJECT_SIZE (200 * 1024)
#define CHOSEN 3 /* sm_86, what the device (FAKE_CUDA_CC=8.6) must get */

static const struct {
  enum fatbin_vendor vendor;
  const char *target;
  enum fatbin_format format;
  const char *tag; /* what the fake driver reads to accept or refuse it */
} targets[NTARGETS] = {
    {FATBIN_VENDOR_NVIDIA, "sm_70", FATBIN_FORMAT_CUBIN, "FAKECUBIN:sm_70"},
    {FATBIN_VENDOR_NVIDIA, "sm_75", FATBIN_FORMAT_CUBIN, "FAKECUBIN:sm_75"},
    {FATBIN_VENDOR_NVIDIA, "sm_80", FATBIN_FORMAT_CUBIN, "FAKECUBIN:sm_80"},
    {FATBIN_VENDOR_NVIDIA, "sm_86", FATBIN_FORMAT_CUBIN, "FAKECUBIN:sm_86"},
    {FATBIN_VENDOR_NVIDIA, "sm_89", FATBIN_FORMAT_CUBIN, "FAKECUBIN:sm_89"},
    {FATBIN_VENDOR_NVIDIA, "sm_90", FATBIN_FORMAT_CUBIN, "FAKECUBIN:sm_90"},
    {FATBIN_VENDOR_AMD, "gfx90a", FATBIN_FORMAT_HSACO, "FAKEHSACO:gfx90a"},
    {FATBIN_VENDOR_AMD, "gfx942", FATBIN_FORMAT_HSACO, "FAKEHSACO:gfx942"},
};

static uint64_t xorshift(uint64_t *s) {
  *s ^= *s << 13;
  *s ^= *s >> 7;
  *s ^= *s << 17;
  return *s;
}

/* One 8-byte instruction: an opcode of a small set, three registers, a
 * small immediate; the rest zero, as in real encodings. */
static void instruction(uint64_t *s, unsigned char out[8]) {
  uint64_t r = xorshift(s);
  memset(out, 0, 8);
  out[0] = (unsigned char)(r % 48);
  out[1] = (unsigned char)(r >> 8 & 63);
  out[2] = (unsigned char)(r >> 16 & 63);
  out[3] = (unsigned char)(r >> 24 & 63);
  if (r >> 32 & 1)
    out[4] = (unsigned char)(r >> 40);
}

/* The objects: a common stream of instructions, one in sixteen replaced
 * per target, the tag at the start. */
static void make_objects(unsigned char *obj[NTARGETS]) {
  for (int t = 0; t < NTARGETS; t++) {
    obj[t] = malloc(OBJECT_SIZE);
    BENCH_CHECK(obj[t] != NULL);
  }
  uint64_t common = 0x9e3779b97f4a7c15u;
  for (size_t at = 0; at < OBJECT_SIZE; at += 8) {
    unsigned char ins[8];
    instruction(&common, ins);
    for (int t = 0; t < NTARGETS; t++) {
      uint64_t mine = common ^ (uint64_t)(t + 1) * 0x2545f4914f6cdd1du;
      if (xorshift(&mine) % 16 == 0)
        instruction(&mine, obj[t] + at);
      else
        memcpy(obj[t] + at, ins, 8);
    }
  }
  for (int t = 0; t < NTARGETS; t++)
    memcpy(obj[t], targets[t].tag, strlen(targets[t].tag) + 1);
}

/* Seconds per load, best round, through the runtime. */
static double time_runtime(void *blob, size_t size, long n) {
  double best = 1e30;
  for (int round = 0; round < ROUNDS; round++) {
    double t0 = bench_now();
    for (long i = 0; i < n; i++) {
      void *m = mgpuModuleLoad(blob, size);
      BENCH_CHECK(mgpuModuleGetFunction(m, "k") != NULL);
      mgpuModuleUnload(m);
    }
    double t = (bench_now() - t0) / (double)n;
    if (t < best)
      best = t;
  }
  return best;
}

/* Seconds per fatbin_read_object of object k (its frames inflated, nothing
 * else), best round: the part of a load the compression costs. */
static double time_inflate(const struct fatbin *fb, size_t k, long n) {
  double best = 1e30;
  for (int round = 0; round < ROUNDS; round++) {
    double t0 = bench_now();
    for (long i = 0; i < n; i++) {
      const void *data;
      size_t size;
      void *to_free;
      char err[256];
      BENCH_CHECK(fatbin_read_object(fb, k, &data, &size, &to_free, err, sizeof err) == 0);
      free(to_free);
    }
    double t = (bench_now() - t0) / (double)n;
    if (t < best)
      best = t;
  }
  return best;
}

/* Seconds per load, best round, directly on the driver. */
static double time_direct(const struct bench_cu *cu, const void *object, long n) {
  double best = 1e30;
  for (int round = 0; round < ROUNDS; round++) {
    double t0 = bench_now();
    for (long i = 0; i < n; i++) {
      void *m, *f;
      BENCH_CHECK(cu->ModuleLoadData(&m, object) == 0);
      BENCH_CHECK(cu->ModuleGetFunction(&f, m, "k") == 0);
      cu->ModuleUnload(m);
    }
    double t = (bench_now() - t0) / (double)n;
    if (t < best)
      best = t;
  }
  return best;
}

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 20;
  BENCH_CHECK(n > 0);
  unsigned char *obj[NTARGETS];
  make_objects(obj);
  struct fatbin_entry entries[NTARGETS];
  for (int t = 0; t < NTARGETS; t++)
    entries[t] = (struct fatbin_entry){"bench", targets[t].vendor, targets[t].target,
                                       targets[t].format, obj[t], OBJECT_SIZE, NULL};

  /* The runtime starts (and the fake driver with it) before the direct side
   * opens the same driver; a warm-up load leaves first-use costs out. */
  void *start = mgpuMemAlloc(1, NULL, false);
  BENCH_CHECK(start != NULL);
  mgpuMemFree(start, NULL);
  BENCH_CHECK(gpuccBackendName() && strcmp(gpuccBackendName(), "cuda") == 0);
  struct bench_cu cu;
  bench_cu_open(&cu);
  double direct = time_direct(&cu, obj[CHOSEN], n * 100);

  printf("load 1 of %d objects (%d KiB each) for an sm_86 device, best of %d rounds of %ld:\n",
         NTARGETS, OBJECT_SIZE / 1024, ROUNDS, n);
  printf("  cuModuleLoadData of the raw cubin directly: %8.2f us per load\n", direct * 1e6);
  const enum fatbin_compress modes[] = {FATBIN_COMPRESS_NONE, FATBIN_COMPRESS_FAST,
                                        FATBIN_COMPRESS_SIZE};
  for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++) {
    void *blob;
    size_t size;
    char err[256];
    double w0 = bench_now();
    if (fatbin_write_ex(entries, NTARGETS, NULL, modes[i], &blob, &size, err, sizeof err) != 0) {
      fprintf(stderr, "fatbin_write_ex: %s\n", err);
      return 1;
    }
    double written = bench_now() - w0;
    /* How many bytes a load inflates: the frame holding the chosen object
     * and its dictionary's frame. */
    struct fatbin *fb;
    BENCH_CHECK(fatbin_open(blob, size, &fb, err, sizeof err) == 0);
    size_t inflated = 0, chosen = 0;
    for (size_t k = 0; k < fatbin_count(fb); k++)
      if (strcmp(fatbin_get(fb, k)->target, "sm_86") == 0) {
        chosen = k;
        inflated = fatbin_get_info(fb, k)->frame ? fatbin_get_info(fb, k)->frame_size +
                                                       fatbin_get_info(fb, k)->dict_size
                                                 : 0;
      }
    double inflate = time_inflate(fb, chosen, n);
    fatbin_close(fb);

    void *m = mgpuModuleLoad(blob, size); /* warm-up: page in the code paths */
    BENCH_CHECK(mgpuModuleGetFunction(m, "k") != NULL);
    mgpuModuleUnload(m);
    double t = time_runtime(blob, size, n);
    printf("  mgpuModuleLoad+GetFunction, compression %-4s%s: %8.2f us per load "
           "(goal < 100, issue 16), ratio %.0fx; archive %zu KiB (written in %.0f ms), "
           "inflates %zu KiB per load, in %.2f us (fatbin_read_object alone)\n",
           fatbin_compress_name(modes[i]), modes[i] == FATBIN_COMPRESS_DEFAULT ? " (default)" : "",
           t * 1e6, t / direct, size / 1024, written * 1e3, inflated / 1024, inflate * 1e6);
    free(blob);
  }
  for (int t = 0; t < NTARGETS; t++)
    free(obj[t]);
  return 0;
}
