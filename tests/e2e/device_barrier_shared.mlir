// A device function that owns workgroup memory and waits at barriers, as a
// code generator factors a block-wide step out of a kernel: @tree_sum puts
// each thread's value into a workgroup-memory buffer of its own
// (memref.global in address space 3, not a kernel attribution), halves it
// with a gpu.barrier after every step of a loop, and returns the block's
// sum to every thread; a last barrier lets the next call reuse the buffer.
// The kernel calls it twice. 2 blocks of 8 threads, v = 8 b + t:
//   s1 = sum_t (8 b + t) = 64 b + 28
//   s2 = sum_t s1 (t + 1) = 36 s1
//   out[8 b + t] = s2 + t: 1008 + t (block 0), 3312 + t (block 1)
module attributes {gpu.container_module} {
  gpu.module @kernels {
    memref.global "private" @tile : memref<8xi32, #gpu.address_space<workgroup>>
    func.func @tree_sum(%v: i32) -> i32 {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %tile = memref.get_global @tile : memref<8xi32, #gpu.address_space<workgroup>>
      %t = gpu.thread_id x
      memref.store %v, %tile[%t] : memref<8xi32, #gpu.address_space<workgroup>>
      gpu.barrier
      // s = 4, 2, 1: the first s threads add the upper half to the lower.
      scf.for %k = %c0 to %c3 step %c1 {
        %s = arith.shrui %c4, %k : index
        %low = arith.cmpi ult, %t, %s : index
        scf.if %low {
          %u = arith.addi %t, %s : index
          %a = memref.load %tile[%t] : memref<8xi32, #gpu.address_space<workgroup>>
          %b = memref.load %tile[%u] : memref<8xi32, #gpu.address_space<workgroup>>
          %ab = arith.addi %a, %b : i32
          memref.store %ab, %tile[%t] : memref<8xi32, #gpu.address_space<workgroup>>
        }
        gpu.barrier
      }
      %r = memref.load %tile[%c0] : memref<8xi32, #gpu.address_space<workgroup>>
      gpu.barrier
      return %r : i32
    }
    gpu.func @sums(%out: memref<16xi32>) kernel {
      %c1 = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      %t = gpu.thread_id x
      %b = gpu.block_id x
      %b8 = arith.muli %b, %c8 : index
      %g = arith.addi %b8, %t : index
      %gi = arith.index_cast %g : index to i32
      %s1 = func.call @tree_sum(%gi) : (i32) -> i32
      %t1 = arith.addi %t, %c1 : index
      %t1i = arith.index_cast %t1 : index to i32
      %w = arith.muli %s1, %t1i : i32
      %s2 = func.call @tree_sum(%w) : (i32) -> i32
      %ti = arith.index_cast %t : index to i32
      %o = arith.addi %s2, %ti : i32
      memref.store %o, %out[%g] : memref<16xi32>
      gpu.return
    }
  }
  func.func private @printMemrefI32(memref<*xi32>)
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c8 = arith.constant 8 : index
    %d = gpu.alloc () : memref<16xi32>
    gpu.launch_func @kernels::@sums blocks in (%c2, %c1, %c1) threads in (%c8, %c1, %c1)
        args(%d : memref<16xi32>)
    %h = memref.alloc() : memref<16xi32>
    gpu.memcpy %h, %d : memref<16xi32>, memref<16xi32>
    gpu.dealloc %d : memref<16xi32>
    %u = memref.cast %h : memref<16xi32> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    memref.dealloc %h : memref<16xi32>
    return
  }
}
