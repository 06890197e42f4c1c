// complex<f32> arithmetic in a kernel, as frontends for signal processing
// emit it: complex.create/re/im, add, mul, div, conj, abs and exp. Thread t
// of 4 takes z = 3t + 4ti and w = 1 - 2i and writes one row of integers
// (exact results as they are, others times 1000 and rounded, so that the
// output does not depend on the last ulp):
//   re(z+w) = 3t+1     im(z+w) = 4t-2     re(zw) = 11t     im(zw) = -2t
//   1000|z| = 5000t
//   1000 exp(ln 2 + i t pi/2) = 2000 (cos, sin)(t pi/2)
//   1000 zw/w = 1000 z = (3000t, 4000t)      1000 re(conj(z) z) = 25000t^2
module attributes {gpu.container_module} {
  gpu.module @kernels {
    func.func @milli(%x: f32) -> i32 {
      %k = arith.constant 1000.0 : f32
      %m = arith.mulf %x, %k : f32
      %r = math.round %m : f32
      %i = arith.fptosi %r : f32 to i32
      return %i : i32
    }
    gpu.func @cplx(%out: memref<4x10xi32>) kernel {
      %t = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %c5 = arith.constant 5 : index
      %c6 = arith.constant 6 : index
      %c7 = arith.constant 7 : index
      %c8 = arith.constant 8 : index
      %c9 = arith.constant 9 : index
      %ti = arith.index_cast %t : index to i32
      %tf = arith.sitofp %ti : i32 to f32
      %three = arith.constant 3.0 : f32
      %four = arith.constant 4.0 : f32
      %re = arith.mulf %tf, %three : f32
      %im = arith.mulf %tf, %four : f32
      %z = complex.create %re, %im : complex<f32>
      %w = complex.constant [1.0 : f32, -2.0 : f32] : complex<f32>
      %sum = complex.add %z, %w : complex<f32>
      %prod = complex.mul %z, %w : complex<f32>
      %s0 = complex.re %sum : complex<f32>
      %s1 = complex.im %sum : complex<f32>
      %p0 = complex.re %prod : complex<f32>
      %p1 = complex.im %prod : complex<f32>
      %i0 = arith.fptosi %s0 : f32 to i32
      %i1 = arith.fptosi %s1 : f32 to i32
      %i2 = arith.fptosi %p0 : f32 to i32
      %i3 = arith.fptosi %p1 : f32 to i32
      memref.store %i0, %out[%t, %c0] : memref<4x10xi32>
      memref.store %i1, %out[%t, %c1] : memref<4x10xi32>
      memref.store %i2, %out[%t, %c2] : memref<4x10xi32>
      memref.store %i3, %out[%t, %c3] : memref<4x10xi32>
      %abs = complex.abs %z : complex<f32>
      %i4 = func.call @milli(%abs) : (f32) -> i32
      memref.store %i4, %out[%t, %c4] : memref<4x10xi32>
      %ln2 = arith.constant 0.693147182 : f32
      %halfpi = arith.constant 1.57079637 : f32
      %theta = arith.mulf %tf, %halfpi : f32
      %arg = complex.create %ln2, %theta : complex<f32>
      %e = complex.exp %arg : complex<f32>
      %e0 = complex.re %e : complex<f32>
      %e1 = complex.im %e : complex<f32>
      %i5 = func.call @milli(%e0) : (f32) -> i32
      %i6 = func.call @milli(%e1) : (f32) -> i32
      memref.store %i5, %out[%t, %c5] : memref<4x10xi32>
      memref.store %i6, %out[%t, %c6] : memref<4x10xi32>
      %q = complex.div %prod, %w : complex<f32>
      %q0 = complex.re %q : complex<f32>
      %q1 = complex.im %q : complex<f32>
      %i7 = func.call @milli(%q0) : (f32) -> i32
      %i8 = func.call @milli(%q1) : (f32) -> i32
      memref.store %i7, %out[%t, %c7] : memref<4x10xi32>
      memref.store %i8, %out[%t, %c8] : memref<4x10xi32>
      %zc = complex.conj %z : complex<f32>
      %n = complex.mul %zc, %z : complex<f32>
      %n0 = complex.re %n : complex<f32>
      %i9 = func.call @milli(%n0) : (f32) -> i32
      memref.store %i9, %out[%t, %c9] : memref<4x10xi32>
      gpu.return
    }
  }
  func.func private @printMemrefI32(memref<*xi32>)
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %d = gpu.alloc () : memref<4x10xi32>
    gpu.launch_func @kernels::@cplx blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1)
        args(%d : memref<4x10xi32>)
    %h = memref.alloc() : memref<4x10xi32>
    gpu.memcpy %h, %d : memref<4x10xi32>, memref<4x10xi32>
    gpu.dealloc %d : memref<4x10xi32>
    %u = memref.cast %h : memref<4x10xi32> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    memref.dealloc %h : memref<4x10xi32>
    return
  }
}
