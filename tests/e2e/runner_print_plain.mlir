// printMemrefI8, I16, F16 and BF16 called without llvm.emit_c_interface
// (plain rank + descriptor arguments, like printMemrefF32): upstream has
// only their C-interface forms, so such a program linked nowhere; gpucc's
// runtime has both, printing the same. i8 elements print as characters,
// as upstream streams int8_t.
module {
  func.func private @printMemrefI8(memref<*xi8>)
  func.func private @printMemrefI16(memref<*xi16>)
  func.func private @printMemrefF16(memref<*xf16>)
  func.func private @printMemrefBF16(memref<*xbf16>)
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %b = memref.alloc() : memref<2xi8>
    %A = arith.constant 65 : i8
    %z = arith.constant 122 : i8
    memref.store %A, %b[%c0] : memref<2xi8>
    memref.store %z, %b[%c1] : memref<2xi8>
    %ub = memref.cast %b : memref<2xi8> to memref<*xi8>
    call @printMemrefI8(%ub) : (memref<*xi8>) -> ()
    %s = memref.alloc() : memref<2xi16>
    %m = arith.constant -300 : i16
    %p = arith.constant 7 : i16
    memref.store %m, %s[%c0] : memref<2xi16>
    memref.store %p, %s[%c1] : memref<2xi16>
    %us = memref.cast %s : memref<2xi16> to memref<*xi16>
    call @printMemrefI16(%us) : (memref<*xi16>) -> ()
    %h = memref.alloc() : memref<2xf16>
    %h0 = arith.constant 1.5 : f16
    %h1 = arith.constant -0.25 : f16
    memref.store %h0, %h[%c0] : memref<2xf16>
    memref.store %h1, %h[%c1] : memref<2xf16>
    %uh = memref.cast %h : memref<2xf16> to memref<*xf16>
    call @printMemrefF16(%uh) : (memref<*xf16>) -> ()
    %f = memref.alloc() : memref<2xbf16>
    %f0 = arith.constant 3.0 : bf16
    %f1 = arith.constant 256.0 : bf16
    memref.store %f0, %f[%c0] : memref<2xbf16>
    memref.store %f1, %f[%c1] : memref<2xbf16>
    %uf = memref.cast %f : memref<2xbf16> to memref<*xbf16>
    call @printMemrefBF16(%uf) : (memref<*xbf16>) -> ()
    return
  }
}
