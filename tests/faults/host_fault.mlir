// A fault in host code, outside any kernel, after the host backend started
// (and installed its handlers): the program dies of SIGSEGV as it would
// without gpucc (status 139 from the shell), with no kernel line.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @nothing(%out: memref<16xi32>) kernel {
      gpu.return
    }
  }
  func.func private @printI64(i64)
  func.func private @printNewline()
  func.func @main() {
    %c1 = arith.constant 1 : index
    %far = arith.constant 1099511627776 : index
    %dev = gpu.alloc () : memref<16xi32>
    gpu.launch_func @kernels::@nothing blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%dev : memref<16xi32>)
    %v = arith.constant 42 : i32
    memref.store %v, %dev[%far] : memref<16xi32>
    %after = arith.constant 8 : i64
    func.call @printI64(%after) : (i64) -> ()
    func.call @printNewline() : () -> ()
    gpu.dealloc %dev : memref<16xi32>
    return
  }
}
