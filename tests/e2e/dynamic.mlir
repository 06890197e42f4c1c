// Dynamic-size memrefs: n = 1000 elements over blocks of 256 threads with a
// bounds check; out[i] = 2 * i. Prints the sum of out (999000).
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @twice(%out: memref<?xf32>, %n: index) kernel {
      %t = gpu.thread_id x
      %b = gpu.block_id x
      %d = gpu.block_dim x
      %base = arith.muli %b, %d : index
      %i = arith.addi %base, %t : index
      %in = arith.cmpi ult, %i, %n : index
      scf.if %in {
        %ii = arith.index_cast %i : index to i32
        %f = arith.sitofp %ii : i32 to f32
        %r = arith.addf %f, %f : f32
        memref.store %r, %out[%i] : memref<?xf32>
      }
      gpu.return
    }
  }
  func.func private @printF32(f32)
  func.func private @printNewline()
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %n = arith.constant 1000 : index
    %nb = arith.constant 4 : index
    %host = memref.alloc(%n) : memref<?xf32>
    %dev = gpu.alloc (%n) : memref<?xf32>
    gpu.launch_func @kernels::@twice blocks in (%nb, %c1, %c1) threads in (%c256, %c1, %c1) args(%dev : memref<?xf32>, %n : index)
    gpu.memcpy %host, %dev : memref<?xf32>, memref<?xf32>
    gpu.dealloc %dev : memref<?xf32>
    %zero = arith.constant 0.0 : f32
    %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> f32 {
      %v = memref.load %host[%i] : memref<?xf32>
      %a = arith.addf %acc, %v : f32
      scf.yield %a : f32
    }
    call @printF32(%sum) : (f32) -> ()
    call @printNewline() : () -> ()
    return
  }
}
