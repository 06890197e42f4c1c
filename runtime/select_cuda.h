/* select_cuda.h: the CUDA backend's selection rules (select_cuda.c), apart
 * from its driver code (backend_cuda.c) so that tests link them alone. */
#ifndef GPUCC_RT_SELECT_CUDA_H
#define GPUCC_RT_SELECT_CUDA_H

#include "select.h"

extern const struct rt_selection rt_selection_cuda;

/* "sm_90" -> 90, variant 0; "sm_90a" -> 90, 'a'; "sm_100f" -> 100, 'f'.
 * Returns 0, or -1 if t is not an NVIDIA target. */
int rt_parse_nv_target(const char *t, int *sm, char *variant);

#endif
