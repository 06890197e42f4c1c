// 64-bit atomics from 4 blocks of 64 threads (global id g = 0 .. 255):
// memref.atomic_rmw addf/maximumf/minimumf on f64, addi/maxs/mins/ori on
// i64, and memref.generic_atomic_rmw on i64 (on floats: atomic_generic_float).
// Expected, in order:
//   sum 0.5 g = 16320       max 0.25 g = 63.75      min -0.25 g = -63.75
//   sum 10^10 g = 326400000000000
//   max (g - 100) 2^33 = 1331439861760      min = -858993459200
//   or of 1 << (g mod 40) = 2^40 - 1 = 1099511627775
//   sum g^2 (generic) = 5559680
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @atomics(%f: memref<3xf64>, %i: memref<5xi64>) kernel {
      %g = gpu.global_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %gi = arith.index_cast %g : index to i64
      %gf = arith.sitofp %gi : i64 to f64
      %half = arith.constant 0.5 : f64
      %quarter = arith.constant 0.25 : f64
      %mquarter = arith.constant -0.25 : f64
      %h = arith.mulf %gf, %half : f64
      %a0 = memref.atomic_rmw addf %h, %f[%c0] : (f64, memref<3xf64>) -> f64
      %q = arith.mulf %gf, %quarter : f64
      %a1 = memref.atomic_rmw maximumf %q, %f[%c1] : (f64, memref<3xf64>) -> f64
      %mq = arith.mulf %gf, %mquarter : f64
      %a2 = memref.atomic_rmw minimumf %mq, %f[%c2] : (f64, memref<3xf64>) -> f64
      %e10 = arith.constant 10000000000 : i64
      %big = arith.muli %gi, %e10 : i64
      %b0 = memref.atomic_rmw addi %big, %i[%c0] : (i64, memref<5xi64>) -> i64
      %k100 = arith.constant 100 : i64
      %k33 = arith.constant 33 : i64
      %gm = arith.subi %gi, %k100 : i64
      %sh = arith.shli %gm, %k33 : i64
      %b1 = memref.atomic_rmw maxs %sh, %i[%c1] : (i64, memref<5xi64>) -> i64
      %b2 = memref.atomic_rmw mins %sh, %i[%c2] : (i64, memref<5xi64>) -> i64
      %k40 = arith.constant 40 : i64
      %one = arith.constant 1 : i64
      %bit = arith.remui %gi, %k40 : i64
      %mask = arith.shli %one, %bit : i64
      %b3 = memref.atomic_rmw ori %mask, %i[%c3] : (i64, memref<5xi64>) -> i64
      %sq = arith.muli %gi, %gi : i64
      %b4 = memref.generic_atomic_rmw %i[%c4] : memref<5xi64> {
      ^bb0(%cur: i64):
        %n = arith.addi %cur, %sq : i64
        memref.atomic_yield %n : i64
      }
      gpu.return
    }
  }
  func.func private @printF64(f64)
  func.func private @printI64(i64)
  func.func private @printNewline()
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c5 = arith.constant 5 : index
    %c64 = arith.constant 64 : index
    %hf = memref.alloc() : memref<3xf64>
    %hi = memref.alloc() : memref<5xi64>
    %fz = arith.constant 0.0 : f64
    %iz = arith.constant 0 : i64
    %lo = arith.constant -1152921504606846976 : i64
    %hi60 = arith.constant 1152921504606846976 : i64
    memref.store %fz, %hf[%c0] : memref<3xf64>
    memref.store %fz, %hf[%c1] : memref<3xf64>
    memref.store %fz, %hf[%c2] : memref<3xf64>
    memref.store %iz, %hi[%c0] : memref<5xi64>
    memref.store %lo, %hi[%c1] : memref<5xi64>
    memref.store %hi60, %hi[%c2] : memref<5xi64>
    memref.store %iz, %hi[%c3] : memref<5xi64>
    memref.store %iz, %hi[%c4] : memref<5xi64>
    %df = gpu.alloc () : memref<3xf64>
    %di = gpu.alloc () : memref<5xi64>
    gpu.memcpy %df, %hf : memref<3xf64>, memref<3xf64>
    gpu.memcpy %di, %hi : memref<5xi64>, memref<5xi64>
    gpu.launch_func @kernels::@atomics blocks in (%c4, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%df : memref<3xf64>, %di : memref<5xi64>)
    gpu.memcpy %hf, %df : memref<3xf64>, memref<3xf64>
    gpu.memcpy %hi, %di : memref<5xi64>, memref<5xi64>
    gpu.dealloc %df : memref<3xf64>
    gpu.dealloc %di : memref<5xi64>
    scf.for %k = %c0 to %c3 step %c1 {
      %v = memref.load %hf[%k] : memref<3xf64>
      func.call @printF64(%v) : (f64) -> ()
      func.call @printNewline() : () -> ()
    }
    scf.for %k = %c0 to %c5 step %c1 {
      %v = memref.load %hi[%k] : memref<5xi64>
      func.call @printI64(%v) : (i64) -> ()
      func.call @printNewline() : () -> ()
    }
    return
  }
}
