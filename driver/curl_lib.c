/* curl_lib.c: see curl_lib.h. */
#include "curl_lib.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct curl_lib lib;
static int loaded;

/* One symbol into its slot. POSIX guarantees that dlsym's object pointer
 * converts to a function pointer; copying its bytes says so without the
 * cast ISO C does not define. */
static int bind_symbol(void *dl, const char *name, void *slot, char *why, size_t whylen) {
  void *sym = dlsym(dl, name);
  if (!sym) {
    snprintf(why, whylen, "it has no '%s'", name);
    return -1;
  }
  memcpy(slot, &sym, sizeof sym);
  return 0;
}

const struct curl_lib *curl_lib_load(char *why, size_t whylen) {
  if (loaded)
    return &lib;
  const char *env = getenv("GPUCC_CURL_LIBRARY");
  const char *path = env && *env ? env : "libcurl.so.4";
  void *dl = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!dl) {
    const char *e = dlerror();
    snprintf(why, whylen, "cannot load %s: %s", path, e ? e : "unknown error");
    return NULL;
  }
  struct curl_lib l;
  if (bind_symbol(dl, "curl_global_init", &l.global_init, why, whylen) ||
      bind_symbol(dl, "curl_easy_init", &l.easy_init, why, whylen) ||
      bind_symbol(dl, "curl_easy_reset", &l.easy_reset, why, whylen) ||
      bind_symbol(dl, "curl_easy_setopt", &l.easy_setopt, why, whylen) ||
      bind_symbol(dl, "curl_easy_perform", &l.easy_perform, why, whylen) ||
      bind_symbol(dl, "curl_easy_getinfo", &l.easy_getinfo, why, whylen) ||
      bind_symbol(dl, "curl_easy_strerror", &l.easy_strerror, why, whylen) ||
      bind_symbol(dl, "curl_slist_append", &l.slist_append, why, whylen) ||
      bind_symbol(dl, "curl_slist_free_all", &l.slist_free_all, why, whylen)) {
    dlclose(dl);
    return NULL;
  }
  lib = l;
  loaded = 1; /* kept open for the rest of the run */
  return &lib;
}
