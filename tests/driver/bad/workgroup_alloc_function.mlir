module attributes {gpu.container_module} {
  gpu.module @k {
    func.func @helper(%x: f32) -> f32 {
      %c0 = arith.constant 0 : index
      %sh = memref.alloc() : memref<4xf32, #gpu.address_space<workgroup>>
      memref.store %x, %sh[%c0] : memref<4xf32, #gpu.address_space<workgroup>>
      %y = memref.load %sh[%c0] : memref<4xf32, #gpu.address_space<workgroup>>
      return %y : f32
    }
    gpu.func @f(%o: memref<4xf32>) kernel {
      %c0 = arith.constant 0 : index
      %x = memref.load %o[%c0] : memref<4xf32>
      %y = func.call @helper(%x) : (f32) -> f32
      memref.store %y, %o[%c0] : memref<4xf32>
      gpu.return
    }
  }
}
