// gpu.printf of index and i64 values with %d, %i, %u and %x (no length
// modifier), as kernels print thread ids: the format is rewritten to %lld
// and friends, so the whole 64-bit value prints and the i32 after it is
// read from the right place. Values past 2^32 and negative ones show that
// nothing is cut to 32 bits.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @ids(%big: i64) kernel {
      %t = gpu.thread_id x
      %b = gpu.block_id x
      %after = arith.constant 42 : i32
      gpu.printf "block %d thread %i then %d\n", %b, %t, %after : index, index, i32
      %neg = arith.constant -5000000000 : i64
      gpu.printf "%d %u %x %X %o|%5d|\n", %neg, %big, %big, %big, %big, %t : i64, i64, i64, i64, i64, index
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %big = arith.constant 6000000000 : i64
    gpu.launch_func @kernels::@ids blocks in (%c1, %c1, %c1) threads in (%c2, %c1, %c1)
        args(%big : i64)
    return
  }
}
