/* select_hip.c: which AMD object runs on a HIP device, and what else the
 * runtime's shared code asks of AMD chips (the HIP backend's struct
 * rt_selection). The device is its gfx processor (arch) plus the
 * xnack/sramecc modes its driver's target id spells (target_id,
 * "gfx90a:sramecc+:xnack-"):
 *
 *   the processor must be equal; each feature written in the object's target
 *   (xnack+ / xnack-) must equal the device's mode, an absent one matches any
 *   mode. Among compatible objects, the one that names more of the device's
 *   modes wins (code built for a fixed mode is faster than "any"). When the
 *   driver does not report a mode, objects that fix it are still accepted but
 *   rank below those that do not. */
#include "select_hip.h"

#include <stdio.h>
#include <string.h>

static int hip_parse_feature(const char *f, size_t n, struct rt_amd_target *out) {
  if (n < 2)
    return -1;
  enum rt_feature state;
  if (f[n - 1] == '+')
    state = RT_FEATURE_ON;
  else if (f[n - 1] == '-')
    state = RT_FEATURE_OFF;
  else
    return -1;
  if (n - 1 == 5 && strncmp(f, "xnack", 5) == 0)
    out->xnack = state;
  else if (n - 1 == 7 && strncmp(f, "sramecc", 7) == 0)
    out->sramecc = state;
  else
    return -1;
  return 0;
}

int rt_parse_amd_target(const char *t, struct rt_amd_target *out) {
  if (!t || strncmp(t, "gfx", 3) != 0)
    return -1;
  memset(out, 0, sizeof *out);
  out->xnack = out->sramecc = RT_FEATURE_ANY;
  /* "gfx" then a digit, then digits, letters or dashes ("gfx90a",
   * "gfx10-3-generic"). */
  size_t plen = strcspn(t, ":");
  if (plen <= 3 || plen >= sizeof out->processor || t[3] < '0' || t[3] > '9')
    return -1;
  for (size_t i = 4; i < plen; i++)
    if (!((t[i] >= '0' && t[i] <= '9') || (t[i] >= 'a' && t[i] <= 'z') || t[i] == '-'))
      return -1;
  memcpy(out->processor, t, plen);
  out->processor[plen] = '\0';
  const char *p = t + plen;
  while (*p == ':') {
    p++;
    size_t n = strcspn(p, ":");
    if (hip_parse_feature(p, n, out) != 0)
      return -1;
    p += n;
  }
  return 0;
}

/* Scores one feature: -1 incompatible, otherwise how well it fits. */
static int hip_feature_score(enum rt_feature obj, enum rt_feature dev) {
  if (obj == RT_FEATURE_ANY)
    return 1;
  if (dev == RT_FEATURE_ANY)
    return 0; /* the driver did not say: accept, but prefer "any" code */
  return obj == dev ? 2 : -1;
}

static struct rt_score hip_score(const struct fatbin_entry *e, const struct rt_device *dev) {
  struct rt_score k = {0, 0, 0};
  struct rt_amd_target t, d, modes;
  if (e->format != FATBIN_FORMAT_HSACO || rt_parse_amd_target(e->target, &t) != 0)
    return k;
  /* The device's processor comes from its arch; its modes from its target
   * id, as the driver reported it (none said: any). */
  if (rt_parse_amd_target(dev->arch, &d) != 0 || strcmp(t.processor, d.processor) != 0)
    return k;
  if (rt_parse_amd_target(dev->target_id, &modes) != 0)
    modes = d;
  int x = hip_feature_score(t.xnack, modes.xnack);
  int s = hip_feature_score(t.sramecc, modes.sramecc);
  if (x < 0 || s < 0)
    return k;
  return (struct rt_score){1, x + s, 0};
}

static void hip_explain(const struct fatbin_entry *e, const struct rt_device *dev,
                        struct rt_score s, char *why, size_t whylen) {
  (void)s;
  snprintf(why, whylen, "%s code object: compatible with %s", e->target,
           dev->target_id[0] ? dev->target_id : dev->arch);
}

/* The processor alone, so that the program runs in either mode. */
static void hip_suggest_arch(const struct rt_device *dev, char *buf, size_t len) {
  struct rt_amd_target t;
  if (rt_parse_amd_target(dev->arch, &t) == 0)
    snprintf(buf, len, "%s", t.processor);
  else
    snprintf(buf, len, "%s", dev->arch);
}

/* LDS per workgroup: 64 KiB on every gfx9 to gfx12 chip but gfx950's. */
static uint64_t hip_max_shared(const char *target) {
  struct rt_amd_target t;
  if (rt_parse_amd_target(target, &t) == 0 && strcmp(t.processor, "gfx950") == 0)
    return 160 << 10;
  return 64 << 10;
}

/* What upstream's gpu-module-to-binary writes for AMD, and HIP loads: a
 * code object (ELF EM_AMDGPU) or a clang offload bundle. */
static const struct rt_plain_image hip_images[] = {
    {"AMD code object", 224, NULL, 0, NULL, 0},
    {"clang offload bundle", 0, "__CLANG_OFFLOAD_BUNDLE__", 24, NULL, 0},
};

const struct rt_selection rt_selection_hip = {
    .vendor = FATBIN_VENDOR_AMD,
    .vendor_label = "AMD",
    .score = hip_score,
    .explain = hip_explain,
    .suggest_arch = hip_suggest_arch,
    .max_shared = hip_max_shared,
    .images = hip_images,
    .nimages = sizeof hip_images / sizeof hip_images[0],
};
