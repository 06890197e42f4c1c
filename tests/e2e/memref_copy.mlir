// memref.copy as bufferization leaves it: in host code between contiguous
// buffers (a memcpy), from a strided subview and into a strided subview
// (the runner's memrefCopy), and inside a kernel between contiguous
// buffers.
//   A(i,j) = 4i + j (4x4);  B = copy of A;  C = copy of A[:, 1:3]
//   D = 0 (2x8), then D[1, 0:8:2] = A[2, :]
//   kernel: dst = copy of src = [1.5, 2.5, 3.5, 4.5]
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @copy(%src: memref<4xf32>, %dst: memref<4xf32>) kernel {
      memref.copy %src, %dst : memref<4xf32> to memref<4xf32>
      gpu.return
    }
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %zero = arith.constant 0.0 : f32
    %a = memref.alloc() : memref<4x4xf32>
    scf.for %i = %c0 to %c4 step %c1 {
      scf.for %j = %c0 to %c4 step %c1 {
        %i4 = arith.muli %i, %c4 : index
        %v = arith.addi %i4, %j : index
        %vi = arith.index_cast %v : index to i32
        %vf = arith.sitofp %vi : i32 to f32
        memref.store %vf, %a[%i, %j] : memref<4x4xf32>
      }
    }
    %b = memref.alloc() : memref<4x4xf32>
    memref.copy %a, %b : memref<4x4xf32> to memref<4x4xf32>
    %ub = memref.cast %b : memref<4x4xf32> to memref<*xf32>
    call @printMemrefF32(%ub) : (memref<*xf32>) -> ()

    %cols = memref.subview %a[0, 1] [4, 2] [1, 1] : memref<4x4xf32> to memref<4x2xf32, strided<[4, 1], offset: 1>>
    %c = memref.alloc() : memref<4x2xf32>
    memref.copy %cols, %c : memref<4x2xf32, strided<[4, 1], offset: 1>> to memref<4x2xf32>
    %uc = memref.cast %c : memref<4x2xf32> to memref<*xf32>
    call @printMemrefF32(%uc) : (memref<*xf32>) -> ()

    %d = memref.alloc() : memref<2x8xf32>
    linalg.fill ins(%zero : f32) outs(%d : memref<2x8xf32>)
    %row = memref.subview %a[2, 0] [1, 4] [1, 1] : memref<4x4xf32> to memref<4xf32, strided<[1], offset: 8>>
    %dst = memref.subview %d[1, 0] [1, 4] [1, 2] : memref<2x8xf32> to memref<4xf32, strided<[2], offset: 8>>
    memref.copy %row, %dst : memref<4xf32, strided<[1], offset: 8>> to memref<4xf32, strided<[2], offset: 8>>
    %ud = memref.cast %d : memref<2x8xf32> to memref<*xf32>
    call @printMemrefF32(%ud) : (memref<*xf32>) -> ()

    %hs = memref.alloc() : memref<4xf32>
    %half = arith.constant 0.5 : f32
    scf.for %i = %c0 to %c4 step %c1 {
      %ip = arith.addi %i, %c1 : index
      %ii = arith.index_cast %ip : index to i32
      %f = arith.sitofp %ii : i32 to f32
      %g = arith.addf %f, %half : f32
      memref.store %g, %hs[%i] : memref<4xf32>
    }
    %src = gpu.alloc () : memref<4xf32>
    %out = gpu.alloc () : memref<4xf32>
    gpu.memcpy %src, %hs : memref<4xf32>, memref<4xf32>
    gpu.launch_func @kernels::@copy blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%src : memref<4xf32>, %out : memref<4xf32>)
    %ho = memref.alloc() : memref<4xf32>
    gpu.memcpy %ho, %out : memref<4xf32>, memref<4xf32>
    %uo = memref.cast %ho : memref<4xf32> to memref<*xf32>
    call @printMemrefF32(%uo) : (memref<*xf32>) -> ()
    gpu.dealloc %src : memref<4xf32>
    gpu.dealloc %out : memref<4xf32>
    return
  }
}
