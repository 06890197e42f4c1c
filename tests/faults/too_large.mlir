// Static shapes whose size in bytes overflows 64 bits: one located error
// each (the allocation was made modulo 2^64 before), status 1. The last
// alloca is just below the limit: no error.
module attributes {gpu.container_module} {
  memref.global "private" @table : memref<4611686018427387904xi16>
  gpu.module @kernels {
    gpu.func @k() workgroup(%w : memref<4611686018427387904x4xf32, #gpu.address_space<workgroup>>) kernel {
      gpu.return
    }
  }
  func.func @main() {
    %dev = gpu.alloc () : memref<100000000000x100000000000xf32>
    gpu.dealloc %dev : memref<100000000000x100000000000xf32>
    %h = memref.alloc () : memref<3x3074457345618258603xi8>
    %ok = memref.alloca () : memref<2x2305843009213693951xi16>
    return
  }
}
