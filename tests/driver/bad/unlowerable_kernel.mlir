// math.ipowi on vectors has no lowering in any device pipeline.
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @pow(%m: memref<4xi32>) kernel {
      %c0 = arith.constant 0 : index
      %x = vector.load %m[%c0] : memref<4xi32>, vector<4xi32>
      %y = math.ipowi %x, %x : vector<4xi32>
      vector.store %y, %m[%c0] : memref<4xi32>, vector<4xi32>
      gpu.return
    }
  }
  func.func @main() {
    return
  }
}
