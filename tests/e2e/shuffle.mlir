// gpu.shuffle xor within a 32-lane subgroup: a butterfly sum of the lane ids,
// so every lane ends with 0+1+...+31 = 496.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @butterfly(%buf: memref<32xf32>) kernel {
      %t = gpu.thread_id x
      %ti = arith.index_cast %t : index to i32
      %v0 = arith.sitofp %ti : i32 to f32
      %w = arith.constant 32 : i32
      %o1 = arith.constant 1 : i32
      %o2 = arith.constant 2 : i32
      %o4 = arith.constant 4 : i32
      %o8 = arith.constant 8 : i32
      %o16 = arith.constant 16 : i32
      %s1, %p1 = gpu.shuffle xor %v0, %o1, %w : f32
      %v1 = arith.addf %v0, %s1 : f32
      %s2, %p2 = gpu.shuffle xor %v1, %o2, %w : f32
      %v2 = arith.addf %v1, %s2 : f32
      %s4, %p4 = gpu.shuffle xor %v2, %o4, %w : f32
      %v3 = arith.addf %v2, %s4 : f32
      %s8, %p8 = gpu.shuffle xor %v3, %o8, %w : f32
      %v4 = arith.addf %v3, %s8 : f32
      %s16, %p16 = gpu.shuffle xor %v4, %o16, %w : f32
      %v5 = arith.addf %v4, %s16 : f32
      memref.store %v5, %buf[%t] : memref<32xf32>
      gpu.return
    }
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %host = memref.alloc() : memref<32xf32>
    %dev = gpu.alloc () : memref<32xf32>
    gpu.launch_func @kernels::@butterfly blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%dev : memref<32xf32>)
    gpu.memcpy %host, %dev : memref<32xf32>, memref<32xf32>
    gpu.dealloc %dev : memref<32xf32>
    %u = memref.cast %host : memref<32xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
}
