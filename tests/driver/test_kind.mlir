// For the test-only kind (dummy_target.c): two kernels of one gpu.module
// over a 3x1 grid of 4x2 blocks. @fill writes 7 + i*i at thread i (ids from
// x and y, a device function squares), @bump adds 1000 times the grid's
// width where i is odd: 7 3008 11 3016 23 3032 43 3056 ...
module attributes {gpu.container_module} {
  gpu.module @tk {
    func.func @square(%x: i32) -> i32 {
      %r = arith.muli %x, %x : i32
      return %r : i32
    }
    func.func @linear() -> index {
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %bx = gpu.block_id x
      %dx = gpu.block_dim x
      %dy = gpu.block_dim y
      %per_block = arith.muli %dx, %dy : index
      %base = arith.muli %bx, %per_block : index
      %row = arith.muli %ty, %dx : index
      %in_block = arith.addi %row, %tx : index
      %i = arith.addi %base, %in_block : index
      return %i : index
    }
    gpu.func @fill(%buf: memref<24xi32>) kernel {
      %i = func.call @linear() : () -> index
      %ii = arith.index_cast %i : index to i32
      %sq = func.call @square(%ii) : (i32) -> i32
      %c7 = arith.constant 7 : i32
      %v = arith.addi %sq, %c7 : i32
      memref.store %v, %buf[%i] : memref<24xi32>
      gpu.return
    }
    gpu.func @bump(%buf: memref<24xi32>) kernel {
      %i = gpu.global_id x
      %c2 = arith.constant 2 : index
      %odd = arith.remui %i, %c2 : index
      %c0 = arith.constant 0 : index
      %is_odd = arith.cmpi ne, %odd, %c0 : index
      scf.if %is_odd {
        %g = gpu.grid_dim x
        %gi = arith.index_cast %g : index to i32
        %c1000 = arith.constant 1000 : i32
        %add = arith.muli %gi, %c1000 : i32
        %v = memref.load %buf[%i] : memref<24xi32>
        %r = arith.addi %v, %add : i32
        memref.store %r, %buf[%i] : memref<24xi32>
      }
      gpu.return
    }
  }
  func.func private @printMemrefI32(memref<*xi32>)
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c24 = arith.constant 24 : index
    %host = memref.alloc() : memref<24xi32>
    %dev = gpu.alloc () : memref<24xi32>
    gpu.launch_func @tk::@fill blocks in (%c3, %c1, %c1) threads in (%c4, %c2, %c1) args(%dev : memref<24xi32>)
    gpu.launch_func @tk::@bump blocks in (%c3, %c1, %c1) threads in (%c8, %c1, %c1) args(%dev : memref<24xi32>)
    gpu.memcpy %host, %dev : memref<24xi32>, memref<24xi32>
    gpu.dealloc %dev : memref<24xi32>
    %u = memref.cast %host : memref<24xi32> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    return
  }
}
