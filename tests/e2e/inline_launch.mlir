// An inline gpu.launch, outlined by gpucc: squares 0..31 and prints them.
module {
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %host = memref.alloc() : memref<32xf32>
    %dev = gpu.alloc () : memref<32xf32>
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
      %i = arith.index_cast %tx : index to i32
      %f = arith.sitofp %i : i32 to f32
      %sq = arith.mulf %f, %f : f32
      memref.store %sq, %dev[%tx] : memref<32xf32>
      gpu.terminator
    }
    gpu.memcpy %host, %dev : memref<32xf32>, memref<32xf32>
    gpu.dealloc %dev : memref<32xf32>
    %u = memref.cast %host : memref<32xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
}
