// Synchronous and asynchronous gpu ops mixed in one function, including an
// async chain that starts with `gpu.wait async`. Fills a buffer with 2.0
// (memset), adds 1.0 on the device and prints the result: 16 values of 3.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @add_one(%buf: memref<16xf32>) kernel {
      %i = gpu.thread_id x
      %one = arith.constant 1.0 : f32
      %v = memref.load %buf[%i] : memref<16xf32>
      %r = arith.addf %v, %one : f32
      memref.store %r, %buf[%i] : memref<16xf32>
      gpu.return
    }
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %two = arith.constant 2.0 : f32
    %host = memref.alloc() : memref<16xf32>
    // synchronous
    %dev = gpu.alloc () : memref<16xf32>
    gpu.memset %dev, %two : memref<16xf32>, f32
    // asynchronous chain
    %t0 = gpu.wait async
    %t1 = gpu.launch_func async [%t0] @kernels::@add_one blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%dev : memref<16xf32>)
    %t2 = gpu.memcpy async [%t1] %host, %dev : memref<16xf32>, memref<16xf32>
    gpu.wait [%t2]
    // synchronous again
    gpu.dealloc %dev : memref<16xf32>
    %u = memref.cast %host : memref<16xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    memref.dealloc %host : memref<16xf32>
    return
  }
}
