// Workgroup memory and gpu.barrier: each block of 64 threads reverses its
// slice through workgroup memory. Output: 63, 62, ..., 0, 127, ..., 64.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @reverse(%buf: memref<128xf32>) workgroup(%tile: memref<64xf32, #gpu.address_space<workgroup>>) kernel {
      %t = gpu.thread_id x
      %b = gpu.block_id x
      %n = gpu.block_dim x
      %base = arith.muli %b, %n : index
      %i = arith.addi %base, %t : index
      %v = memref.load %buf[%i] : memref<128xf32>
      memref.store %v, %tile[%t] : memref<64xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %c63 = arith.constant 63 : index
      %rt = arith.subi %c63, %t : index
      %w = memref.load %tile[%rt] : memref<64xf32, #gpu.address_space<workgroup>>
      memref.store %w, %buf[%i] : memref<128xf32>
      gpu.return
    }
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %host = memref.alloc() : memref<128xf32>
    scf.for %i = %c0 to %c128 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %host[%i] : memref<128xf32>
    }
    %dev = gpu.alloc () : memref<128xf32>
    gpu.memcpy %dev, %host : memref<128xf32>, memref<128xf32>
    gpu.launch_func @kernels::@reverse blocks in (%c2, %c1, %c1) threads in (%c64, %c1, %c1) args(%dev : memref<128xf32>)
    gpu.memcpy %host, %dev : memref<128xf32>, memref<128xf32>
    gpu.dealloc %dev : memref<128xf32>
    %u = memref.cast %host : memref<128xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
}
