// linalg on memrefs inside device code, as tiling leaves it before the
// per-thread work is lowered: in a gpu.func, each thread fills its row of a
// 4x8 buffer with linalg.fill and scales it with a linalg.generic on
// subviews; in an inline gpu.launch, one thread per block multiplies its
// 2x2 tile with linalg.matmul on subviews.
//   @rows:  m(r, c) = (r + 1) * (c + 1)       (fill r + 1, then times c + 1)
//   launch: C = A B for 4x4 A(i,k) = i + k, B = 2 I, in 2x2 tiles: C = 2 A
#id = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @rows(%m: memref<4x8xf32>) kernel {
      %r = gpu.thread_id x
      %one = arith.constant 1.0 : f32
      %ri = arith.index_cast %r : index to i32
      %rf = arith.sitofp %ri : i32 to f32
      %v = arith.addf %rf, %one : f32
      %row = memref.subview %m[%r, 0] [1, 8] [1, 1]
          : memref<4x8xf32> to memref<8xf32, strided<[1], offset: ?>>
      linalg.fill ins(%v : f32) outs(%row : memref<8xf32, strided<[1], offset: ?>>)
      linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]}
          outs(%row : memref<8xf32, strided<[1], offset: ?>>) {
      ^bb0(%x: f32):
        %c = linalg.index 0 : index
        %ci = arith.index_cast %c : index to i32
        %cf = arith.sitofp %ci : i32 to f32
        %c1 = arith.addf %cf, %one : f32
        %y = arith.mulf %x, %c1 : f32
        linalg.yield %y : f32
      }
      gpu.return
    }
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %zero = arith.constant 0.0 : f32
    %two = arith.constant 2.0 : f32
    %m = gpu.alloc () : memref<4x8xf32>
    gpu.launch_func @kernels::@rows blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1)
        args(%m : memref<4x8xf32>)
    %hm = memref.alloc() : memref<4x8xf32>
    gpu.memcpy %hm, %m : memref<4x8xf32>, memref<4x8xf32>
    %um = memref.cast %hm : memref<4x8xf32> to memref<*xf32>
    call @printMemrefF32(%um) : (memref<*xf32>) -> ()

    %ha = memref.alloc() : memref<4x4xf32>
    %hb = memref.alloc() : memref<4x4xf32>
    scf.for %i = %c0 to %c4 step %c1 {
      scf.for %k = %c0 to %c4 step %c1 {
        %s = arith.addi %i, %k : index
        %si = arith.index_cast %s : index to i32
        %sf = arith.sitofp %si : i32 to f32
        memref.store %sf, %ha[%i, %k] : memref<4x4xf32>
        %eq = arith.cmpi eq, %i, %k : index
        %b = arith.select %eq, %two, %zero : f32
        memref.store %b, %hb[%i, %k] : memref<4x4xf32>
      }
    }
    %a = gpu.alloc () : memref<4x4xf32>
    %b = gpu.alloc () : memref<4x4xf32>
    %c = gpu.alloc () : memref<4x4xf32>
    gpu.memcpy %a, %ha : memref<4x4xf32>, memref<4x4xf32>
    gpu.memcpy %b, %hb : memref<4x4xf32>, memref<4x4xf32>
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c2, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      %k2 = arith.constant 2 : index
      %i0 = arith.muli %by, %k2 : index
      %j0 = arith.muli %bx, %k2 : index
      %ta = memref.subview %a[%i0, 0] [2, 4] [1, 1]
          : memref<4x4xf32> to memref<2x4xf32, strided<[4, 1], offset: ?>>
      %tb = memref.subview %b[0, %j0] [4, 2] [1, 1]
          : memref<4x4xf32> to memref<4x2xf32, strided<[4, 1], offset: ?>>
      %tc = memref.subview %c[%i0, %j0] [2, 2] [1, 1]
          : memref<4x4xf32> to memref<2x2xf32, strided<[4, 1], offset: ?>>
      %z = arith.constant 0.0 : f32
      linalg.fill ins(%z : f32) outs(%tc : memref<2x2xf32, strided<[4, 1], offset: ?>>)
      linalg.matmul ins(%ta, %tb : memref<2x4xf32, strided<[4, 1], offset: ?>>, memref<4x2xf32, strided<[4, 1], offset: ?>>)
                    outs(%tc : memref<2x2xf32, strided<[4, 1], offset: ?>>)
      gpu.terminator
    }
    %hc = memref.alloc() : memref<4x4xf32>
    gpu.memcpy %hc, %c : memref<4x4xf32>, memref<4x4xf32>
    %uc = memref.cast %hc : memref<4x4xf32> to memref<*xf32>
    call @printMemrefF32(%uc) : (memref<*xf32>) -> ()
    gpu.dealloc %m : memref<4x8xf32>
    gpu.dealloc %a : memref<4x4xf32>
    gpu.dealloc %b : memref<4x4xf32>
    gpu.dealloc %c : memref<4x4xf32>
    return
  }
}
