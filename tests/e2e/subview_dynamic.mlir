// Subviews at dynamic offsets, as tiled code takes them: in a kernel, each
// block takes its 2x4 tile of a 4x8 buffer at [2 by, 4 bx] and each thread
// writes its element through the tile; on the host, a loop takes row i at
// [i, 0], and a column-strided view with strides [1, 2] starts at an SSA
// column offset of 1. Under expand-strided-metadata these offsets become
// affine.apply.
//   m(r,c) = 8r + c;  row sums 64i + 28;  view: m(r, 1 + 2k)
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @tiles(%m: memref<4x8xf32>) kernel {
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %r0 = arith.muli %by, %c2 : index
      %c0 = arith.muli %bx, %c4 : index
      %tile = memref.subview %m[%r0, %c0] [2, 4] [1, 1]
          : memref<4x8xf32> to memref<2x4xf32, strided<[8, 1], offset: ?>>
      %r = arith.addi %r0, %ty : index
      %c = arith.addi %c0, %tx : index
      %r8 = arith.muli %r, %c8 : index
      %v = arith.addi %r8, %c : index
      %vi = arith.index_cast %v : index to i32
      %vf = arith.sitofp %vi : i32 to f32
      memref.store %vf, %tile[%ty, %tx] : memref<2x4xf32, strided<[8, 1], offset: ?>>
      gpu.return
    }
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %zero = arith.constant 0.0 : f32
    %d = gpu.alloc () : memref<4x8xf32>
    gpu.launch_func @kernels::@tiles blocks in (%c2, %c2, %c1) threads in (%c4, %c2, %c1)
        args(%d : memref<4x8xf32>)
    %h = memref.alloc() : memref<4x8xf32>
    gpu.memcpy %h, %d : memref<4x8xf32>, memref<4x8xf32>
    gpu.dealloc %d : memref<4x8xf32>
    %u = memref.cast %h : memref<4x8xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    %sums = memref.alloc() : memref<4xf32>
    scf.for %i = %c0 to %c4 step %c1 {
      %row = memref.subview %h[%i, 0] [1, 8] [1, 1]
          : memref<4x8xf32> to memref<1x8xf32, strided<[8, 1], offset: ?>>
      %s = scf.for %j = %c0 to %c8 step %c1 iter_args(%acc = %zero) -> f32 {
        %v = memref.load %row[%c0, %j] : memref<1x8xf32, strided<[8, 1], offset: ?>>
        %a = arith.addf %acc, %v : f32
        scf.yield %a : f32
      }
      memref.store %s, %sums[%i] : memref<4xf32>
    }
    %us = memref.cast %sums : memref<4xf32> to memref<*xf32>
    call @printMemrefF32(%us) : (memref<*xf32>) -> ()
    %view = memref.subview %h[0, %c1] [4, 4] [1, 2]
        : memref<4x8xf32> to memref<4x4xf32, strided<[8, 2], offset: ?>>
    %uv = memref.cast %view : memref<4x4xf32, strided<[8, 2], offset: ?>> to memref<*xf32>
    call @printMemrefF32(%uv) : (memref<*xf32>) -> ()
    memref.dealloc %sums : memref<4xf32>
    memref.dealloc %h : memref<4x8xf32>
    return
  }
}
