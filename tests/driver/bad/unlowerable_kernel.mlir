// math.ipowi on a runtime exponent has no lowering in any device pipeline.
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @pow(%m: memref<4xi32>) kernel {
      %c0 = arith.constant 0 : index
      %x = memref.load %m[%c0] : memref<4xi32>
      %y = math.ipowi %x, %x : i32
      memref.store %y, %m[%c0] : memref<4xi32>
      gpu.return
    }
  }
  func.func @main() {
    return
  }
}
