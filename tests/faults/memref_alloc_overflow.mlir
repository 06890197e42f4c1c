// Host memref.alloc with dynamic sizes is checked the same way: 5 x 2^60
// x 2 bytes overflows (LLVM's malloc call got the size modulo 2^64). An
// overflow on the way to an empty allocation is no overflow: the first
// alloc (0 x 2^62 x 2^62 f32) is fine.
module attributes {gpu.container_module} {
  func.func private @printI64(i64)
  func.func private @printNewline()
  func.func @main() {
    %c0 = arith.constant 0 : index
    %big = arith.constant 4611686018427387904 : index
    %empty = gpu.alloc (%c0, %big, %big) : memref<?x?x?xf32>
    gpu.dealloc %empty : memref<?x?x?xf32>
    %before = arith.constant 7 : i64
    func.call @printI64(%before) : (i64) -> ()
    func.call @printNewline() : () -> ()
    %c5 = arith.constant 5 : index
    %half = arith.constant 1152921504606846976 : index
    %h = memref.alloc (%c5, %half) : memref<?x?x2xi8>
    memref.dealloc %h : memref<?x?x2xi8>
    return
  }
}
