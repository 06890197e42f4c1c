/* native_probe.c: see native_probe.h. */
#include "native_probe.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *native_open_first(const char *env, const char *const *names) {
  const char *forced = getenv(env);
  if (forced && *forced)
    return dlopen(forced, RTLD_NOW | RTLD_LOCAL);
  for (; *names; names++) {
    void *h = dlopen(*names, RTLD_NOW | RTLD_LOCAL);
    if (h)
      return h;
  }
  return NULL;
}

void native_add(struct native_found *f, const char *chip) {
  /* Two identical GPUs need one target. */
  char padded[80], have[sizeof f->list + 2];
  snprintf(padded, sizeof padded, ",%s,", chip);
  snprintf(have, sizeof have, ",%s,", f->list);
  if (strstr(have, padded))
    return;
  size_t n = strlen(f->list);
  snprintf(f->list + n, sizeof f->list - n, "%s%s", n ? "," : "", chip);
}

void native_why(struct native_found *f, const char *why) {
  size_t n = strlen(f->why);
  snprintf(f->why + n, sizeof f->why - n, "%s%s", n ? "; " : "", why);
}
