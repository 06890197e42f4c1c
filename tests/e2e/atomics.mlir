// Atomics across blocks: 64 blocks of 256 threads each add 1 to one counter
// (memref.atomic_rmw) and their thread id to another through a generic
// atomic read-modify-write. Prints 16384 and 64 * (0 + ... + 255) = 2088960.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @count(%c: memref<2xi32>) kernel {
      %t = gpu.thread_id x
      %one = arith.constant 1 : i32
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %old = memref.atomic_rmw addi %one, %c[%c0] : (i32, memref<2xi32>) -> i32
      %ti = arith.index_cast %t : index to i32
      %r = memref.generic_atomic_rmw %c[%c1] : memref<2xi32> {
      ^bb0(%cur: i32):
        %s = arith.addi %cur, %ti : i32
        memref.atomic_yield %s : i32
      }
      gpu.return
    }
  }
  func.func private @printI64(i64)
  func.func private @printNewline()
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c256 = arith.constant 256 : index
    %zero = arith.constant 0 : i32
    %host = memref.alloc() : memref<2xi32>
    memref.store %zero, %host[%c0] : memref<2xi32>
    memref.store %zero, %host[%c1] : memref<2xi32>
    %dev = gpu.alloc () : memref<2xi32>
    gpu.memcpy %dev, %host : memref<2xi32>, memref<2xi32>
    gpu.launch_func @kernels::@count blocks in (%c64, %c1, %c1) threads in (%c256, %c1, %c1) args(%dev : memref<2xi32>)
    gpu.memcpy %host, %dev : memref<2xi32>, memref<2xi32>
    gpu.dealloc %dev : memref<2xi32>
    %a = memref.load %host[%c0] : memref<2xi32>
    %b = memref.load %host[%c1] : memref<2xi32>
    %a64 = arith.extsi %a : i32 to i64
    %b64 = arith.extsi %b : i32 to i64
    call @printI64(%a64) : (i64) -> ()
    call @printNewline() : () -> ()
    call @printI64(%b64) : (i64) -> ()
    call @printNewline() : () -> ()
    return
  }
}
