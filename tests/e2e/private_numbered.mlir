// A private attribution in a numbered address space (memref<4xf32, 5>: the
// private space of AMDGPU and NVPTX both), as programs written for one
// vendor declare per-thread memory; before, NVIDIA and the host failed
// ('llvm.insertvalue' op Type mismatch).
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @f(%o: memref<8xf32>) private(%p : memref<4xf32, 5>) kernel {
      %t = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %ti = arith.index_cast %t : index to i32
      %tf = arith.sitofp %ti : i32 to f32
      scf.for %i = %c0 to %c4 step %c1 {
        %ii = arith.index_cast %i : index to i32
        %if = arith.sitofp %ii : i32 to f32
        %v = arith.addf %tf, %if : f32
        memref.store %v, %p[%i] : memref<4xf32, 5>
      }
      %z = arith.constant 0.0 : f32
      %s = scf.for %i = %c0 to %c4 step %c1 iter_args(%a = %z) -> f32 {
        %v = memref.load %p[%i] : memref<4xf32, 5>
        %n = arith.addf %a, %v : f32
        scf.yield %n : f32
      }
      memref.store %s, %o[%t] : memref<8xf32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %m = gpu.alloc () : memref<8xf32>
    gpu.launch_func @kernels::@f blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%m : memref<8xf32>)
    %h = memref.alloc () : memref<8xf32>
    gpu.memcpy %h, %m : memref<8xf32>, memref<8xf32>
    %u = memref.cast %h : memref<8xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
  func.func private @printMemrefF32(memref<*xf32>)
}
