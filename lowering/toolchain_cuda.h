/* toolchain_cuda.h: what the NVIDIA kind finds of the CUDA toolkit
 * (toolchain_cuda.c), for target_nvidia.c only. */
#ifndef GPUCC_TOOLCHAIN_CUDA_H
#define GPUCC_TOOLCHAIN_CUDA_H

#include "targets.h"

#include <stddef.h>

struct cuda_found {
  char path[1024];      /* the toolkit, "" when none was found */
  char ptxas[2300];     /* "" when no ptxas: NVIDIA targets ship PTX only */
  int max_ptx;          /* highest PTX ISA (x10) the ptxas accepts, 0: not asked */
  char version[32];     /* the CUDA release ptxas reports ("13.0"), "" when not asked */
  char libdevice[2300]; /* nvvm/libdevice/libdevice.10.bc, "" when the toolkit lacks it */
  char nvlink[2300];    /* bin/nvlink, "" when none: modules are finished whole */
  const char **ptxas_args; /* -Xptxas, in order */
  size_t nptxas_args;
};

/* --cuda-path, -Xptxas. */
#define CUDA_NOPTIONS 2
extern const struct kind_option cuda_options[CUDA_NOPTIONS];

/* The kind's find_tools: the toolkit of --cuda-path, $CUDA_PATH or
 * /usr/local/cuda; ptxas is asked its release only when `used`. */
int cuda_find(const struct kind_arg *args, size_t nargs, int used, void **found);

#endif
