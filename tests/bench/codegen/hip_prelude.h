/* hip_prelude.h: the CUDA names kernels.cu uses, for clang-22 compiling it
 * as HIP for an AMD GPU without HIP's headers or device libraries
 *   clang-22 -x hip --offload-arch=gfx942 -nogpulib -nogpuinc
 *     --cuda-device-only --no-gpu-bundle-output -O3 -include hip_prelude.h
 * Each is what HIP itself provides, reduced to clang builtins:
 * thread, block and size ids read the same registers and kernel arguments
 * gpucc's ROCDL lowering reads; __syncthreads is a workgroup release fence,
 * s_barrier and an acquire fence (gpu.barrier's lowering); a shuffle is
 * ds_bpermute within segments of `width` lanes. */
#ifndef GPUCC_BENCH_HIP_PRELUDE_H
#define GPUCC_BENCH_HIP_PRELUDE_H

#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __shared__ __attribute__((shared))
/* As HIP's own: clang's launch_bounds attribute is parsed but not applied
 * for AMD targets. */
#define __launch_bounds__(threads) __attribute__((amdgpu_flat_work_group_size(1, threads)))

struct gpucc_dim3 {
  unsigned x, y, z;
};

/* A temporary per use: the builtins of the dimensions not read fold away. */
#define threadIdx                                                                                  \
  (gpucc_dim3{__builtin_amdgcn_workitem_id_x(), __builtin_amdgcn_workitem_id_y(),               \
              __builtin_amdgcn_workitem_id_z()})
#define blockIdx                                                                                   \
  (gpucc_dim3{__builtin_amdgcn_workgroup_id_x(), __builtin_amdgcn_workgroup_id_y(),             \
              __builtin_amdgcn_workgroup_id_z()})
#define blockDim                                                                                   \
  (gpucc_dim3{__builtin_amdgcn_workgroup_size_x(), __builtin_amdgcn_workgroup_size_y(),         \
              __builtin_amdgcn_workgroup_size_z()})

struct __attribute__((aligned(16))) float4 {
  float x, y, z, w;
};

static __device__ inline float4 make_float4(float x, float y, float z, float w) {
  float4 r = {x, y, z, w};
  return r;
}

static __device__ inline void __syncthreads(void) {
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
  __builtin_amdgcn_s_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}

/* v of lane (this lane ^ lane_mask), or this lane's own v where that lane
 * lies outside this lane's segment of `width` lanes. The mask is CUDA's
 * participation mask: every lane of a wave runs here. */
static __device__ inline float __shfl_xor_sync(unsigned mask, float v, int lane_mask, int width) {
  (void)mask;
  int self = (int)__builtin_amdgcn_mbcnt_hi(~0u, __builtin_amdgcn_mbcnt_lo(~0u, 0u));
  int other = self ^ lane_mask;
  if (other >= ((self + width) & ~(width - 1)))
    other = self;
  return __builtin_bit_cast(float, __builtin_amdgcn_ds_bpermute(other << 2, __builtin_bit_cast(int, v)));
}

#endif
