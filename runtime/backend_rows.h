/* backend_rows.h: the backends this runtime has, by name, for the lists
 * that order them (backend_list.c, a test build's own list). Nothing else
 * names a backend: what differs between them is in their rows. */
#ifndef GPUCC_BACKEND_ROWS_H
#define GPUCC_BACKEND_ROWS_H

#include "backend.h"

extern const struct rt_backend rt_backend_cuda;
extern const struct rt_backend rt_backend_hip;
extern const struct rt_backend rt_backend_vulkan;
extern const struct rt_backend rt_backend_host;

#endif
