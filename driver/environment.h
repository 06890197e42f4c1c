/* environment.h: every environment variable gpucc, its runtime
 * (libgpucc_rt, in the programs gpucc builds) and gpucc-fatbin read, for
 * the man page's ENVIRONMENT section. A variable read anywhere in the tree
 * belongs here: tests/driver/cache_stats.sh compares this list with the
 * getenv calls in the sources. */
#ifndef GPUCC_ENVIRONMENT_H
#define GPUCC_ENVIRONMENT_H

#include <stddef.h>

struct environment_variable {
  const char *name;
  const char *what; /* one line */
};

extern const struct environment_variable environment_variables[];
extern const size_t environment_variable_count;

#endif
