/* environment.h: every environment variable gpucc, its runtime
 * (libgpucc_rt, in the programs gpucc builds) and gpucc-fatbin read, for
 * the man page's ENVIRONMENT section. A variable read anywhere in the tree
 * belongs here: tests/driver/cache_stats.sh compares this list with the
 * getenv calls in the sources. */
#ifndef GPUCC_ENVIRONMENT_H
#define GPUCC_ENVIRONMENT_H

#include <stddef.h>

struct environment_variable {
  const char *name; /* NULL: where the kinds' own variables go (targets.h) */
  const char *what; /* one line; NULL: GPUCC_BACKEND, whose values are the kinds' backends */
};

extern const struct environment_variable environment_variables[];
extern const size_t environment_variable_count;

#endif
