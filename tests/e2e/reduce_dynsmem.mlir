// gpu.all_reduce (add, max over a block of 64), gpu.lane_id, gpu.global_id and
// dynamic workgroup memory (gpu.dynamic_shared_memory) with a barrier.
// Expected: [2016, 63, 0, 32] then 63..0.
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @red(%out: memref<4xf32>) kernel {
      %t = gpu.thread_id x
      %ti = arith.index_cast %t : index to i32
      %f = arith.sitofp %ti : i32 to f32
      %sum = gpu.all_reduce add %f uniform {} : (f32) -> (f32)
      %mx = gpu.all_reduce maximumf %f uniform {} : (f32) -> (f32)
      %sg = arith.addf %f, %f : f32
      %lane = gpu.lane_id
      %sz = arith.constant 32 : index
      %gid = gpu.global_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %is0 = arith.cmpi eq, %t, %c0 : index
      scf.if %is0 {
        memref.store %sum, %out[%c0] : memref<4xf32>
        memref.store %mx, %out[%c1] : memref<4xf32>
        memref.store %sg, %out[%c2] : memref<4xf32>
        %szi = arith.index_cast %sz : index to i32
        %szf = arith.sitofp %szi : i32 to f32
        memref.store %szf, %out[%c3] : memref<4xf32>
      }
      gpu.return
    }
    gpu.func @dyn(%out: memref<64xf32>) kernel {
      %t = gpu.thread_id x
      %sh = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %c0 = arith.constant 0 : index
      %v = memref.view %sh[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<64xf32, #gpu.address_space<workgroup>>
      %ti = arith.index_cast %t : index to i32
      %f = arith.sitofp %ti : i32 to f32
      memref.store %f, %v[%t] : memref<64xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %c63 = arith.constant 63 : index
      %r = arith.subi %c63, %t : index
      %w = memref.load %v[%r] : memref<64xf32, #gpu.address_space<workgroup>>
      memref.store %w, %out[%t] : memref<64xf32>
      gpu.return
    }
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %smem = arith.constant 256 : i32
    %h = memref.alloc() : memref<4xf32>
    %d = gpu.alloc () : memref<4xf32>
    gpu.launch_func @k::@red blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%d : memref<4xf32>)
    gpu.memcpy %h, %d : memref<4xf32>, memref<4xf32>
    %u = memref.cast %h : memref<4xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    %h2 = memref.alloc() : memref<64xf32>
    %d2 = gpu.alloc () : memref<64xf32>
    gpu.launch_func @k::@dyn blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) dynamic_shared_memory_size %smem args(%d2 : memref<64xf32>)
    gpu.memcpy %h2, %d2 : memref<64xf32>, memref<64xf32>
    %u2 = memref.cast %h2 : memref<64xf32> to memref<*xf32>
    call @printMemrefF32(%u2) : (memref<*xf32>) -> ()
    return
  }
}
