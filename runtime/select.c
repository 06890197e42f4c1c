/* select.c: the rules that pick one object of a fat binary for a device.
 *
 * A gpu.module compiled for several targets reaches the runtime as a list of
 * objects (cubin and PTX per NVIDIA target, hsaco per AMD target id). This file
 * decides which of them the present device can run, and which of those is best,
 * without touching a driver: the caller describes the device in a struct
 * rt_device. The rules mirror what the vendors' own loaders accept:
 *
 * NVIDIA (compute capability X.Y, sm = 10X + Y):
 *   1. a cubin for exactly sm_XY; "sm_XYa" is preferred over "sm_XYf" over
 *      "sm_XY" because the variants carry more specific instructions;
 *   2. a cubin sm_XZ with Z < Y (same major): SASS is binary compatible upward
 *      within a major version; the newest such Z wins. Arch-specific "a"
 *      cubins run only on their exact chip and never qualify here;
 *   3. PTX for the newest sm <= the device's, JIT-compiled by the driver. PTX
 *      for an "a" target only JITs for that exact chip, an "f" one only within
 *      its major.
 * AMD (gfx processor plus xnack/sramecc modes):
 *   the processor must be equal; each feature written in the object's target
 *   (xnack+ / xnack-) must equal the device's mode, an absent one matches any
 *   mode. Among compatible objects, the one that names more of the device's
 *   modes wins (code built for a fixed mode is faster than "any"). When the
 *   driver does not report a mode, objects that fix it are still accepted but
 *   rank below those that do not. */
#include "select.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Appends to a NUL-terminated buffer, truncating silently. */
static void sel_appendf(char *buf, size_t len, const char *fmt, ...) {
  size_t used = strlen(buf);
  if (used + 1 >= len)
    return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf + used, len - used, fmt, ap);
  va_end(ap);
}

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

static int sel_parse_feature(const char *f, size_t n, struct rt_amd_target *out) {
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
    if (sel_parse_feature(p, n, out) != 0)
      return -1;
    p += n;
  }
  return 0;
}

/* Orders NVIDIA variants for tie-breaking among otherwise equal candidates. */
static int sel_variant_rank(char variant) {
  return variant == 'a' ? 2 : variant == 'f' ? 1 : 0;
}

/* A candidate's key: compared lexicographically, larger is better. */
struct sel_key {
  int tier;
  int a, b;
};

static int sel_better(struct sel_key x, struct sel_key y) {
  if (x.tier != y.tier)
    return x.tier > y.tier;
  if (x.a != y.a)
    return x.a > y.a;
  return x.b > y.b;
}

/* Tier 0 means "cannot run on this device". */
static struct sel_key sel_nv_key(const struct fatbin_entry *e, int dev_sm) {
  struct sel_key k = {0, 0, 0};
  int sm;
  char var;
  if (rt_parse_nv_target(e->target, &sm, &var) != 0)
    return k;
  int same_major = sm / 10 == dev_sm / 10;
  if (e->format == FATBIN_FORMAT_CUBIN) {
    if (sm == dev_sm)
      k = (struct sel_key){3, sel_variant_rank(var), 0};
    else if (same_major && sm < dev_sm && var != 'a')
      k = (struct sel_key){2, sm, 0};
  } else if (e->format == FATBIN_FORMAT_PTX) {
    int ok = var == 'a'   ? sm == dev_sm
             : var == 'f' ? same_major && sm <= dev_sm
                          : sm <= dev_sm;
    if (ok)
      k = (struct sel_key){1, sm, sel_variant_rank(var)};
  }
  return k;
}

/* Scores one feature: -1 incompatible, otherwise how well it fits. */
static int sel_feature_score(enum rt_feature obj, enum rt_feature dev) {
  if (obj == RT_FEATURE_ANY)
    return 1;
  if (dev == RT_FEATURE_ANY)
    return 0; /* the driver did not say: accept, but prefer "any" code */
  return obj == dev ? 2 : -1;
}

static struct sel_key sel_amd_key(const struct fatbin_entry *e,
                                  const struct rt_device *dev) {
  struct sel_key k = {0, 0, 0};
  struct rt_amd_target t, d;
  if (e->format != FATBIN_FORMAT_HSACO || rt_parse_amd_target(e->target, &t) != 0)
    return k;
  /* The device's processor comes from its arch; its modes from the struct
   * (the backend parsed them from the driver's target id). */
  if (rt_parse_amd_target(dev->arch, &d) != 0 || strcmp(t.processor, d.processor) != 0)
    return k;
  int x = sel_feature_score(t.xnack, dev->xnack);
  int s = sel_feature_score(t.sramecc, dev->sramecc);
  if (x < 0 || s < 0)
    return k;
  return (struct sel_key){1, x + s, 0};
}

static void sel_nv_why(const struct fatbin_entry *e, const struct rt_device *dev,
                       int tier, char *why, size_t whylen) {
  int major = dev->sm / 10, minor = dev->sm % 10;
  if (tier == 3)
    snprintf(why, whylen, "%s cubin: exact match for compute capability %d.%d",
             e->target, major, minor);
  else if (tier == 2)
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

long rt_select(const struct fatbin_entry *entries, size_t n,
               const struct rt_device *dev, char *why, size_t whylen) {
  long best = -1;
  struct sel_key best_key = {0, 0, 0};
  if (whylen)
    why[0] = '\0';
  for (size_t i = 0; i < n; i++) {
    const struct fatbin_entry *e = &entries[i];
    if (e->vendor != dev->vendor || !e->target)
      continue;
    struct sel_key k = {0, 0, 0};
    if (dev->vendor == FATBIN_VENDOR_NVIDIA)
      k = sel_nv_key(e, dev->sm);
    else if (dev->vendor == FATBIN_VENDOR_AMD)
      k = sel_amd_key(e, dev);
    else if (dev->vendor == FATBIN_VENDOR_HOST &&
             (e->format == FATBIN_FORMAT_SO || e->format == FATBIN_FORMAT_SO_REF))
      k = (struct sel_key){1, 0, 0};
    if (k.tier > 0 && (best < 0 || sel_better(k, best_key))) {
      best = (long)i;
      best_key = k;
    }
  }
  if (best < 0 || !whylen)
    return best;
  const struct fatbin_entry *e = &entries[best];
  if (dev->vendor == FATBIN_VENDOR_NVIDIA)
    sel_nv_why(e, dev, best_key.tier, why, whylen);
  else if (dev->vendor == FATBIN_VENDOR_AMD)
    snprintf(why, whylen, "%s code object: compatible with %s", e->target,
             dev->target_id[0] ? dev->target_id : dev->arch);
  else
    snprintf(why, whylen, "%s shared object%s", e->target,
             e->format == FATBIN_FORMAT_SO_REF ? " (the program's, shared by its modules)" : "");
  return best;
}

void rt_describe_targets(const struct fatbin_entry *entries, size_t n,
                         char *buf, size_t len) {
  static const enum fatbin_vendor order[] = {FATBIN_VENDOR_NVIDIA, FATBIN_VENDOR_AMD,
                                             FATBIN_VENDOR_HOST};
  for (size_t v = 0; v < sizeof order / sizeof order[0]; v++) {
    for (size_t i = 0; i < n; i++) {
      if (entries[i].vendor != order[v] || !entries[i].target)
        continue;
      /* Skip a target already listed (a cubin and a PTX share their name). */
      size_t j = 0;
      while (j < i && !(entries[j].vendor == order[v] && entries[j].target &&
                        strcmp(entries[j].target, entries[i].target) == 0))
        j++;
      if (j < i)
        continue;
      sel_appendf(buf, len, "%s%s", buf[0] ? " " : "", entries[i].target);
    }
  }
}

void rt_suggest_arch(const struct rt_device *dev, char *buf, size_t len) {
  struct rt_amd_target t;
  if (dev->vendor == FATBIN_VENDOR_AMD && rt_parse_amd_target(dev->arch, &t) == 0)
    snprintf(buf, len, "%s", t.processor);
  else
    snprintf(buf, len, "%s", dev->arch);
}
