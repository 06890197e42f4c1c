/* dynlib.c: finding a vendor driver library at run time.
 *
 * The runtime links no vendor library: a program built for NVIDIA and AMD must
 * start on a machine that has only one of them, or none. Each backend names
 * the files it knows (libcuda.so.1; libamdhip64.so and its versioned names)
 * and an environment variable that replaces them (GPUCC_CUDA_LIBRARY,
 * GPUCC_HIP_LIBRARY: for a driver in an unusual place, and for the tests'
 * fake drivers). The reason for a failure is kept short because it ends up in
 * the one-line "no GPU found (...)" message. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt.h"

/* Tries one file; on failure records the reason unless a better one (a file
 * that exists but does not load) is already there. */
static void *rt_try_dlopen(const char *name, int *found_broken, char *why,
                           size_t whylen) {
  void *h = dlopen(name, RTLD_NOW | RTLD_LOCAL);
  if (h) {
    rt_log("loaded %s", name);
    return h;
  }
  const char *err = dlerror();
  if (err && !strstr(err, "No such file or directory")) {
    /* It exists but cannot be used (wrong architecture, missing
     * dependency...): that is worth telling, and beats "not found". */
    if (!*found_broken)
      snprintf(why, whylen, "cannot load %s: %s", name, err);
    *found_broken = 1;
  }
  rt_log("cannot load %s: %s", name, err ? err : "unknown error");
  return NULL;
}

void *rt_dlopen_first(const char *env_override, const char *const names[],
                      char *why, size_t whylen) {
  int found_broken = 0;
  const char *forced = env_override ? getenv(env_override) : NULL;
  if (forced && *forced) {
    void *h = rt_try_dlopen(forced, &found_broken, why, whylen);
    if (!h && !found_broken)
      snprintf(why, whylen, "%s not found (from %s)", forced, env_override);
    return h;
  }
  for (size_t i = 0; names[i]; i++) {
    void *h = rt_try_dlopen(names[i], &found_broken, why, whylen);
    if (h)
      return h;
  }
  if (!found_broken)
    snprintf(why, whylen, "%s not found", names[0]);
  return NULL;
}
