// A kernel compiled for blocks of exactly 256 threads (known_block_size),
// launched once as it was compiled for and once with 1024 threads: the
// first launch runs and prints 510 (out[255] = 2 * 255, through workgroup
// memory); the second is refused by the runtime, on the CPU as a GPU
// would refuse it, naming the GPU target, and the program stops with
// status 1 before printing "after".
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @transpose(%out: memref<1024xf32>)
        workgroup(%tile: memref<256xf32, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
      %x = gpu.thread_id x
      %xi = arith.index_cast %x : index to i32
      %f = arith.sitofp %xi : i32 to f32
      %two = arith.addf %f, %f : f32
      memref.store %two, %tile[%x] : memref<256xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %v = memref.load %tile[%x] : memref<256xf32, #gpu.address_space<workgroup>>
      memref.store %v, %out[%x] : memref<1024xf32>
      gpu.return
    }
    // No known_block_size: up to 1024 threads in any shape.
    gpu.func @any_shape(%out: memref<1024xf32>) kernel {
      gpu.return
    }
  }
  func.func private @printF32(f32)
  func.func private @printNewline()
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c255 = arith.constant 255 : index
    %c256 = arith.constant 256 : index
    %c1024 = arith.constant 1024 : index
    %host = memref.alloc() : memref<1024xf32>
    %dev = gpu.alloc () : memref<1024xf32>
    gpu.launch_func @kernels::@transpose blocks in (%c1, %c1, %c1) threads in (%c256, %c1, %c1) args(%dev : memref<1024xf32>)
    gpu.memcpy %host, %dev : memref<1024xf32>, memref<1024xf32>
    %v = memref.load %host[%c255] : memref<1024xf32>
    func.call @printF32(%v) : (f32) -> ()
    func.call @printNewline() : () -> ()
    gpu.launch_func @kernels::@any_shape blocks in (%c1, %c1, %c1) threads in (%c256, %c1, %c1) args(%dev : memref<1024xf32>)
    gpu.launch_func @kernels::@transpose blocks in (%c1, %c1, %c1) threads in (%c1024, %c1, %c1) args(%dev : memref<1024xf32>)
    %after = arith.constant 1.0 : f32
    func.call @printF32(%after) : (f32) -> ()
    func.call @printNewline() : () -> ()
    gpu.dealloc %dev : memref<1024xf32>
    memref.dealloc %host : memref<1024xf32>
    return
  }
}
