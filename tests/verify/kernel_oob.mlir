// -fsanitize=bounds in a kernel: threads 4 to 7 of 8 store past the
// end of a 4-element buffer; each reports like a CUDA device assert and the
// launch fails at the next synchronization, after what main printed.
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%o: memref<4xf32>) kernel {
      %t = gpu.thread_id x
      %f = arith.constant 2.0 : f32
      memref.store %f, %o[%t] : memref<4xf32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %m = gpu.alloc () : memref<4xf32>
    %f = arith.constant 1.0 : f32
    vector.print %f : f32
    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%m : memref<4xf32>)
    gpu.wait
    vector.print %f : f32
    return
  }
}
