// gpu.dealloc of the same buffer twice: glibc's "double free" and SIGABRT
// before; now the runtime's line naming the second gpu.dealloc, status 1,
// after "7".
module attributes {gpu.container_module} {
  func.func private @printI64(i64)
  func.func private @printNewline()
  func.func @main() {
    %before = arith.constant 7 : i64
    func.call @printI64(%before) : (i64) -> ()
    func.call @printNewline() : () -> ()
    %n = arith.constant 16 : index
    %dev = gpu.alloc (%n) : memref<?xf32>
    gpu.dealloc %dev : memref<?xf32>
    gpu.dealloc %dev : memref<?xf32>
    return
  }
}
