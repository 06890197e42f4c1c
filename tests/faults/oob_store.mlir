// An out-of-bounds store far outside its buffer (index 1 << 40, passed at
// run time so that nothing folds it), by thread 17 of block 3 only: on a GPU
// an illegal memory access that fails the launch; on the CPU the program
// ends with one line naming the kernel, its module and the block, status 1.
// What was printed before (by the host and by gpu.printf) is flushed first.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @hello(%out: memref<16xi32>) kernel {
      %x = gpu.thread_id x
      %xi = arith.index_cast %x : index to i32
      gpu.printf "hello from thread %d\n", %xi : i32
      gpu.return
    }
    gpu.func @store_far(%out: memref<16xi32>, %far: index) kernel {
      %b = gpu.block_id x
      %t = gpu.thread_id x
      %c3 = arith.constant 3 : index
      %c17 = arith.constant 17 : index
      %isb = arith.cmpi eq, %b, %c3 : index
      %ist = arith.cmpi eq, %t, %c17 : index
      %me = arith.andi %isb, %ist : i1
      scf.if %me {
        %v = arith.constant 42 : i32
        memref.store %v, %out[%far] : memref<16xi32>
      }
      gpu.return
    }
  }
  func.func private @printI64(i64)
  func.func private @printNewline()
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c32 = arith.constant 32 : index
    %far = arith.constant 1099511627776 : index
    %before = arith.constant 7 : i64
    func.call @printI64(%before) : (i64) -> ()
    func.call @printNewline() : () -> ()
    %dev = gpu.alloc () : memref<16xi32>
    gpu.launch_func @kernels::@hello blocks in (%c1, %c1, %c1) threads in (%c2, %c1, %c1) args(%dev : memref<16xi32>)
    gpu.launch_func @kernels::@store_far blocks in (%c4, %c1, %c1) threads in (%c32, %c1, %c1) args(%dev : memref<16xi32>, %far : index)
    %after = arith.constant 8 : i64
    func.call @printI64(%after) : (i64) -> ()
    func.call @printNewline() : () -> ()
    gpu.dealloc %dev : memref<16xi32>
    return
  }
}
