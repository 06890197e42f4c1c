/* native_probe.h: what the kinds' --offload-arch=native probes share
 * (struct target_kind's native_probe). The driver runs every kind's probe
 * in one child process (driver/native.c), so that the GPU drivers they load
 * never live in gpucc itself. */
#ifndef GPUCC_NATIVE_PROBE_H
#define GPUCC_NATIVE_PROBE_H

#include <stddef.h>

struct native_found {
  char list[4096]; /* chips found, comma separated, each once */
  char why[512];   /* why kinds found none ("CUDA: no device"), "; " separated */
};

/* dlopen()s $env when it is set, else the first of names that loads;
 * NULL when none does. */
void *native_open_first(const char *env, const char *const *names);

/* Adds one chip ("sm_90", "gfx942") to f->list, unless it is there. */
void native_add(struct native_found *f, const char *chip);

/* Says why a kind found no GPU. */
void native_why(struct native_found *f, const char *why);

#endif
