// bf16 arithmetic in a kernel: each of 4 threads doubles its element
// (1.5 -> 3); the host prints one. On the host target the conversions are
// compiler-rt calls (__truncsfbf2), linked into the kernels' shared object.
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%m: memref<4xbf16>) kernel {
      %t = gpu.thread_id x
      %x = memref.load %m[%t] : memref<4xbf16>
      %y = arith.addf %x, %x : bf16
      memref.store %y, %m[%t] : memref<4xbf16>
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %m = gpu.alloc () : memref<4xbf16>
    %v = arith.constant 1.5 : bf16
    scf.for %i = %c0 to %c4 step %c1 {
      memref.store %v, %m[%i] : memref<4xbf16>
    }
    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%m : memref<4xbf16>)
    %r = memref.load %m[%c1] : memref<4xbf16>
    %f = arith.extf %r : bf16 to f32
    vector.print %f : f32
    return
  }
}
