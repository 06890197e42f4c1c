// Two gpu.modules whose kernels share a name: @a::@k writes 1, @b::@k adds 10.
module attributes {gpu.container_module} {
  gpu.module @a {
    gpu.func @k(%buf: memref<8xf32>) kernel {
      %i = gpu.thread_id x
      %one = arith.constant 1.0 : f32
      memref.store %one, %buf[%i] : memref<8xf32>
      gpu.return
    }
  }
  gpu.module @b {
    gpu.func @k(%buf: memref<8xf32>) kernel {
      %i = gpu.thread_id x
      %ten = arith.constant 10.0 : f32
      %v = memref.load %buf[%i] : memref<8xf32>
      %r = arith.addf %v, %ten : f32
      memref.store %r, %buf[%i] : memref<8xf32>
      gpu.return
    }
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %host = memref.alloc() : memref<8xf32>
    %dev = gpu.alloc () : memref<8xf32>
    gpu.launch_func @a::@k blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%dev : memref<8xf32>)
    gpu.launch_func @b::@k blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%dev : memref<8xf32>)
    gpu.memcpy %host, %dev : memref<8xf32>, memref<8xf32>
    gpu.dealloc %dev : memref<8xf32>
    %u = memref.cast %host : memref<8xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
}
