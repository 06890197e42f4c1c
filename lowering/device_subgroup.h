/* device_subgroup.h: gpu.subgroup_reduce and the subgroup ids written with
 * shuffles and thread ids, see device_subgroup.c. */
#ifndef GPUCC_DEVICE_SUBGROUP_H
#define GPUCC_DEVICE_SUBGROUP_H

#include "targets.h"

#include <mlir-c/IR.h>

/* Rewrites the subgroup ops inside gpu_module for target t: its kind's
 * subgroup width, what its pipeline lowers itself (redux.sync), and the
 * dialect its pipeline lowers gpu ops to (NVVM or ROCDL), which says how a
 * reduction not every lane reaches finds the lanes that do. Adds the
 * functions those reductions call to gpu_module. Returns 0 or -1
 * (reported). */
int lowering_expand_subgroup_ops(MlirOperation gpu_module, const struct target *t);

#endif
