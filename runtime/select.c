/* select.c: picking one object of a fat binary for a device.
 *
 * A gpu.module compiled for several targets reaches the runtime as a list of
 * objects (cubin and PTX per NVIDIA target, hsaco per AMD target id, a
 * shared object for the host). Which of them the present device can run,
 * and which of those is best, is its backend's rule (dev->select: the
 * scores of select_cuda.c, select_hip.c, select_host.c); this file only
 * applies it, without touching a driver, and knows no vendor. */
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

static int sel_better(struct rt_score x, struct rt_score y) {
  if (x.tier != y.tier)
    return x.tier > y.tier;
  if (x.a != y.a)
    return x.a > y.a;
  return x.b > y.b;
}

long rt_select(const struct fatbin_entry *entries, size_t n,
               const struct rt_device *dev, char *why, size_t whylen) {
  const struct rt_selection *s = dev->select;
  long best = -1;
  struct rt_score best_score = {0, 0, 0};
  if (whylen)
    why[0] = '\0';
  for (size_t i = 0; i < n; i++) {
    const struct fatbin_entry *e = &entries[i];
    if (e->vendor != s->vendor || !e->target)
      continue;
    struct rt_score k = s->score(e, dev);
    if (k.tier > 0 && (best < 0 || sel_better(k, best_score))) {
      best = (long)i;
      best_score = k;
    }
  }
  if (best >= 0 && whylen)
    s->explain(&entries[best], dev, best_score, why, whylen);
  return best;
}

/* Whether entry i's vendor and target appeared before it (a cubin and a PTX
 * share their name). */
static int sel_listed(const struct fatbin_entry *entries, size_t i) {
  for (size_t j = 0; j < i; j++)
    if (entries[j].vendor == entries[i].vendor && entries[j].target &&
        strcmp(entries[j].target, entries[i].target) == 0)
      return 1;
  return 0;
}

void rt_describe_targets(const struct fatbin_entry *entries, size_t n,
                         char *buf, size_t len) {
  /* Each vendor present, from the lowest id up: the next one is the least
   * id above the one just listed. */
  int have = 0;
  enum fatbin_vendor v = 0;
  for (;;) {
    int found = 0;
    enum fatbin_vendor next = 0;
    for (size_t i = 0; i < n; i++) {
      if (!entries[i].target || (have && entries[i].vendor <= v))
        continue;
      if (!found || entries[i].vendor < next)
        next = entries[i].vendor;
      found = 1;
    }
    if (!found)
      return;
    v = next;
    have = 1;
    for (size_t i = 0; i < n; i++)
      if (entries[i].vendor == v && entries[i].target && !sel_listed(entries, i))
        sel_appendf(buf, len, "%s%s", buf[0] ? " " : "", entries[i].target);
  }
}

void rt_suggest_arch(const struct rt_device *dev, char *buf, size_t len) {
  if (dev->select && dev->select->suggest_arch)
    dev->select->suggest_arch(dev, buf, len);
  else
    snprintf(buf, len, "%s", dev->arch);
}
