// gpu.alloc of 2^62 f32: 2^64 bytes, which wrapped to an allocation of 0
// bytes (NULL) and a crash in the memset after it. Now a located line,
// status 1, after "7".
module attributes {gpu.container_module} {
  func.func private @printI64(i64)
  func.func private @printNewline()
  func.func @main() {
    %before = arith.constant 7 : i64
    func.call @printI64(%before) : (i64) -> ()
    func.call @printNewline() : () -> ()
    %n = arith.constant 4611686018427387904 : index
    %dev = gpu.alloc (%n) : memref<?xf32>
    %zero = arith.constant 0.0 : f32
    gpu.memset %dev, %zero : memref<?xf32>, f32
    gpu.dealloc %dev : memref<?xf32>
    return
  }
}
