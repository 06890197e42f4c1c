// A launch with dependencies and no async token (gpu.launch_func [%t2, %t3]
// ...) waits for them and runs synchronously, as the dialect defines;
// before, no lowering took it on any target.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @f(%o: memref<4xf32>) kernel {
      %t = gpu.thread_id x
      %v = memref.load %o[%t] : memref<4xf32>
      %w = arith.addf %v, %v : f32
      memref.store %w, %o[%t] : memref<4xf32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %f = arith.constant 1.5 : f32
    %h = memref.alloc () : memref<4xf32>
    linalg.fill ins(%f : f32) outs(%h : memref<4xf32>)
    %t0 = gpu.wait async
    %m, %t1 = gpu.alloc async [%t0] () : memref<4xf32>
    %t2 = gpu.memcpy async [%t1] %m, %h : memref<4xf32>, memref<4xf32>
    %t3 = gpu.wait async
    gpu.launch_func [%t2, %t3] @kernels::@f blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%m : memref<4xf32>)
    gpu.memcpy %h, %m : memref<4xf32>, memref<4xf32>
    %u = memref.cast %h : memref<4xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
  func.func private @printMemrefF32(memref<*xf32>)
}
