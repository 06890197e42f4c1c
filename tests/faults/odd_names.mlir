// A fault in a kernel whose module and kernel names must be mangled for the
// objects (@"my mod", @"bad k"): the report names them as the program does.
module attributes {gpu.container_module} {
  gpu.module @"my mod" {
    gpu.func @"bad k"(%o: memref<4xf32>) kernel {
      %c = arith.constant 100000000 : index
      %f = arith.constant 1.0 : f32
      memref.store %f, %o[%c] : memref<4xf32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %m = gpu.alloc () : memref<4xf32>
    gpu.launch_func @"my mod"::@"bad k" blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<4xf32>)
    gpu.wait
    return
  }
}
