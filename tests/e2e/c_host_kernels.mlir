// Kernels called from a C host program (c_host_main.c) through an
// emit_c_interface function: scale(x, n, factor) multiplies x[0..n) in place.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%buf: memref<?xf32>, %n: index, %factor: f32) kernel {
      %t = gpu.thread_id x
      %b = gpu.block_id x
      %d = gpu.block_dim x
      %base = arith.muli %b, %d : index
      %i = arith.addi %base, %t : index
      %in = arith.cmpi ult, %i, %n : index
      scf.if %in {
        %v = memref.load %buf[%i] : memref<?xf32>
        %r = arith.mulf %v, %factor : f32
        memref.store %r, %buf[%i] : memref<?xf32>
      }
      gpu.return
    }
  }
  func.func @scale(%x: memref<?xf32>, %factor: f32) attributes {llvm.emit_c_interface} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %c127 = arith.constant 127 : index
    %n = memref.dim %x, %c0 : memref<?xf32>
    %nn = arith.addi %n, %c127 : index
    %nb = arith.divui %nn, %c128 : index
    %dev = gpu.alloc (%n) : memref<?xf32>
    gpu.memcpy %dev, %x : memref<?xf32>, memref<?xf32>
    gpu.launch_func @kernels::@scale blocks in (%nb, %c1, %c1) threads in (%c128, %c1, %c1) args(%dev : memref<?xf32>, %n : index, %factor : f32)
    gpu.memcpy %x, %dev : memref<?xf32>, memref<?xf32>
    gpu.dealloc %dev : memref<?xf32>
    return
  }
}
