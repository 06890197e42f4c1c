module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%o: memref<?xf32>, %n: index) kernel {
      %t = gpu.thread_id x
      %sh = memref.alloc(%n) : memref<?xf32, #gpu.address_space<workgroup>>
      %v = memref.load %o[%t] : memref<?xf32>
      memref.store %v, %sh[%t] : memref<?xf32, #gpu.address_space<workgroup>>
      gpu.return
    }
  }
}
