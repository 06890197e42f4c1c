// Per-thread and per-block memory of a kernel: a private attribution
// (#gpu.address_space<private>), a workgroup attribution shared through
// gpu.barrier, and a memref.alloca on the thread's stack. 2 blocks of 8
// threads, t = thread id, g = 8 * block + t:
//   private p[k] = 10 g + k (k < 4), s = sum p = 40 g + 6
//   tile[t] = s, barrier, out[g] = tile[(t + 1) mod 8]
//   alloca a[k] = t + k (k < 3), sums[g] = 3 t + 3
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @mem(%out: memref<16xf32>, %sums: memref<16xi32>)
        workgroup(%tile: memref<8xf32, #gpu.address_space<workgroup>>)
        private(%p: memref<4xf32, #gpu.address_space<private>>) kernel {
      %t = gpu.thread_id x
      %g = gpu.global_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c10 = arith.constant 10 : index
      %zf = arith.constant 0.0 : f32
      %zi = arith.constant 0 : i32
      %g10 = arith.muli %g, %c10 : index
      scf.for %k = %c0 to %c4 step %c1 {
        %v = arith.addi %g10, %k : index
        %vi = arith.index_cast %v : index to i32
        %vf = arith.sitofp %vi : i32 to f32
        memref.store %vf, %p[%k] : memref<4xf32, #gpu.address_space<private>>
      }
      %s = scf.for %k = %c0 to %c4 step %c1 iter_args(%acc = %zf) -> f32 {
        %v = memref.load %p[%k] : memref<4xf32, #gpu.address_space<private>>
        %a = arith.addf %acc, %v : f32
        scf.yield %a : f32
      }
      memref.store %s, %tile[%t] : memref<8xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %n = arith.addi %t, %c1 : index
      %nm = arith.remui %n, %c8 : index
      %w = memref.load %tile[%nm] : memref<8xf32, #gpu.address_space<workgroup>>
      memref.store %w, %out[%g] : memref<16xf32>
      %a = memref.alloca() : memref<3xi32>
      scf.for %k = %c0 to %c3 step %c1 {
        %v = arith.addi %t, %k : index
        %vi = arith.index_cast %v : index to i32
        memref.store %vi, %a[%k] : memref<3xi32>
      }
      %si = scf.for %k = %c0 to %c3 step %c1 iter_args(%acc = %zi) -> i32 {
        %v = memref.load %a[%k] : memref<3xi32>
        %b = arith.addi %acc, %v : i32
        scf.yield %b : i32
      }
      memref.store %si, %sums[%g] : memref<16xi32>
      gpu.return
    }
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func private @printMemrefI32(memref<*xi32>)
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c8 = arith.constant 8 : index
    %out = gpu.alloc () : memref<16xf32>
    %sums = gpu.alloc () : memref<16xi32>
    gpu.launch_func @kernels::@mem blocks in (%c2, %c1, %c1) threads in (%c8, %c1, %c1)
        args(%out : memref<16xf32>, %sums : memref<16xi32>)
    %ho = memref.alloc() : memref<16xf32>
    %hs = memref.alloc() : memref<16xi32>
    gpu.memcpy %ho, %out : memref<16xf32>, memref<16xf32>
    gpu.memcpy %hs, %sums : memref<16xi32>, memref<16xi32>
    %uo = memref.cast %ho : memref<16xf32> to memref<*xf32>
    %us = memref.cast %hs : memref<16xi32> to memref<*xi32>
    call @printMemrefF32(%uo) : (memref<*xf32>) -> ()
    call @printMemrefI32(%us) : (memref<*xi32>) -> ()
    gpu.dealloc %out : memref<16xf32>
    gpu.dealloc %sums : memref<16xi32>
    return
  }
}
