// math in kernels: the functions a numerical frontend calls, each in one
// row of the output, one column per thread t of 4, with
//   x = 0.75 (t+1)   y = x - 2   z = t - 1.5   k = 37 (t+1)
// Floating-point results are printed as round(1000 v) (f32) or
// round(10^6 v) (f64), integers as they are, so that the output does not
// depend on the last ulp of any implementation (inputs are chosen away
// from rounding boundaries; fma x y 1 is exactly 0.0625 and 1.5625 for
// t = 0 and 2, halfway cases that math.round takes away from zero).
// Rows of @math32:
//    0  sqrt x
//    1  rsqrt x
//    2  exp x
//    3  exp2 x
//    4  log x
//    5  log2 x
//    6  log1p x
//    7  sin x
//    8  cos x
//    9  tan x
//   10  tanh y
//   11  atan y
//   12  atan2 y x
//   13  erf (y + 1/8)
//   14  powf x 1.5
//   15  fpowi x (t+1)
//   16  absf y
//   17  floor z
//   18  ceil z
//   19  round z
//   20  roundeven z
//   21  trunc z
//   22  fma x y 1
//   23  copysign x y
//   24  maxnumf y 0
//   25  minnumf y 0
//   26  ipowi (t+2) 3
//   27  ctlz k
//   28  cttz k
//   29  ctpop k
//   30  absi (t-2)
//   31  ceildivsi (k-100) 7
//   32  floordivsi (k-100) 7
// Rows of @math64:
//    0  sqrt x
//    1  cbrt x
//    2  exp x
//    3  expm1 y
//    4  log x
//    5  log10 x
//    6  sin x
//    7  cos x
//    8  atan2 y x
//    9  powf x y
//   10  erf (y + 1/8)
//   11  tanh y
//   12  fpowi x -2
module attributes {gpu.container_module} {
  gpu.module @kernels {
    func.func @milli(%v: f32) -> i32 {
      %k = arith.constant 1000.0 : f32
      %m = arith.mulf %v, %k : f32
      %r = math.round %m : f32
      %i = arith.fptosi %r : f32 to i32
      return %i : i32
    }
    func.func @micro(%v: f64) -> i64 {
      %k = arith.constant 1.0e6 : f64
      %m = arith.mulf %v, %k : f64
      %r = math.round %m : f64
      %i = arith.fptosi %r : f64 to i64
      return %i : i64
    }
    gpu.func @math32(%out: memref<33x4xi32>) kernel {
      %t = gpu.thread_id x
      %ti = arith.index_cast %t : index to i32
      %c1i = arith.constant 1 : i32
      %c2i = arith.constant 2 : i32
      %three = arith.constant 3 : i32
      %seven = arith.constant 7 : i32
      %c37 = arith.constant 37 : i32
      %c100 = arith.constant 100 : i32
      %t1 = arith.addi %ti, %c1i : i32
      %t2 = arith.addi %ti, %c2i : i32
      %tm2 = arith.subi %ti, %c2i : i32
      %k = arith.muli %t1, %c37 : i32
      %k100 = arith.subi %k, %c100 : i32
      %zero = arith.constant 0.0 : f32
      %one = arith.constant 1.0 : f32
      %onehalf = arith.constant 1.5 : f32
      %two = arith.constant 2.0 : f32
      %q = arith.constant 0.75 : f32
      %eighth = arith.constant 0.125 : f32
      %tf = arith.sitofp %ti : i32 to f32
      %t1f = arith.sitofp %t1 : i32 to f32
      %x = arith.mulf %t1f, %q : f32
      %y = arith.subf %x, %two : f32
      %y8 = arith.addf %y, %eighth : f32
      %z = arith.subf %tf, %onehalf : f32
      %c0 = arith.constant 0 : index
      %f0 = math.sqrt %x : f32
      %m0 = func.call @milli(%f0) : (f32) -> i32
      memref.store %m0, %out[%c0, %t] : memref<33x4xi32>
      %c1 = arith.constant 1 : index
      %f1 = math.rsqrt %x : f32
      %m1 = func.call @milli(%f1) : (f32) -> i32
      memref.store %m1, %out[%c1, %t] : memref<33x4xi32>
      %c2 = arith.constant 2 : index
      %f2 = math.exp %x : f32
      %m2 = func.call @milli(%f2) : (f32) -> i32
      memref.store %m2, %out[%c2, %t] : memref<33x4xi32>
      %c3 = arith.constant 3 : index
      %f3 = math.exp2 %x : f32
      %m3 = func.call @milli(%f3) : (f32) -> i32
      memref.store %m3, %out[%c3, %t] : memref<33x4xi32>
      %c4 = arith.constant 4 : index
      %f4 = math.log %x : f32
      %m4 = func.call @milli(%f4) : (f32) -> i32
      memref.store %m4, %out[%c4, %t] : memref<33x4xi32>
      %c5 = arith.constant 5 : index
      %f5 = math.log2 %x : f32
      %m5 = func.call @milli(%f5) : (f32) -> i32
      memref.store %m5, %out[%c5, %t] : memref<33x4xi32>
      %c6 = arith.constant 6 : index
      %f6 = math.log1p %x : f32
      %m6 = func.call @milli(%f6) : (f32) -> i32
      memref.store %m6, %out[%c6, %t] : memref<33x4xi32>
      %c7 = arith.constant 7 : index
      %f7 = math.sin %x : f32
      %m7 = func.call @milli(%f7) : (f32) -> i32
      memref.store %m7, %out[%c7, %t] : memref<33x4xi32>
      %c8 = arith.constant 8 : index
      %f8 = math.cos %x : f32
      %m8 = func.call @milli(%f8) : (f32) -> i32
      memref.store %m8, %out[%c8, %t] : memref<33x4xi32>
      %c9 = arith.constant 9 : index
      %f9 = math.tan %x : f32
      %m9 = func.call @milli(%f9) : (f32) -> i32
      memref.store %m9, %out[%c9, %t] : memref<33x4xi32>
      %c10 = arith.constant 10 : index
      %f10 = math.tanh %y : f32
      %m10 = func.call @milli(%f10) : (f32) -> i32
      memref.store %m10, %out[%c10, %t] : memref<33x4xi32>
      %c11 = arith.constant 11 : index
      %f11 = math.atan %y : f32
      %m11 = func.call @milli(%f11) : (f32) -> i32
      memref.store %m11, %out[%c11, %t] : memref<33x4xi32>
      %c12 = arith.constant 12 : index
      %f12 = math.atan2 %y, %x : f32
      %m12 = func.call @milli(%f12) : (f32) -> i32
      memref.store %m12, %out[%c12, %t] : memref<33x4xi32>
      %c13 = arith.constant 13 : index
      %f13 = math.erf %y8 : f32
      %m13 = func.call @milli(%f13) : (f32) -> i32
      memref.store %m13, %out[%c13, %t] : memref<33x4xi32>
      %c14 = arith.constant 14 : index
      %f14 = math.powf %x, %onehalf : f32
      %m14 = func.call @milli(%f14) : (f32) -> i32
      memref.store %m14, %out[%c14, %t] : memref<33x4xi32>
      %c15 = arith.constant 15 : index
      %f15 = math.fpowi %x, %t1 : f32, i32
      %m15 = func.call @milli(%f15) : (f32) -> i32
      memref.store %m15, %out[%c15, %t] : memref<33x4xi32>
      %c16 = arith.constant 16 : index
      %f16 = math.absf %y : f32
      %m16 = func.call @milli(%f16) : (f32) -> i32
      memref.store %m16, %out[%c16, %t] : memref<33x4xi32>
      %c17 = arith.constant 17 : index
      %f17 = math.floor %z : f32
      %m17 = func.call @milli(%f17) : (f32) -> i32
      memref.store %m17, %out[%c17, %t] : memref<33x4xi32>
      %c18 = arith.constant 18 : index
      %f18 = math.ceil %z : f32
      %m18 = func.call @milli(%f18) : (f32) -> i32
      memref.store %m18, %out[%c18, %t] : memref<33x4xi32>
      %c19 = arith.constant 19 : index
      %f19 = math.round %z : f32
      %m19 = func.call @milli(%f19) : (f32) -> i32
      memref.store %m19, %out[%c19, %t] : memref<33x4xi32>
      %c20 = arith.constant 20 : index
      %f20 = math.roundeven %z : f32
      %m20 = func.call @milli(%f20) : (f32) -> i32
      memref.store %m20, %out[%c20, %t] : memref<33x4xi32>
      %c21 = arith.constant 21 : index
      %f21 = math.trunc %z : f32
      %m21 = func.call @milli(%f21) : (f32) -> i32
      memref.store %m21, %out[%c21, %t] : memref<33x4xi32>
      %c22 = arith.constant 22 : index
      %f22 = math.fma %x, %y, %one : f32
      %m22 = func.call @milli(%f22) : (f32) -> i32
      memref.store %m22, %out[%c22, %t] : memref<33x4xi32>
      %c23 = arith.constant 23 : index
      %f23 = math.copysign %x, %y : f32
      %m23 = func.call @milli(%f23) : (f32) -> i32
      memref.store %m23, %out[%c23, %t] : memref<33x4xi32>
      %c24 = arith.constant 24 : index
      %f24 = arith.maxnumf %y, %zero : f32
      %m24 = func.call @milli(%f24) : (f32) -> i32
      memref.store %m24, %out[%c24, %t] : memref<33x4xi32>
      %c25 = arith.constant 25 : index
      %f25 = arith.minnumf %y, %zero : f32
      %m25 = func.call @milli(%f25) : (f32) -> i32
      memref.store %m25, %out[%c25, %t] : memref<33x4xi32>
      %c26 = arith.constant 26 : index
      %m26 = math.ipowi %t2, %three : i32
      memref.store %m26, %out[%c26, %t] : memref<33x4xi32>
      %c27 = arith.constant 27 : index
      %m27 = math.ctlz %k : i32
      memref.store %m27, %out[%c27, %t] : memref<33x4xi32>
      %c28 = arith.constant 28 : index
      %m28 = math.cttz %k : i32
      memref.store %m28, %out[%c28, %t] : memref<33x4xi32>
      %c29 = arith.constant 29 : index
      %m29 = math.ctpop %k : i32
      memref.store %m29, %out[%c29, %t] : memref<33x4xi32>
      %c30 = arith.constant 30 : index
      %m30 = math.absi %tm2 : i32
      memref.store %m30, %out[%c30, %t] : memref<33x4xi32>
      %c31 = arith.constant 31 : index
      %m31 = arith.ceildivsi %k100, %seven : i32
      memref.store %m31, %out[%c31, %t] : memref<33x4xi32>
      %c32 = arith.constant 32 : index
      %m32 = arith.floordivsi %k100, %seven : i32
      memref.store %m32, %out[%c32, %t] : memref<33x4xi32>
      gpu.return
    }
    gpu.func @math64(%out: memref<13x4xi64>) kernel {
      %t = gpu.thread_id x
      %ti = arith.index_cast %t : index to i32
      %c1i = arith.constant 1 : i32
      %mtwo = arith.constant -2 : i32
      %t1 = arith.addi %ti, %c1i : i32
      %two = arith.constant 2.0 : f64
      %q = arith.constant 0.75 : f64
      %eighth = arith.constant 0.125 : f64
      %t1f = arith.sitofp %t1 : i32 to f64
      %x = arith.mulf %t1f, %q : f64
      %y = arith.subf %x, %two : f64
      %y8 = arith.addf %y, %eighth : f64
      %c0 = arith.constant 0 : index
      %f0 = math.sqrt %x : f64
      %m0 = func.call @micro(%f0) : (f64) -> i64
      memref.store %m0, %out[%c0, %t] : memref<13x4xi64>
      %c1 = arith.constant 1 : index
      %f1 = math.cbrt %x : f64
      %m1 = func.call @micro(%f1) : (f64) -> i64
      memref.store %m1, %out[%c1, %t] : memref<13x4xi64>
      %c2 = arith.constant 2 : index
      %f2 = math.exp %x : f64
      %m2 = func.call @micro(%f2) : (f64) -> i64
      memref.store %m2, %out[%c2, %t] : memref<13x4xi64>
      %c3 = arith.constant 3 : index
      %f3 = math.expm1 %y : f64
      %m3 = func.call @micro(%f3) : (f64) -> i64
      memref.store %m3, %out[%c3, %t] : memref<13x4xi64>
      %c4 = arith.constant 4 : index
      %f4 = math.log %x : f64
      %m4 = func.call @micro(%f4) : (f64) -> i64
      memref.store %m4, %out[%c4, %t] : memref<13x4xi64>
      %c5 = arith.constant 5 : index
      %f5 = math.log10 %x : f64
      %m5 = func.call @micro(%f5) : (f64) -> i64
      memref.store %m5, %out[%c5, %t] : memref<13x4xi64>
      %c6 = arith.constant 6 : index
      %f6 = math.sin %x : f64
      %m6 = func.call @micro(%f6) : (f64) -> i64
      memref.store %m6, %out[%c6, %t] : memref<13x4xi64>
      %c7 = arith.constant 7 : index
      %f7 = math.cos %x : f64
      %m7 = func.call @micro(%f7) : (f64) -> i64
      memref.store %m7, %out[%c7, %t] : memref<13x4xi64>
      %c8 = arith.constant 8 : index
      %f8 = math.atan2 %y, %x : f64
      %m8 = func.call @micro(%f8) : (f64) -> i64
      memref.store %m8, %out[%c8, %t] : memref<13x4xi64>
      %c9 = arith.constant 9 : index
      %f9 = math.powf %x, %y : f64
      %m9 = func.call @micro(%f9) : (f64) -> i64
      memref.store %m9, %out[%c9, %t] : memref<13x4xi64>
      %c10 = arith.constant 10 : index
      %f10 = math.erf %y8 : f64
      %m10 = func.call @micro(%f10) : (f64) -> i64
      memref.store %m10, %out[%c10, %t] : memref<13x4xi64>
      %c11 = arith.constant 11 : index
      %f11 = math.tanh %y : f64
      %m11 = func.call @micro(%f11) : (f64) -> i64
      memref.store %m11, %out[%c11, %t] : memref<13x4xi64>
      %c12 = arith.constant 12 : index
      %f12 = math.fpowi %x, %mtwo : f64, i32
      %m12 = func.call @micro(%f12) : (f64) -> i64
      memref.store %m12, %out[%c12, %t] : memref<13x4xi64>
      gpu.return
    }
  }
  func.func private @printMemrefI32(memref<*xi32>)
  func.func private @printMemrefI64(memref<*xi64>)
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %d32 = gpu.alloc () : memref<33x4xi32>
    gpu.launch_func @kernels::@math32 blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1)
        args(%d32 : memref<33x4xi32>)
    %h32 = memref.alloc() : memref<33x4xi32>
    gpu.memcpy %h32, %d32 : memref<33x4xi32>, memref<33x4xi32>
    gpu.dealloc %d32 : memref<33x4xi32>
    %u32 = memref.cast %h32 : memref<33x4xi32> to memref<*xi32>
    call @printMemrefI32(%u32) : (memref<*xi32>) -> ()
    memref.dealloc %h32 : memref<33x4xi32>
    %d64 = gpu.alloc () : memref<13x4xi64>
    gpu.launch_func @kernels::@math64 blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1)
        args(%d64 : memref<13x4xi64>)
    %h64 = memref.alloc() : memref<13x4xi64>
    gpu.memcpy %h64, %d64 : memref<13x4xi64>, memref<13x4xi64>
    gpu.dealloc %d64 : memref<13x4xi64>
    %u64 = memref.cast %h64 : memref<13x4xi64> to memref<*xi64>
    call @printMemrefI64(%u64) : (memref<*xi64>) -> ()
    memref.dealloc %h64 : memref<13x4xi64>
    return
  }
}
