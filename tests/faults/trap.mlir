// llvm.intr.trap in a kernel (what a GPU runs as `trap`): block (1,0,0) of
// a one-thread-per-block grid traps; the program ends with the `trap` line
// naming the kernel, its module, the block and the thread, status 1.
module attributes {gpu.container_module} {
  gpu.module @traps {
    gpu.func @trapper(%out: memref<4xi32>) kernel {
      %b = gpu.block_id x
      %c1 = arith.constant 1 : index
      %is = arith.cmpi eq, %b, %c1 : index
      scf.if %is {
        llvm.intr.trap
      }
      %v = arith.constant 1 : i32
      memref.store %v, %out[%b] : memref<4xi32>
      gpu.return
    }
  }
  func.func private @printI64(i64)
  func.func private @printNewline()
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %before = arith.constant 7 : i64
    func.call @printI64(%before) : (i64) -> ()
    func.call @printNewline() : () -> ()
    %dev = gpu.alloc () : memref<4xi32>
    gpu.launch_func @traps::@trapper blocks in (%c4, %c1, %c1) threads in (%c1, %c1, %c1) args(%dev : memref<4xi32>)
    %after = arith.constant 8 : i64
    func.call @printI64(%after) : (i64) -> ()
    func.call @printNewline() : () -> ()
    gpu.dealloc %dev : memref<4xi32>
    return
  }
}
