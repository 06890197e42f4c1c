// Device functions two calls deep that read GPU ids, in a kernel without
// barriers (its block entry runs the threads as loops): the kernel calls
// @linear, which reads no id itself and calls @gx, @gy (block id, block
// size, thread id), @row_width (grid and block size) and @lane
// (gpu.lane_id). 2 x 2 blocks of 3 x 2 threads, a 6 x 4 grid of threads:
//   gx = 3 bx + tx, gy = 2 by + ty, lin = 6 gy + gx, lane = tx + 3 ty
//   out[lin] = 10 lin + lane, so row gy, column gx holds
//   10 (6 gy + gx) + gx % 3 + 3 (gy % 2):
//   0 11 22 30 41 52 | 63 74 85 93 104 115 | 120 131 142 150 161 172 |
//   183 194 205 213 224 235
module attributes {gpu.container_module} {
  gpu.module @kernels {
    func.func @gx() -> index {
      %b = gpu.block_id x
      %d = gpu.block_dim x
      %t = gpu.thread_id x
      %bd = arith.muli %b, %d : index
      %g = arith.addi %bd, %t : index
      return %g : index
    }
    func.func @gy() -> index {
      %b = gpu.block_id y
      %d = gpu.block_dim y
      %t = gpu.thread_id y
      %bd = arith.muli %b, %d : index
      %g = arith.addi %bd, %t : index
      return %g : index
    }
    func.func @row_width() -> index {
      %n = gpu.grid_dim x
      %d = gpu.block_dim x
      %w = arith.muli %n, %d : index
      return %w : index
    }
    func.func @lane() -> i32 {
      %l = gpu.lane_id
      %li = arith.index_cast %l : index to i32
      return %li : i32
    }
    // Level 1: no id of its own, only calls.
    func.func @linear() -> (index, i32) {
      %x = func.call @gx() : () -> index
      %y = func.call @gy() : () -> index
      %w = func.call @row_width() : () -> index
      %yw = arith.muli %y, %w : index
      %lin = arith.addi %yw, %x : index
      %l = func.call @lane() : () -> i32
      return %lin, %l : index, i32
    }
    gpu.func @ids(%out: memref<24xi32>) kernel {
      %c10 = arith.constant 10 : i32
      %lin, %l = func.call @linear() : () -> (index, i32)
      %li = arith.index_cast %lin : index to i32
      %v = arith.muli %li, %c10 : i32
      %o = arith.addi %v, %l : i32
      memref.store %o, %out[%lin] : memref<24xi32>
      gpu.return
    }
  }
  func.func private @printMemrefI32(memref<*xi32>)
  func.func @main() {
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c1 = arith.constant 1 : index
    %d = gpu.alloc () : memref<24xi32>
    gpu.launch_func @kernels::@ids blocks in (%c2, %c2, %c1) threads in (%c3, %c2, %c1)
        args(%d : memref<24xi32>)
    %h = memref.alloc() : memref<24xi32>
    gpu.memcpy %h, %d : memref<24xi32>, memref<24xi32>
    gpu.dealloc %d : memref<24xi32>
    %u = memref.cast %h : memref<24xi32> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    memref.dealloc %h : memref<24xi32>
    return
  }
}
