// Views with strided layouts passed to kernels, as tiling and fusion leave
// them: memref.subview (unit and non-unit strides, a static and a fully
// dynamic layout), memref.reinterpret_cast, memref.collapse_shape and
// memref.expand_shape of one 6x8 device buffer a(i,j) = 10i + j. In order:
//   @add100   a[1:4, 2:6] += 100          subview, strided<[8, 1], offset: 10>
//   @negate   a[0:5:2, 1:8:3] = -a         subview, cast to a dynamic layout
//   @twice    flat[40:48] *= 2 (row 5)     collapse_shape, then subview
//   @half     view3[d, r, 0] = 0.5         expand_shape 48 -> 2x3x8 (column 0)
//   @plus1000 rc[r, c] += 1000             reinterpret_cast offset 3, sizes
//                                          [5, 2], strides [8, 2] (columns 3, 5)
// The host then prints the buffer and a strided subview of its copy.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @add100(%v: memref<3x4xf32, strided<[8, 1], offset: 10>>) kernel {
      %x = gpu.thread_id x
      %y = gpu.thread_id y
      %c = arith.constant 100.0 : f32
      %e = memref.load %v[%y, %x] : memref<3x4xf32, strided<[8, 1], offset: 10>>
      %r = arith.addf %e, %c : f32
      memref.store %r, %v[%y, %x] : memref<3x4xf32, strided<[8, 1], offset: 10>>
      gpu.return
    }
    gpu.func @negate(%v: memref<?x?xf32, strided<[?, ?], offset: ?>>) kernel {
      %x = gpu.thread_id x
      %y = gpu.thread_id y
      %e = memref.load %v[%y, %x] : memref<?x?xf32, strided<[?, ?], offset: ?>>
      %r = arith.negf %e : f32
      memref.store %r, %v[%y, %x] : memref<?x?xf32, strided<[?, ?], offset: ?>>
      gpu.return
    }
    gpu.func @twice(%v: memref<8xf32, strided<[1], offset: 40>>) kernel {
      %x = gpu.thread_id x
      %e = memref.load %v[%x] : memref<8xf32, strided<[1], offset: 40>>
      %r = arith.addf %e, %e : f32
      memref.store %r, %v[%x] : memref<8xf32, strided<[1], offset: 40>>
      gpu.return
    }
    gpu.func @half(%v: memref<2x3x8xf32>) kernel {
      %r = gpu.thread_id x
      %d = gpu.thread_id y
      %c0 = arith.constant 0 : index
      %h = arith.constant 0.5 : f32
      memref.store %h, %v[%d, %r, %c0] : memref<2x3x8xf32>
      gpu.return
    }
    gpu.func @plus1000(%v: memref<5x2xf32, strided<[8, 2], offset: 3>>) kernel {
      %c = gpu.thread_id x
      %r = gpu.thread_id y
      %k = arith.constant 1000.0 : f32
      %e = memref.load %v[%r, %c] : memref<5x2xf32, strided<[8, 2], offset: 3>>
      %s = arith.addf %e, %k : f32
      memref.store %s, %v[%r, %c] : memref<5x2xf32, strided<[8, 2], offset: 3>>
      gpu.return
    }
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c5 = arith.constant 5 : index
    %c6 = arith.constant 6 : index
    %c8 = arith.constant 8 : index
    %h = memref.alloc() : memref<6x8xf32>
    scf.for %i = %c0 to %c6 step %c1 {
      scf.for %j = %c0 to %c8 step %c1 {
        %ii = arith.index_cast %i : index to i32
        %jj = arith.index_cast %j : index to i32
        %ten = arith.constant 10 : i32
        %t = arith.muli %ii, %ten : i32
        %v = arith.addi %t, %jj : i32
        %f = arith.sitofp %v : i32 to f32
        memref.store %f, %h[%i, %j] : memref<6x8xf32>
      }
    }
    %a = gpu.alloc () : memref<6x8xf32>
    gpu.memcpy %a, %h : memref<6x8xf32>, memref<6x8xf32>

    %s1 = memref.subview %a[1, 2] [3, 4] [1, 1] : memref<6x8xf32> to memref<3x4xf32, strided<[8, 1], offset: 10>>
    gpu.launch_func @kernels::@add100 blocks in (%c1, %c1, %c1) threads in (%c4, %c3, %c1)
        args(%s1 : memref<3x4xf32, strided<[8, 1], offset: 10>>)

    %s2 = memref.subview %a[0, 1] [3, 3] [2, 3] : memref<6x8xf32> to memref<3x3xf32, strided<[16, 3], offset: 1>>
    %d2 = memref.cast %s2 : memref<3x3xf32, strided<[16, 3], offset: 1>> to memref<?x?xf32, strided<[?, ?], offset: ?>>
    gpu.launch_func @kernels::@negate blocks in (%c1, %c1, %c1) threads in (%c3, %c3, %c1)
        args(%d2 : memref<?x?xf32, strided<[?, ?], offset: ?>>)

    %flat = memref.collapse_shape %a [[0, 1]] : memref<6x8xf32> into memref<48xf32>
    %row5 = memref.subview %flat[40] [8] [1] : memref<48xf32> to memref<8xf32, strided<[1], offset: 40>>
    gpu.launch_func @kernels::@twice blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1)
        args(%row5 : memref<8xf32, strided<[1], offset: 40>>)

    %v3 = memref.expand_shape %flat [[0, 1, 2]] output_shape [2, 3, 8] : memref<48xf32> into memref<2x3x8xf32>
    gpu.launch_func @kernels::@half blocks in (%c1, %c1, %c1) threads in (%c3, %c2, %c1)
        args(%v3 : memref<2x3x8xf32>)

    %rc = memref.reinterpret_cast %a to offset: [3], sizes: [5, 2], strides: [8, 2]
        : memref<6x8xf32> to memref<5x2xf32, strided<[8, 2], offset: 3>>
    gpu.launch_func @kernels::@plus1000 blocks in (%c1, %c1, %c1) threads in (%c2, %c5, %c1)
        args(%rc : memref<5x2xf32, strided<[8, 2], offset: 3>>)

    gpu.memcpy %h, %a : memref<6x8xf32>, memref<6x8xf32>
    gpu.dealloc %a : memref<6x8xf32>
    %u = memref.cast %h : memref<6x8xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    %hs = memref.subview %h[1, 2] [3, 4] [1, 1] : memref<6x8xf32> to memref<3x4xf32, strided<[8, 1], offset: 10>>
    %us = memref.cast %hs : memref<3x4xf32, strided<[8, 1], offset: 10>> to memref<*xf32>
    call @printMemrefF32(%us) : (memref<*xf32>) -> ()
    memref.dealloc %h : memref<6x8xf32>
    return
  }
}
