// An NVVM op exists for NVIDIA targets only.
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @lane(%out: memref<32xi32>) kernel {
      %l = nvvm.read.ptx.sreg.laneid : i32
      %i = arith.index_cast %l : i32 to index
      memref.store %l, %out[%i] : memref<32xi32>
      gpu.return
    }
  }
}
