// gpu.dynamic_shared_memory is CUDA's `extern __shared__ x[]`: an external
// zero-sized .shared array, after all static shared memory, not a one-byte
// static .shared variable among the workgroup attributions (which ptxas
// flagged as "potential out of bound access" and which overlapped them).
// TARGETS: sm_80,sm_90
// PTX: k sm_80,sm_90 1 ^\.extern \.shared \.align 16 \.b8 __dynamic_shmem__0\[\];
// PTX: k sm_80,sm_90 none ^[[:space:]]*\.shared .*__dynamic_shmem__0;
// PTX: k sm_80,sm_90 1 \.shared \.align 16 \.b8 __wg_f_0\[128\]
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%o: memref<64xf32>) workgroup(%st: memref<32xf32, #gpu.address_space<workgroup>>) kernel {
      %t = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %sh = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %dyn = memref.view %sh[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<32xf32, #gpu.address_space<workgroup>>
      %x = memref.load %o[%t] : memref<64xf32>
      memref.store %x, %st[%t] : memref<32xf32, #gpu.address_space<workgroup>>
      memref.store %x, %dyn[%t] : memref<32xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %a = memref.load %st[%t] : memref<32xf32, #gpu.address_space<workgroup>>
      %b = memref.load %dyn[%t] : memref<32xf32, #gpu.address_space<workgroup>>
      %s = arith.addf %a, %b : f32
      memref.store %s, %o[%t] : memref<64xf32>
      gpu.return
    }
  }
}
