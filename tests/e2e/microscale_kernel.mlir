// The microscaling conversions in a kernel (f32 -> f4E2M1FN -> f32, 1.7 to
// 1.5), built for every default target; microscale_floats has the host side.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @f(%o: memref<4xf32>) kernel {
      %t = gpu.thread_id x
      %v = memref.load %o[%t] : memref<4xf32>
      %q = arith.truncf %v : f32 to f4E2M1FN
      %w = arith.extf %q : f4E2M1FN to f32
      memref.store %w, %o[%t] : memref<4xf32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %h = memref.alloc () : memref<4xf32>
    %x = arith.constant 1.7 : f32
    linalg.fill ins(%x : f32) outs(%h : memref<4xf32>)
    %m = gpu.alloc () : memref<4xf32>
    gpu.memcpy %m, %h : memref<4xf32>, memref<4xf32>
    gpu.launch_func @kernels::@f blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%m : memref<4xf32>)
    gpu.memcpy %h, %m : memref<4xf32>, memref<4xf32>
    %u = memref.cast %h : memref<4xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
  func.func private @printMemrefF32(memref<*xf32>)
}
