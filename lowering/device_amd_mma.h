/* device_amd_mma.h: how AMD's chip families hold gpu.subgroup_mma
 * fragments and compute on them (device_amd_mma.c), for target_amd.c to
 * hand to device_mma.c. */
#ifndef GPUCC_DEVICE_AMD_MMA_H
#define GPUCC_DEVICE_AMD_MMA_H

#include "device_mma.h"

extern const struct mma_lowering amd_mma_gfx11; /* RDNA3 WMMA */
extern const struct mma_lowering amd_mma_gfx12; /* RDNA4 WMMA */
extern const struct mma_lowering amd_mma_cdna1; /* gfx908 MFMA */
extern const struct mma_lowering amd_mma_cdna2; /* gfx90a MFMA */
extern const struct mma_lowering amd_mma_cdna3; /* gfx942, gfx950 MFMA */
extern const struct mma_lowering amd_mma_lanes; /* no matrix unit: lane shuffles */

#endif
