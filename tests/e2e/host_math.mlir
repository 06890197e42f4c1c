// math and complex in host code (not in kernels), lowered through LLVM
// intrinsics, libm calls and generated functions: each result is printed
// as a label and round(1000 v) for f32 or round(10^6 v) for f64, so that
// the output does not depend on the last ulp (x y + 1 = 0.0625 is the
// halfway case that math.round takes away from zero), integer results as
// they are. x = 0.75, y = -1.25, z = x + y i.
module {
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
  func.func @main() {
    %x = arith.constant 0.75 : f32
    %y = arith.constant -1.25 : f32
    %my1 = arith.constant 2.25 : f32
    %h25 = arith.constant -2.5 : f32
    %one = arith.constant 1.0 : f32
    %two = arith.constant 2.0 : f32
    %s75 = arith.constant 7.5 : f32
    %three = arith.constant 3 : i32
    %f0 = math.sqrt %x : f32
    %m0 = call @milli(%f0) : (f32) -> i32
    vector.print str "sqrt x: "
    vector.print %m0 : i32
    %f1 = math.rsqrt %x : f32
    %m1 = call @milli(%f1) : (f32) -> i32
    vector.print str "rsqrt x: "
    vector.print %m1 : i32
    %f2 = math.cbrt %x : f32
    %m2 = call @milli(%f2) : (f32) -> i32
    vector.print str "cbrt x: "
    vector.print %m2 : i32
    %f3 = math.exp %x : f32
    %m3 = call @milli(%f3) : (f32) -> i32
    vector.print str "exp x: "
    vector.print %m3 : i32
    %f4 = math.exp2 %x : f32
    %m4 = call @milli(%f4) : (f32) -> i32
    vector.print str "exp2 x: "
    vector.print %m4 : i32
    %f5 = math.expm1 %y : f32
    %m5 = call @milli(%f5) : (f32) -> i32
    vector.print str "expm1 y: "
    vector.print %m5 : i32
    %f6 = math.log %x : f32
    %m6 = call @milli(%f6) : (f32) -> i32
    vector.print str "log x: "
    vector.print %m6 : i32
    %f7 = math.log10 %x : f32
    %m7 = call @milli(%f7) : (f32) -> i32
    vector.print str "log10 x: "
    vector.print %m7 : i32
    %f8 = math.log2 %x : f32
    %m8 = call @milli(%f8) : (f32) -> i32
    vector.print str "log2 x: "
    vector.print %m8 : i32
    %f9 = math.log1p %x : f32
    %m9 = call @milli(%f9) : (f32) -> i32
    vector.print str "log1p x: "
    vector.print %m9 : i32
    %f10 = math.sin %y : f32
    %m10 = call @milli(%f10) : (f32) -> i32
    vector.print str "sin y: "
    vector.print %m10 : i32
    %f11 = math.cos %y : f32
    %m11 = call @milli(%f11) : (f32) -> i32
    vector.print str "cos y: "
    vector.print %m11 : i32
    %f12 = math.tan %x : f32
    %m12 = call @milli(%f12) : (f32) -> i32
    vector.print str "tan x: "
    vector.print %m12 : i32
    %f13 = math.asin %x : f32
    %m13 = call @milli(%f13) : (f32) -> i32
    vector.print str "asin x: "
    vector.print %m13 : i32
    %f14 = math.acos %x : f32
    %m14 = call @milli(%f14) : (f32) -> i32
    vector.print str "acos x: "
    vector.print %m14 : i32
    %f15 = math.atan %y : f32
    %m15 = call @milli(%f15) : (f32) -> i32
    vector.print str "atan y: "
    vector.print %m15 : i32
    %f16 = math.atan2 %y, %x : f32
    %m16 = call @milli(%f16) : (f32) -> i32
    vector.print str "atan2 y x: "
    vector.print %m16 : i32
    %f17 = math.sinh %y : f32
    %m17 = call @milli(%f17) : (f32) -> i32
    vector.print str "sinh y: "
    vector.print %m17 : i32
    %f18 = math.cosh %y : f32
    %m18 = call @milli(%f18) : (f32) -> i32
    vector.print str "cosh y: "
    vector.print %m18 : i32
    %f19 = math.tanh %y : f32
    %m19 = call @milli(%f19) : (f32) -> i32
    vector.print str "tanh y: "
    vector.print %m19 : i32
    %f20 = math.asinh %x : f32
    %m20 = call @milli(%f20) : (f32) -> i32
    vector.print str "asinh x: "
    vector.print %m20 : i32
    %f21 = math.acosh %my1 : f32
    %m21 = call @milli(%f21) : (f32) -> i32
    vector.print str "acosh 1-y: "
    vector.print %m21 : i32
    %f22 = math.atanh %x : f32
    %m22 = call @milli(%f22) : (f32) -> i32
    vector.print str "atanh x: "
    vector.print %m22 : i32
    %f23 = math.erf %y : f32
    %m23 = call @milli(%f23) : (f32) -> i32
    vector.print str "erf y: "
    vector.print %m23 : i32
    %f24 = math.erfc %y : f32
    %m24 = call @milli(%f24) : (f32) -> i32
    vector.print str "erfc y: "
    vector.print %m24 : i32
    %f25 = math.powf %x, %y : f32
    %m25 = call @milli(%f25) : (f32) -> i32
    vector.print str "powf x y: "
    vector.print %m25 : i32
    %f26 = math.fpowi %y, %three : f32, i32
    %m26 = call @milli(%f26) : (f32) -> i32
    vector.print str "fpowi y 3: "
    vector.print %m26 : i32
    %f27 = math.round %h25 : f32
    %m27 = call @milli(%f27) : (f32) -> i32
    vector.print str "round -2.5: "
    vector.print %m27 : i32
    %f28 = math.roundeven %h25 : f32
    %m28 = call @milli(%f28) : (f32) -> i32
    vector.print str "roundeven -2.5: "
    vector.print %m28 : i32
    %f29 = math.trunc %y : f32
    %m29 = call @milli(%f29) : (f32) -> i32
    vector.print str "trunc y: "
    vector.print %m29 : i32
    %f30 = math.floor %y : f32
    %m30 = call @milli(%f30) : (f32) -> i32
    vector.print str "floor y: "
    vector.print %m30 : i32
    %f31 = math.ceil %y : f32
    %m31 = call @milli(%f31) : (f32) -> i32
    vector.print str "ceil y: "
    vector.print %m31 : i32
    %f32 = math.copysign %x, %y : f32
    %m32 = call @milli(%f32) : (f32) -> i32
    vector.print str "copysign x y: "
    vector.print %m32 : i32
    %f33 = math.absf %y : f32
    %m33 = call @milli(%f33) : (f32) -> i32
    vector.print str "absf y: "
    vector.print %m33 : i32
    %f34 = math.fma %x, %y, %one : f32
    %m34 = call @milli(%f34) : (f32) -> i32
    vector.print str "fma x y 1: "
    vector.print %m34 : i32
    %f35 = arith.maxnumf %x, %y : f32
    %m35 = call @milli(%f35) : (f32) -> i32
    vector.print str "maxnumf x y: "
    vector.print %m35 : i32
    %f36 = arith.minimumf %x, %y : f32
    %m36 = call @milli(%f36) : (f32) -> i32
    vector.print str "minimumf x y: "
    vector.print %m36 : i32
    %f37 = arith.remf %s75, %two : f32
    %m37 = call @milli(%f37) : (f32) -> i32
    vector.print str "remf 7.5 2: "
    vector.print %m37 : i32
    %n3 = arith.constant 3 : i64
    %n4 = arith.constant 4 : i64
    %i0 = math.ipowi %n3, %n4 : i64
    vector.print str "ipowi 3 4: "
    vector.print %i0 : i64
    %p40 = arith.constant 1099511627776 : i64
    %i1 = math.ctlz %p40 : i64
    vector.print str "ctlz 2^40: "
    vector.print %i1 : i64
    %i2 = math.cttz %p40 : i64
    vector.print str "cttz 2^40: "
    vector.print %i2 : i64
    %ff = arith.constant 16711935 : i64
    %i3 = math.ctpop %ff : i64
    vector.print str "ctpop 0xff00ff: "
    vector.print %i3 : i64
    %n5 = arith.constant -5 : i64
    %i4 = math.absi %n5 : i64
    vector.print str "absi -5: "
    vector.print %i4 : i64
    %n7 = arith.constant -7 : i64
    %n2 = arith.constant 2 : i64
    %i5 = arith.ceildivsi %n7, %n2 : i64
    vector.print str "ceildivsi -7 2: "
    vector.print %i5 : i64
    %i6 = arith.floordivsi %n7, %n2 : i64
    vector.print str "floordivsi -7 2: "
    vector.print %i6 : i64
    %p7 = arith.constant 7 : i64
    %i7 = arith.ceildivui %p7, %n2 : i64
    vector.print str "ceildivui 7 2: "
    vector.print %i7 : i64
    %zr = arith.constant 0.75 : f64
    %zi = arith.constant -1.25 : f64
    %z = complex.create %zr, %zi : complex<f64>
    %two_c = complex.constant [2.0 : f64, 0.0 : f64] : complex<f64>
    %one_c = complex.constant [1.0 : f64, 0.0 : f64] : complex<f64>
    %abs = complex.abs %z : complex<f64>
    %abs_m = call @micro(%abs) : (f64) -> i64
    vector.print str "abs z: "
    vector.print %abs_m : i64
    %ang = complex.angle %z : complex<f64>
    %ang_m = call @micro(%ang) : (f64) -> i64
    vector.print str "angle z: "
    vector.print %ang_m : i64
    %c0 = complex.exp %z : complex<f64>
    %c0r = complex.re %c0 : complex<f64>
    %c0i = complex.im %c0 : complex<f64>
    %c0rm = call @micro(%c0r) : (f64) -> i64
    %c0im = call @micro(%c0i) : (f64) -> i64
    vector.print str "exp z: "
    vector.print %c0rm : i64 punctuation <comma>
    vector.print %c0im : i64
    %c1 = complex.log %z : complex<f64>
    %c1r = complex.re %c1 : complex<f64>
    %c1i = complex.im %c1 : complex<f64>
    %c1rm = call @micro(%c1r) : (f64) -> i64
    %c1im = call @micro(%c1i) : (f64) -> i64
    vector.print str "log z: "
    vector.print %c1rm : i64 punctuation <comma>
    vector.print %c1im : i64
    %c2 = complex.sqrt %z : complex<f64>
    %c2r = complex.re %c2 : complex<f64>
    %c2i = complex.im %c2 : complex<f64>
    %c2rm = call @micro(%c2r) : (f64) -> i64
    %c2im = call @micro(%c2i) : (f64) -> i64
    vector.print str "sqrt z: "
    vector.print %c2rm : i64 punctuation <comma>
    vector.print %c2im : i64
    %c3 = complex.sin %z : complex<f64>
    %c3r = complex.re %c3 : complex<f64>
    %c3i = complex.im %c3 : complex<f64>
    %c3rm = call @micro(%c3r) : (f64) -> i64
    %c3im = call @micro(%c3i) : (f64) -> i64
    vector.print str "sin z: "
    vector.print %c3rm : i64 punctuation <comma>
    vector.print %c3im : i64
    %c4 = complex.tanh %z : complex<f64>
    %c4r = complex.re %c4 : complex<f64>
    %c4i = complex.im %c4 : complex<f64>
    %c4rm = call @micro(%c4r) : (f64) -> i64
    %c4im = call @micro(%c4i) : (f64) -> i64
    vector.print str "tanh z: "
    vector.print %c4rm : i64 punctuation <comma>
    vector.print %c4im : i64
    %c5 = complex.pow %z, %two_c : complex<f64>
    %c5r = complex.re %c5 : complex<f64>
    %c5i = complex.im %c5 : complex<f64>
    %c5rm = call @micro(%c5r) : (f64) -> i64
    %c5im = call @micro(%c5i) : (f64) -> i64
    vector.print str "pow z 2: "
    vector.print %c5rm : i64 punctuation <comma>
    vector.print %c5im : i64
    %c6 = complex.div %one_c, %z : complex<f64>
    %c6r = complex.re %c6 : complex<f64>
    %c6i = complex.im %c6 : complex<f64>
    %c6rm = call @micro(%c6r) : (f64) -> i64
    %c6im = call @micro(%c6i) : (f64) -> i64
    vector.print str "1 / z: "
    vector.print %c6rm : i64 punctuation <comma>
    vector.print %c6im : i64
    return
  }
}
