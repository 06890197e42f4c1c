// The runner utilities a test program prints with, beyond printMemrefF32:
// rank 0 and rank 3 memrefs, float special values, printMemref for f64,
// i64, index, complex<f32>, complex<f64>, and (through their C interface)
// i16, f16, bf16, printMemrefShapeF32, and verifyMemRefF32's count of
// differing elements (its messages go to stderr). The format is upstream's:
// C++ stream output of each element, rows nested in brackets. (Not i8:
// upstream streams int8_t as a character.)
module {
  func.func private @printMemrefF32(memref<*xf32>)
  func.func private @printMemrefF64(memref<*xf64>)
  func.func private @printMemrefI32(memref<*xi32>)
  func.func private @printMemrefI64(memref<*xi64>)
  func.func private @printMemrefInd(memref<*xindex>)
  func.func private @printMemrefC32(memref<*xcomplex<f32>>)
  func.func private @printMemrefC64(memref<*xcomplex<f64>>)
  func.func private @printMemrefI16(memref<*xi16>) attributes {llvm.emit_c_interface}
  func.func private @printMemrefF16(memref<*xf16>) attributes {llvm.emit_c_interface}
  func.func private @printMemrefBF16(memref<*xbf16>) attributes {llvm.emit_c_interface}
  func.func private @printMemrefShapeF32(memref<*xf32>) attributes {llvm.emit_c_interface}
  func.func private @verifyMemRefF32(memref<*xf32>, memref<*xf32>) -> i64 attributes {llvm.emit_c_interface}
  func.func private @printI64(i64)
  func.func private @printNewline()

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c5 = arith.constant 5 : index
    %c6 = arith.constant 6 : index

    // rank 0
    %s = memref.alloc() : memref<f32>
    %v25 = arith.constant 2.5 : f32
    memref.store %v25, %s[] : memref<f32>
    %us = memref.cast %s : memref<f32> to memref<*xf32>
    call @printMemrefF32(%us) : (memref<*xf32>) -> ()

    // rank 3, 2x2x3 of 0 .. 11
    %r3 = memref.alloc() : memref<2x2x3xi32>
    scf.for %i = %c0 to %c2 step %c1 {
      scf.for %j = %c0 to %c2 step %c1 {
        scf.for %k = %c0 to %c3 step %c1 {
          %i6 = arith.muli %i, %c6 : index
          %j3 = arith.muli %j, %c3 : index
          %a = arith.addi %i6, %j3 : index
          %b = arith.addi %a, %k : index
          %bi = arith.index_cast %b : index to i32
          memref.store %bi, %r3[%i, %j, %k] : memref<2x2x3xi32>
        }
      }
    }
    %ur3 = memref.cast %r3 : memref<2x2x3xi32> to memref<*xi32>
    call @printMemrefI32(%ur3) : (memref<*xi32>) -> ()

    // f32 special values
    %sp = memref.alloc() : memref<7xf32>
    %inf = arith.constant 0x7F800000 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %nan = arith.constant 0x7FC00000 : f32
    %nzero = arith.constant -0.0 : f32
    %tiny = arith.constant 1.0e-7 : f32
    %big = arith.constant 123456789.0 : f32
    %third = arith.constant 0.333333343 : f32
    memref.store %inf, %sp[%c0] : memref<7xf32>
    memref.store %ninf, %sp[%c1] : memref<7xf32>
    memref.store %nan, %sp[%c2] : memref<7xf32>
    memref.store %nzero, %sp[%c3] : memref<7xf32>
    memref.store %tiny, %sp[%c4] : memref<7xf32>
    memref.store %big, %sp[%c5] : memref<7xf32>
    memref.store %third, %sp[%c6] : memref<7xf32>
    %usp = memref.cast %sp : memref<7xf32> to memref<*xf32>
    call @printMemrefF32(%usp) : (memref<*xf32>) -> ()

    // f64, i64, index
    %d = memref.alloc() : memref<3xf64>
    %d0 = arith.constant 1.0e300 : f64
    %d1 = arith.constant 0.1 : f64
    %d2 = arith.constant -123456789.0 : f64
    memref.store %d0, %d[%c0] : memref<3xf64>
    memref.store %d1, %d[%c1] : memref<3xf64>
    memref.store %d2, %d[%c2] : memref<3xf64>
    %ud = memref.cast %d : memref<3xf64> to memref<*xf64>
    call @printMemrefF64(%ud) : (memref<*xf64>) -> ()
    %l = memref.alloc() : memref<2xi64>
    %lmin = arith.constant -9223372036854775808 : i64
    %lmax = arith.constant 9223372036854775807 : i64
    memref.store %lmin, %l[%c0] : memref<2xi64>
    memref.store %lmax, %l[%c1] : memref<2xi64>
    %ul = memref.cast %l : memref<2xi64> to memref<*xi64>
    call @printMemrefI64(%ul) : (memref<*xi64>) -> ()
    %x = memref.alloc() : memref<2xindex>
    %m1 = arith.constant -1 : index
    memref.store %c5, %x[%c0] : memref<2xindex>
    memref.store %m1, %x[%c1] : memref<2xindex>
    %ux = memref.cast %x : memref<2xindex> to memref<*xindex>
    call @printMemrefInd(%ux) : (memref<*xindex>) -> ()

    // complex
    %z = memref.alloc() : memref<2xcomplex<f32>>
    %z0 = complex.constant [1.5 : f32, -2.0 : f32] : complex<f32>
    %z1 = complex.constant [0.0 : f32, 0.25 : f32] : complex<f32>
    memref.store %z0, %z[%c0] : memref<2xcomplex<f32>>
    memref.store %z1, %z[%c1] : memref<2xcomplex<f32>>
    %uz = memref.cast %z : memref<2xcomplex<f32>> to memref<*xcomplex<f32>>
    call @printMemrefC32(%uz) : (memref<*xcomplex<f32>>) -> ()
    %w = memref.alloc() : memref<1xcomplex<f64>>
    %w0 = complex.constant [-0.5 : f64, 1.0e20 : f64] : complex<f64>
    memref.store %w0, %w[%c0] : memref<1xcomplex<f64>>
    %uw = memref.cast %w : memref<1xcomplex<f64>> to memref<*xcomplex<f64>>
    call @printMemrefC64(%uw) : (memref<*xcomplex<f64>>) -> ()

    // small types through the C interface
    %b16 = memref.alloc() : memref<2xi16>
    %i16a = arith.constant -32768 : i16
    %i16b = arith.constant 1234 : i16
    memref.store %i16a, %b16[%c0] : memref<2xi16>
    memref.store %i16b, %b16[%c1] : memref<2xi16>
    %ub16 = memref.cast %b16 : memref<2xi16> to memref<*xi16>
    call @printMemrefI16(%ub16) : (memref<*xi16>) -> ()
    %h = memref.alloc() : memref<2xf16>
    %h0 = arith.constant 0.5 : f16
    %h1 = arith.constant -65504.0 : f16
    memref.store %h0, %h[%c0] : memref<2xf16>
    memref.store %h1, %h[%c1] : memref<2xf16>
    %uh = memref.cast %h : memref<2xf16> to memref<*xf16>
    call @printMemrefF16(%uh) : (memref<*xf16>) -> ()
    %bf = memref.alloc() : memref<2xbf16>
    %bf0 = arith.constant 3.0 : bf16
    %bf1 = arith.constant -0.125 : bf16
    memref.store %bf0, %bf[%c0] : memref<2xbf16>
    memref.store %bf1, %bf[%c1] : memref<2xbf16>
    %ubf = memref.cast %bf : memref<2xbf16> to memref<*xbf16>
    call @printMemrefBF16(%ubf) : (memref<*xbf16>) -> ()

    // the shape line alone, then verify
    %sub = memref.subview %sp[1] [3] [2] : memref<7xf32> to memref<3xf32, strided<[2], offset: 1>>
    %usub = memref.cast %sub : memref<3xf32, strided<[2], offset: 1>> to memref<*xf32>
    call @printMemrefShapeF32(%usub) : (memref<*xf32>) -> ()
    %e = memref.alloc() : memref<4xf32>
    %f = memref.alloc() : memref<4xf32>
    scf.for %i = %c0 to %c4 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %fi = arith.sitofp %ii : i32 to f32
      memref.store %fi, %e[%i] : memref<4xf32>
      memref.store %fi, %f[%i] : memref<4xf32>
    }
    %ue = memref.cast %e : memref<4xf32> to memref<*xf32>
    %uf = memref.cast %f : memref<4xf32> to memref<*xf32>
    %same = call @verifyMemRefF32(%ue, %uf) : (memref<*xf32>, memref<*xf32>) -> i64
    call @printI64(%same) : (i64) -> ()
    call @printNewline() : () -> ()
    %off = arith.constant 10.0 : f32
    memref.store %off, %f[%c2] : memref<4xf32>
    memref.store %off, %f[%c3] : memref<4xf32>
    %diff = call @verifyMemRefF32(%ue, %uf) : (memref<*xf32>, memref<*xf32>) -> i64
    call @printI64(%diff) : (i64) -> ()
    call @printNewline() : () -> ()
    return
  }
}
