// MODE: hsaco
// GPUCC: --offload-arch=gfx942
// Kernels that use AMD-only operations, as upstream's ROCm tests do: buffer
// loads and stores through a buffer resource (amdgpu.raw_buffer_load/store,
// bounds-checked or not, of 2 and 4 floats) and a scheduling barrier
// (amdgpu.sched_barrier). They exist for AMD targets alone (the host target
// cannot lower amdgpu.*), so this only compiles for gfx942 and checks the
// machine code of the hsaco.

// CHECK: buffer_load_dwordx2
// CHECK: v_{{(pk_)?}}add_f32
// CHECK: buffer_store_dwordx2
// CHECK: buffer_load_dwordx4
// CHECK: buffer_store_dwordx4

module attributes {gpu.container_module} {
  gpu.module @buffers {
    gpu.func @pair(%src : memref<?xf32>, %dst : memref<?xf32>) kernel {
      %at = arith.constant 2 : i32
      %v = amdgpu.raw_buffer_load {boundsCheck = true} %src[%at] : memref<?xf32>, i32 -> vector<2xf32>
      %w = arith.addf %v, %v : vector<2xf32>
      %to = arith.constant 0 : i32
      amdgpu.sched_barrier allow = <none>
      amdgpu.raw_buffer_store {boundsCheck = true} %w -> %dst[%to] : vector<2xf32> -> memref<?xf32>, i32
      gpu.return
    }
    gpu.func @quad(%src : memref<?xf32>, %dst : memref<?xf32>) kernel {
      %at = arith.constant 0 : i32
      %v = amdgpu.raw_buffer_load {boundsCheck = false} %src[%at] : memref<?xf32>, i32 -> vector<4xf32>
      %k = arith.constant dense<3.0> : vector<4xf32>
      %w = arith.mulf %v, %k : vector<4xf32>
      amdgpu.raw_buffer_store {boundsCheck = false} %w -> %dst[%at] : vector<4xf32> -> memref<?xf32>, i32
      gpu.return
    }
  }
}
