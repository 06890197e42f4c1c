// memref.generic_atomic_rmw on f64, f32 and f16: each update becomes a
// compare-and-swap loop on the element's bits (atom.cas.b64, .b32; LLVM
// widens the 16-bit one to .b32 on the word holding it), the float
// arithmetic staying in the loop body.
// TARGETS: sm_80,sm_90
// PTX: kernels sm_80,sm_90 1 atom\..*\.cas\.b64
// PTX: kernels sm_80,sm_90 2 atom\..*\.cas\.b32
// PTX: kernels sm_80,sm_90 some mul(\.rn)?\.f64
// PTX: kernels sm_80,sm_90 some add(\.rn)?\.f32
// PTX: kernels sm_80,sm_90 some add(\.rn)?\.f16
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @update(%d: memref<4xf64>, %s: memref<4xf32>, %h: memref<4xf16>) kernel {
      %t = gpu.thread_id x
      %c4 = arith.constant 4 : index
      %i = arith.remui %t, %c4 : index
      %k = arith.constant 3.0 : f64
      %half = arith.constant 0.5 : f32
      %one = arith.constant 1.0 : f16
      %a = memref.generic_atomic_rmw %d[%i] : memref<4xf64> {
      ^bb0(%cur: f64):
        %n = arith.mulf %cur, %k : f64
        memref.atomic_yield %n : f64
      }
      %b = memref.generic_atomic_rmw %s[%i] : memref<4xf32> {
      ^bb0(%cur: f32):
        %n = arith.addf %cur, %half : f32
        memref.atomic_yield %n : f32
      }
      %c = memref.generic_atomic_rmw %h[%i] : memref<4xf16> {
      ^bb0(%cur: f16):
        %n = arith.addf %cur, %one : f16
        memref.atomic_yield %n : f16
      }
      gpu.return
    }
  }
}
