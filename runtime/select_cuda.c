/* select_cuda.c: which NVIDIA object runs on a CUDA device, and what else
 * the runtime's shared code asks of NVIDIA chips (the CUDA backend's
 * struct rt_selection). The rules mirror what the driver itself accepts,
 * for a device of compute capability X.Y (sm = 10X + Y, its arch "sm_XY"):
 *
 *   1. a cubin for exactly sm_XY; "sm_XYa" is preferred over "sm_XYf" over
 *      "sm_XY" because the variants carry more specific instructions;
 *   2. a cubin sm_XZ with Z < Y (same major): SASS is binary compatible upward
 *      within a major version; the newest such Z wins. Arch-specific "a"
 *      cubins run only on their exact chip and never qualify here;
 *   3. PTX for the newest sm <= the device's, JIT-compiled by the driver. PTX
 *      for an "a" target only JITs for that exact chip, an "f" one only within
 *      its major. */
#include "select_cuda.h"

#include <stdio.h>
#include <string.h>

int rt_parse_nv_target(const char *t, int *sm, char *variant) {
  if (!t || strncmp(t, "sm_", 3) != 0)
    return -1;
  const char *p = t + 3;
  int v = 0, digits = 0;
  while (*p >= '0' && *p <= '9' && digits < 4) {
    v = v * 10 + (*p - '0');
    p++;
    digits++;
  }
  /* Two digits at least: "sm_9" is not a name any tool produces. */
  if (digits < 2)
    return -1;
  char var = 0;
  if (*p == 'a' || *p == 'f')
    var = *p++;
  if (*p != '\0')
    return -1;
  *sm = v;
  *variant = var;
  return 0;
}

/* Orders variants for tie-breaking among otherwise equal candidates. */
static int cuda_variant_rank(char variant) {
  return variant == 'a' ? 2 : variant == 'f' ? 1 : 0;
}

/* The device's sm, from its arch; 0 when that is not an NVIDIA target. */
static int cuda_device_sm(const struct rt_device *dev) {
  int sm;
  char variant;
  return rt_parse_nv_target(dev->arch, &sm, &variant) == 0 ? sm : 0;
}

/* Tiers: 3 exact cubin, 2 same-major cubin, 1 PTX. */
static struct rt_score cuda_score(const struct fatbin_entry *e, const struct rt_device *dev) {
  struct rt_score k = {0, 0, 0};
  int sm, dev_sm = cuda_device_sm(dev);
  char var;
  if (!dev_sm || rt_parse_nv_target(e->target, &sm, &var) != 0)
    return k;
  int same_major = sm / 10 == dev_sm / 10;
  if (e->format == FATBIN_FORMAT_CUBIN) {
    if (sm == dev_sm)
      k = (struct rt_score){3, cuda_variant_rank(var), 0};
    else if (same_major && sm < dev_sm && var != 'a')
      k = (struct rt_score){2, sm, 0};
  } else if (e->format == FATBIN_FORMAT_PTX) {
    int ok = var == 'a'   ? sm == dev_sm
             : var == 'f' ? same_major && sm <= dev_sm
                          : sm <= dev_sm;
    if (ok)
      k = (struct rt_score){1, sm, cuda_variant_rank(var)};
  }
  return k;
}

static void cuda_explain(const struct fatbin_entry *e, const struct rt_device *dev,
                         struct rt_score s, char *why, size_t whylen) {
  int sm = cuda_device_sm(dev), major = sm / 10, minor = sm % 10;
  if (s.tier == 3)
    snprintf(why, whylen, "%s cubin: exact match for compute capability %d.%d",
             e->target, major, minor);
  else if (s.tier == 2)
    snprintf(why, whylen,
             "%s cubin: runs on compute capability %d.%d (same major version, "
             "older minor; no cubin for %s)",
             e->target, major, minor, dev->arch);
  else
    snprintf(why, whylen,
             "%s PTX: JIT-compiled by the driver for compute capability %d.%d "
             "(no compatible cubin)",
             e->target, major, minor);
}

/* Shared memory a block may have, opt-in included (the runtime opts in to
 * every launch's dynamic bytes), by compute capability (CUDA C Programming
 * Guide, "Technical Specifications per Compute Capability"). A chip missing
 * here takes the newest one before it: sm_103 is sm_100's, sm_121 sm_120's. */
static const struct {
  int sm;
  uint64_t bytes;
} cuda_shared[] = {
    {0, 48 << 10},   {70, 96 << 10},  {75, 64 << 10},  {80, 163 << 10}, {86, 99 << 10},
    {87, 163 << 10}, {89, 99 << 10},  {90, 227 << 10}, {100, 227 << 10}, {120, 99 << 10},
};

static uint64_t cuda_max_shared(const char *target) {
  int sm;
  char variant;
  if (rt_parse_nv_target(target, &sm, &variant) != 0)
    return cuda_shared[0].bytes;
  uint64_t bytes = cuda_shared[0].bytes;
  for (size_t i = 0; i < sizeof cuda_shared / sizeof cuda_shared[0]; i++)
    if (cuda_shared[i].sm <= sm)
      bytes = cuda_shared[i].bytes;
  return bytes;
}

/* PTX as emitted by LLVM starts with comments and directives and declares its
 * .target early; look for that in the first few KiB. */
static int cuda_looks_like_ptx(const unsigned char *d, size_t size) {
  size_t i = 0;
  while (i < size && (d[i] == ' ' || d[i] == '\t' || d[i] == '\n' || d[i] == '\r'))
    i++;
  if (i == size || (d[i] != '/' && d[i] != '.'))
    return 0;
  size_t limit = size < 8192 ? size : 8192;
  static const char needle[] = ".target";
  for (size_t j = i; j + sizeof needle - 1 <= limit; j++)
    if (memcmp(d + j, needle, sizeof needle - 1) == 0)
      return 1;
  return 0;
}

/* What upstream's gpu-module-to-binary writes for NVIDIA: a cubin (ELF
 * EM_CUDA), a CUDA fatbin (magic 0xba55ed50), PTX text (the CUDA driver
 * needs its NUL). */
static const struct rt_plain_image cuda_images[] = {
    {"cubin", 190, NULL, 0, NULL, 0},
    {"CUDA fatbin", 0, "\x50\xed\x55\xba", 4, NULL, 0},
    {"PTX", 0, NULL, 0, cuda_looks_like_ptx, 1},
};

const struct rt_selection rt_selection_cuda = {
    .vendor = FATBIN_VENDOR_NVIDIA,
    .vendor_label = "NVIDIA",
    .score = cuda_score,
    .explain = cuda_explain,
    .max_shared = cuda_max_shared,
    .images = cuda_images,
    .nimages = sizeof cuda_images / sizeof cuda_images[0],
};
