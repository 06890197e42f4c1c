// math on bf16 in host code: LLVM's x86 backend computes in f32 and rounds
// with compiler-rt's __truncsfbf2, which Debian 12's libgcc lacks, so the
// link failed ("undefined reference"); gpucc links compiler-rt's builtins.
//   sqrt(2) = 1.41406, exp(0.5) = 1.64844, acos(0.5) = 1.04688 (in bf16)
module {
  memref.global "private" @g : memref<3xbf16> = dense<[2.0, 0.5, 0.5]>
  func.func @main() {
    %m = memref.get_global @g : memref<3xbf16>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %a = memref.load %m[%c0] : memref<3xbf16>
    %b = memref.load %m[%c1] : memref<3xbf16>
    %c = memref.load %m[%c2] : memref<3xbf16>
    %s = math.sqrt %a : bf16
    %e = math.exp %b : bf16
    %k = math.acos %c : bf16
    vector.print %s : bf16
    vector.print %e : bf16
    vector.print %k : bf16
    return
  }
}
