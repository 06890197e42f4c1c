// MODE: run
// 2:4 structured sparsity: gpu.create_2to4_spmat {PRUNE_AND_CHECK} of an
// f16 matrix that is not 2:4. gpu.spmm_buffer_size prunes it in place (in
// each group of 4 of a row the two largest magnitudes stay), gpu.spmm
// computes C = A B + C with the pruned A; the pruned A is read back and
// multiplied densely by this program too.
//
//     A = [1 -5 3 2   4 0 -1 7]   pruned [0 -5 3 0   4 0 0 7]
//         [2  2 6 1  -8 3  0 1]          [2  0 6 0  -8 3 0 0]
//     B = 8x2, row i = [1, i + 1]

// CHECK:      Unranked Memref
// CHECK-NEXT: {{\[}}[0,   -5,   3,   0,   4,   0,   0,   7],
// CHECK-NEXT:  [2,   0,   6,   0,   -8,   3,   0,   0]]
// CHECK-NEXT: Unranked Memref
// CHECK-NEXT: {{\[}}[9,   75],
// CHECK-NEXT:  [3,   -2]]
// CHECK-NEXT: Unranked Memref
// CHECK-NEXT: {{\[}}[9,   75],
// CHECK-NEXT:  [3,   -2]]

module attributes {gpu.container_module} {
  memref.global "private" constant @a : memref<2x8xf16> =
    dense<[[1.0, -5.0, 3.0, 2.0, 4.0, 0.0, -1.0, 7.0], [2.0, 2.0, 6.0, 1.0, -8.0, 3.0, 0.0, 1.0]]>
  memref.global "private" constant @b : memref<8x2xf16> =
    dense<[[1.0, 1.0], [1.0, 2.0], [1.0, 3.0], [1.0, 4.0], [1.0, 5.0], [1.0, 6.0], [1.0, 7.0], [1.0, 8.0]]>

  func.func private @printMemrefF16(memref<*xf16>)
  func.func private @printMemrefF32(memref<*xf32>)

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c8 = arith.constant 8 : index
    %zero = arith.constant 0.0 : f16
    %ag = memref.get_global @a : memref<2x8xf16>
    %bg = memref.get_global @b : memref<8x2xf16>
    %a = memref.collapse_shape %ag [[0, 1]] : memref<2x8xf16> into memref<16xf16>
    %b = memref.collapse_shape %bg [[0, 1]] : memref<8x2xf16> into memref<16xf16>
    %c = memref.alloc() : memref<4xf16>
    linalg.fill ins(%zero : f16) outs(%c : memref<4xf16>)

    %t0 = gpu.wait async
    %da, %t1 = gpu.alloc async [%t0] () : memref<16xf16>
    %db, %t2 = gpu.alloc async [%t1] () : memref<16xf16>
    %dc, %t3 = gpu.alloc async [%t2] () : memref<4xf16>
    %t4 = gpu.memcpy async [%t3] %da, %a : memref<16xf16>, memref<16xf16>
    %t5 = gpu.memcpy async [%t4] %db, %b : memref<16xf16>, memref<16xf16>
    %t6 = gpu.memcpy async [%t5] %dc, %c : memref<4xf16>, memref<4xf16>
    %sa, %t7 = gpu.create_2to4_spmat async [%t6] {PRUNE_AND_CHECK} %c2, %c8, %da : memref<16xf16>
    %sb, %t8 = gpu.create_dn_tensor async [%t7] %db, %c8, %c2 : index, index into memref<16xf16>
    %sc, %t9 = gpu.create_dn_tensor async [%t8] %dc, %c2, %c2 : index, index into memref<4xf16>
    %s0, %s1, %s2, %t10 = gpu.spmm_buffer_size async [%t9] %sa, %sb, %sc
      : index, index, index into f16
    %w0, %t11 = gpu.alloc async [%t10] (%s0) : memref<?xi8>
    %w1, %t12 = gpu.alloc async [%t11] (%s1) : memref<?xi8>
    %w2, %t13 = gpu.alloc async [%t12] (%s2) : memref<?xi8>
    %t14 = gpu.spmm async [%t13] %sa, %sb, %sc, %w0, %w1, %w2
      : memref<?xi8>, memref<?xi8>, memref<?xi8> into f16
    %t15 = gpu.destroy_sp_mat async [%t14] %sa
    %t16 = gpu.destroy_dn_tensor async [%t15] %sb
    %t17 = gpu.destroy_dn_tensor async [%t16] %sc
    %pruned = memref.alloc() : memref<16xf16>
    %out = memref.alloc() : memref<4xf16>
    %t18 = gpu.memcpy async [%t17] %pruned, %da : memref<16xf16>, memref<16xf16>
    %t19 = gpu.memcpy async [%t18] %out, %dc : memref<4xf16>, memref<4xf16>
    gpu.wait [%t19]

    %p2 = memref.expand_shape %pruned [[0, 1]] output_shape [2, 8] : memref<16xf16> into memref<2x8xf16>
    %u0 = memref.cast %p2 : memref<2x8xf16> to memref<*xf16>
    call @printMemrefF16(%u0) : (memref<*xf16>) -> ()
    %o2 = memref.expand_shape %out [[0, 1]] output_shape [2, 2] : memref<4xf16> into memref<2x2xf16>
    %u1 = memref.cast %o2 : memref<2x2xf16> to memref<*xf16>
    call @printMemrefF16(%u1) : (memref<*xf16>) -> ()

    // the dense product of the pruned A, in f32
    %ref = memref.alloc() : memref<2x2xf32>
    scf.for %i = %c0 to %c2 step %c1 {
      scf.for %j = %c0 to %c2 step %c1 {
        %zf = arith.constant 0.0 : f32
        %s = scf.for %k = %c0 to %c8 step %c1 iter_args(%acc = %zf) -> (f32) {
          %x = memref.load %p2[%i, %k] : memref<2x8xf16>
          %y = memref.load %bg[%k, %j] : memref<8x2xf16>
          %xf = arith.extf %x : f16 to f32
          %yf = arith.extf %y : f16 to f32
          %m = arith.mulf %xf, %yf : f32
          %n = arith.addf %acc, %m : f32
          scf.yield %n : f32
        }
        memref.store %s, %ref[%i, %j] : memref<2x2xf32>
      }
    }
    %u2 = memref.cast %ref : memref<2x2xf32> to memref<*xf32>
    call @printMemrefF32(%u2) : (memref<*xf32>) -> ()
    return
  }
}
