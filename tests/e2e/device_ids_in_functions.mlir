// Device functions that read GPU ids and synchronize, called from a kernel,
// as code generators factor per-thread index math and block-wide steps out
// of kernels: func.func @global_id reads block id, block size and thread
// id; @twice is plain arithmetic; @publish stores to workgroup memory
// (passed as an argument), waits at gpu.barrier and reads a neighbour's
// value. 2 blocks of 4 threads, g = 4 b + t:
//   out[g] = publish(tile, t, twice(g)) = 2 (4 b + 3 - t)
module attributes {gpu.container_module} {
  gpu.module @kernels {
    func.func @global_id() -> index {
      %b = gpu.block_id x
      %d = gpu.block_dim x
      %t = gpu.thread_id x
      %bd = arith.muli %b, %d : index
      %g = arith.addi %bd, %t : index
      return %g : index
    }
    func.func @twice(%x: f32) -> f32 {
      %y = arith.addf %x, %x : f32
      return %y : f32
    }
    func.func @publish(%tile: memref<4xf32, #gpu.address_space<workgroup>>, %t: index, %v: f32) -> f32 {
      %c3 = arith.constant 3 : index
      memref.store %v, %tile[%t] : memref<4xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %o = arith.subi %c3, %t : index
      %w = memref.load %tile[%o] : memref<4xf32, #gpu.address_space<workgroup>>
      return %w : f32
    }
    gpu.func @run(%out: memref<8xf32>)
        workgroup(%tile: memref<4xf32, #gpu.address_space<workgroup>>) kernel {
      %t = gpu.thread_id x
      %g = func.call @global_id() : () -> index
      %gi = arith.index_cast %g : index to i32
      %gf = arith.sitofp %gi : i32 to f32
      %v = func.call @twice(%gf) : (f32) -> f32
      %r = func.call @publish(%tile, %t, %v) : (memref<4xf32, #gpu.address_space<workgroup>>, index, f32) -> f32
      memref.store %r, %out[%g] : memref<8xf32>
      gpu.return
    }
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %d = gpu.alloc () : memref<8xf32>
    gpu.launch_func @kernels::@run blocks in (%c2, %c1, %c1) threads in (%c4, %c1, %c1)
        args(%d : memref<8xf32>)
    %h = memref.alloc() : memref<8xf32>
    gpu.memcpy %h, %d : memref<8xf32>, memref<8xf32>
    gpu.dealloc %d : memref<8xf32>
    %u = memref.cast %h : memref<8xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
}
