// gpu.dealloc of a buffer from memref.alloc, which gpu.alloc never handed
// out: the runtime's line naming the gpu.dealloc, status 1, after "7".
module attributes {gpu.container_module} {
  func.func private @printI64(i64)
  func.func private @printNewline()
  func.func @main() {
    %before = arith.constant 7 : i64
    func.call @printI64(%before) : (i64) -> ()
    func.call @printNewline() : () -> ()
    %host = memref.alloc () : memref<16xf32>
    gpu.dealloc %host : memref<16xf32>
    return
  }
}
