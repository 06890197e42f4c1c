// An integer division by a kernel argument that is 0 at run time (so that
// LLVM cannot fold it): x86's idiv raises SIGFPE; the program ends with the
// `arithmetic fault` line naming the kernel, its module and a block,
// status 1.
module attributes {gpu.container_module} {
  gpu.module @arith {
    gpu.func @divide(%out: memref<64xi32>, %d: i32) kernel {
      %t = gpu.thread_id x
      %ti = arith.index_cast %t : index to i32
      %q = arith.divsi %ti, %d : i32
      memref.store %q, %out[%t] : memref<64xi32>
      gpu.return
    }
  }
  func.func private @printI64(i64)
  func.func private @printNewline()
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %zero = arith.constant 0 : i32
    %before = arith.constant 7 : i64
    func.call @printI64(%before) : (i64) -> ()
    func.call @printNewline() : () -> ()
    %dev = gpu.alloc () : memref<64xi32>
    gpu.launch_func @arith::@divide blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%dev : memref<64xi32>, %zero : i32)
    %after = arith.constant 8 : i64
    func.call @printI64(%after) : (i64) -> ()
    func.call @printNewline() : () -> ()
    gpu.dealloc %dev : memref<64xi32>
    return
  }
}
