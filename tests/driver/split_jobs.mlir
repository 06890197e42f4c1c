// Four gpu.modules, each adding its power of ten: a target's modules are
// split over device jobs (split_jobs.sh), and every element must end 1111.
module attributes {gpu.container_module} {
  gpu.module @m0 {
    gpu.func @add(%buf: memref<8xf32>) kernel {
      %t = gpu.thread_id x
      %d = arith.constant 1.0 : f32
      %v = memref.load %buf[%t] : memref<8xf32>
      %r = arith.addf %v, %d : f32
      memref.store %r, %buf[%t] : memref<8xf32>
      gpu.return
    }
  }
  gpu.module @m1 {
    gpu.func @add(%buf: memref<8xf32>) kernel {
      %t = gpu.thread_id x
      %d = arith.constant 10.0 : f32
      %v = memref.load %buf[%t] : memref<8xf32>
      %r = arith.addf %v, %d : f32
      memref.store %r, %buf[%t] : memref<8xf32>
      gpu.return
    }
  }
  gpu.module @m2 {
    gpu.func @add(%buf: memref<8xf32>) kernel {
      %t = gpu.thread_id x
      %d = arith.constant 100.0 : f32
      %v = memref.load %buf[%t] : memref<8xf32>
      %r = arith.addf %v, %d : f32
      memref.store %r, %buf[%t] : memref<8xf32>
      gpu.return
    }
  }
  gpu.module @m3 {
    gpu.func @add(%buf: memref<8xf32>) kernel {
      %t = gpu.thread_id x
      %d = arith.constant 1000.0 : f32
      %v = memref.load %buf[%t] : memref<8xf32>
      %r = arith.addf %v, %d : f32
      memref.store %r, %buf[%t] : memref<8xf32>
      gpu.return
    }
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %zero = arith.constant 0.0 : f32
    %host = memref.alloc() : memref<8xf32>
    %dev = gpu.alloc () : memref<8xf32>
    gpu.memset %dev, %zero : memref<8xf32>, f32
    gpu.launch_func @m0::@add blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%dev : memref<8xf32>)
    gpu.launch_func @m1::@add blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%dev : memref<8xf32>)
    gpu.launch_func @m2::@add blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%dev : memref<8xf32>)
    gpu.launch_func @m3::@add blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%dev : memref<8xf32>)
    gpu.memcpy %host, %dev : memref<8xf32>, memref<8xf32>
    gpu.dealloc %dev : memref<8xf32>
    %u = memref.cast %host : memref<8xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
}
