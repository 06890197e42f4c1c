/* device_subgroup.h: gpu.subgroup_reduce and the subgroup ids written with
 * shuffles and thread ids, see device_subgroup.c. */
#ifndef GPUCC_DEVICE_SUBGROUP_H
#define GPUCC_DEVICE_SUBGROUP_H

#include "targets.h"

#include <mlir-c/IR.h>

/* Rewrites the subgroup ops inside gpu_module for target t: its kind's
 * subgroup width, and what its pipeline lowers itself (redux.sync). Returns
 * 0 or -1 (reported). */
int lowering_expand_subgroup_ops(MlirOperation gpu_module, const struct target *t);

#endif
