// gpu.alloc of a negative dynamic size (computed at run time): LLVM's
// lowering made it a huge allocation and the memset after it crashed. Now
// the size is checked before: one located line, status 1, after "7".
module attributes {gpu.container_module} {
  func.func private @printI64(i64)
  func.func private @printNewline()
  func.func @main() {
    %before = arith.constant 7 : i64
    func.call @printI64(%before) : (i64) -> ()
    func.call @printNewline() : () -> ()
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %n = arith.subi %c0, %c4 : index
    %dev = gpu.alloc (%n) : memref<?xf32>
    %zero = arith.constant 0.0 : f32
    gpu.memset %dev, %zero : memref<?xf32>, f32
    gpu.dealloc %dev : memref<?xf32>
    return
  }
}
