// Mixed-precision vector.contract (issue 23): f16 x f16 into f32 and
// i8 x i8 into i32 (signed: -1 stays -1), on the host and in a kernel. The
// operands are extended to the accumulator's type first, as the op's
// semantics say; before, every target refused the op.
#mk = affine_map<(m, n, k) -> (m, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // Each thread t computes [[t, 1], [2, 3]] x [[0.5, 1], [-1, 2]] + 0.25.
    gpu.func @matmul2(%out: memref<4x2x2xf32>) kernel {
      %t = gpu.thread_id x
      %ti = arith.index_cast %t : index to i32
      %tf = arith.sitofp %ti : i32 to f16
      %base = arith.constant dense<[[0.0, 1.0], [2.0, 3.0]]> : vector<2x2xf16>
      %a = vector.insert %tf, %base [0, 0] : f16 into vector<2x2xf16>
      %b = arith.constant dense<[[0.5, 1.0], [-1.0, 2.0]]> : vector<2x2xf16>
      %c = arith.constant dense<0.25> : vector<2x2xf32>
      %r = vector.contract {indexing_maps = [#mk, #kn, #mn],
             iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>}
             %a, %b, %c : vector<2x2xf16>, vector<2x2xf16> into vector<2x2xf32>
      %c0 = arith.constant 0 : index
      vector.transfer_write %r, %out[%t, %c0, %c0] {in_bounds = [true, true]}
          : vector<2x2xf32>, memref<4x2x2xf32>
      gpu.return
    }
  }
  func.func @main() {
    %a = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : vector<2x2xf16>
    %b = arith.constant dense<[[0.5, 1.0], [1.5, 2.0]]> : vector<2x2xf16>
    %c = arith.constant dense<0.25> : vector<2x2xf32>
    %r = vector.contract {indexing_maps = [#mk, #kn, #mn],
           iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>}
           %a, %b, %c : vector<2x2xf16>, vector<2x2xf16> into vector<2x2xf32>
    vector.print %r : vector<2x2xf32>
    %ai = arith.constant dense<[[-1, 2], [3, -128]]> : vector<2x2xi8>
    %bi = arith.constant dense<[[100, -1], [1, 127]]> : vector<2x2xi8>
    %ci = arith.constant dense<1> : vector<2x2xi32>
    %ri = vector.contract {indexing_maps = [#mk, #kn, #mn],
            iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>}
            %ai, %bi, %ci : vector<2x2xi8>, vector<2x2xi8> into vector<2x2xi32>
    vector.print %ri : vector<2x2xi32>
    // A dot product: both operands reduced, a scalar accumulator.
    %x = arith.constant dense<[1.0, -2.0, 3.0]> : vector<3xf16>
    %acc = arith.constant 0.5 : f32
    %dot = vector.contract {indexing_maps = [affine_map<(k) -> (k)>, affine_map<(k) -> (k)>,
                                             affine_map<(k) -> ()>],
             iterator_types = ["reduction"], kind = #vector.kind<add>}
             %x, %x, %acc : vector<3xf16>, vector<3xf16> into f32
    vector.print %dot : f32
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %m = gpu.alloc () : memref<4x2x2xf32>
    gpu.launch_func @kernels::@matmul2 blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1)
        args(%m : memref<4x2x2xf32>)
    %h = memref.alloc () : memref<4x2x2xf32>
    gpu.memcpy %h, %m : memref<4x2x2xf32>, memref<4x2x2xf32>
    %u = memref.cast %h : memref<4x2x2xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
  func.func private @printMemrefF32(memref<*xf32>)
}
