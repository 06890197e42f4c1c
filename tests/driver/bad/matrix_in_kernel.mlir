// llvm.intr.matrix.* in a kernel: only the host target expands them (the GPU
// code generators died on them); refused before any job, located.
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%o: memref<6xf32>) kernel {
      %c = arith.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0]> : vector<6xf32>
      %t = llvm.intr.matrix.transpose %c {rows = 3 : i32, columns = 2 : i32} : vector<6xf32> into vector<6xf32>
      %c0 = arith.constant 0 : index
      vector.store %t, %o[%c0] : memref<6xf32>, vector<6xf32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %m = gpu.alloc () : memref<6xf32>
    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<6xf32>)
    return
  }
}
