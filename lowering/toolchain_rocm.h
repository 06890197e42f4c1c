/* toolchain_rocm.h: what the AMD kind finds of the ROCm pieces
 * (toolchain_rocm.c), for target_amd.c only. */
#ifndef GPUCC_TOOLCHAIN_ROCM_H
#define GPUCC_TOOLCHAIN_ROCM_H

#include "targets.h"

#include <stddef.h>

struct rocm_found {
  char bitcode[2300];  /* AMD device libraries (ocml.bc ...), "" if none */
  char ld_lld[1024];   /* ld.lld from LLVM 22 */
  const char *shim;    /* temp dir laid out as ROCDL serialization expects (rocm_shim) */
};

/* --rocm-path. */
#define ROCM_NOPTIONS 1
extern const struct kind_option rocm_options[ROCM_NOPTIONS];

/* The kind's find_tools: the device libraries of --rocm-path, $ROCM_PATH
 * or Debian's rocm-device-libs; LLVM 22's ld.lld. */
int rocm_find(const struct kind_arg *args, size_t nargs, int used, void **found);

/* Creates (once) the ROCm-layout shim directory of symlinks that ROCDL
 * serialization needs. Returns 0 or -1 (reported). */
int rocm_shim(struct rocm_found *r);

#endif
