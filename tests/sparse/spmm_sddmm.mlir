// MODE: run
// gpu.spmm with a COO matrix (i32 coordinates, f32), C = A B + C, and
// gpu.sddmm into a CSR pattern, C = (A B) .* spy(C) + C, both next to the
// dense product linalg.matmul computes on the host.
//
//     A = [1 0 2 0]   B = [1 2]   SDDMM pattern: (0,1) (1,0) (2,1), all 1
//         [0 0 0 3]       [3 4]
//         [4 5 0 0]       [5 6]
//                         [7 8]

// CHECK:      Unranked Memref
// CHECK-NEXT: {{\[}}[11,   14],
// CHECK-NEXT:  [21,   24],
// CHECK-NEXT:  [19,   28]]
// CHECK-NEXT: Unranked Memref
// CHECK-NEXT: {{\[}}[11,   14],
// CHECK-NEXT:  [21,   24],
// CHECK-NEXT:  [19,   28]]
// CHECK-NEXT: Unranked Memref
// CHECK-NEXT: [15,  22,  29]

module attributes {gpu.container_module} {
  memref.global "private" constant @a : memref<3x4xf32> =
    dense<[[1.0, 0.0, 2.0, 0.0], [0.0, 0.0, 0.0, 3.0], [4.0, 5.0, 0.0, 0.0]]>
  memref.global "private" constant @b : memref<4x2xf32> =
    dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]]>
  memref.global "private" constant @coo_row : memref<5xi32> = dense<[0, 0, 1, 2, 2]>
  memref.global "private" constant @coo_col : memref<5xi32> = dense<[0, 2, 3, 0, 1]>
  memref.global "private" constant @coo_val : memref<5xf32> = dense<[1.0, 2.0, 3.0, 4.0, 5.0]>
  memref.global "private" constant @c_pos : memref<4xi32> = dense<[0, 1, 2, 3]>
  memref.global "private" constant @c_crd : memref<3xi32> = dense<[1, 0, 1]>
  memref.global "private" constant @c_val : memref<3xf32> = dense<[1.0, 1.0, 1.0]>

  func.func private @printMemrefF32(memref<*xf32>)

  func.func @main() {
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c5 = arith.constant 5 : index
    %zero = arith.constant 0.0 : f32
    %a = memref.get_global @a : memref<3x4xf32>
    %b = memref.get_global @b : memref<4x2xf32>
    %row = memref.get_global @coo_row : memref<5xi32>
    %col = memref.get_global @coo_col : memref<5xi32>
    %val = memref.get_global @coo_val : memref<5xf32>
    %cpos = memref.get_global @c_pos : memref<4xi32>
    %ccrd = memref.get_global @c_crd : memref<3xi32>
    %cval = memref.get_global @c_val : memref<3xf32>

    // the dense reference
    %ref = memref.alloc() : memref<3x2xf32>
    linalg.fill ins(%zero : f32) outs(%ref : memref<3x2xf32>)
    linalg.matmul ins(%a, %b : memref<3x4xf32>, memref<4x2xf32>) outs(%ref : memref<3x2xf32>)
    %u0 = memref.cast %ref : memref<3x2xf32> to memref<*xf32>
    call @printMemrefF32(%u0) : (memref<*xf32>) -> ()

    // SpMM: the operands on the device, C zeroed there
    %c = memref.alloc() : memref<3x2xf32>
    linalg.fill ins(%zero : f32) outs(%c : memref<3x2xf32>)
    %t0 = gpu.wait async
    %drow, %t1 = gpu.alloc async [%t0] () : memref<5xi32>
    %dcol, %t2 = gpu.alloc async [%t1] () : memref<5xi32>
    %dval, %t3 = gpu.alloc async [%t2] () : memref<5xf32>
    %db, %t4 = gpu.alloc async [%t3] () : memref<8xf32>
    %dc, %t5 = gpu.alloc async [%t4] () : memref<6xf32>
    %bflat = memref.collapse_shape %b [[0, 1]] : memref<4x2xf32> into memref<8xf32>
    %cflat = memref.collapse_shape %c [[0, 1]] : memref<3x2xf32> into memref<6xf32>
    %t6 = gpu.memcpy async [%t5] %drow, %row : memref<5xi32>, memref<5xi32>
    %t7 = gpu.memcpy async [%t6] %dcol, %col : memref<5xi32>, memref<5xi32>
    %t8 = gpu.memcpy async [%t7] %dval, %val : memref<5xf32>, memref<5xf32>
    %t9 = gpu.memcpy async [%t8] %db, %bflat : memref<8xf32>, memref<8xf32>
    %t10 = gpu.memcpy async [%t9] %dc, %cflat : memref<6xf32>, memref<6xf32>
    %sa, %t11 = gpu.create_coo async [%t10] %c3, %c4, %c5, %drow, %dcol, %dval
      : memref<5xi32>, memref<5xi32>, memref<5xf32>
    %sb, %t12 = gpu.create_dn_tensor async [%t11] %db, %c4, %c2 : index, index into memref<8xf32>
    %sc, %t13 = gpu.create_dn_tensor async [%t12] %dc, %c3, %c2 : index, index into memref<6xf32>
    %sz, %t14 = gpu.spmm_buffer_size async [%t13] %sa, %sb, %sc : index into f32
    %buf, %t15 = gpu.alloc async [%t14] (%sz) : memref<?xi8>
    %t16 = gpu.spmm async [%t15] %sa, %sb, %sc, %buf : memref<?xi8> into f32
    %t17 = gpu.destroy_sp_mat async [%t16] %sa
    %t18 = gpu.destroy_dn_tensor async [%t17] %sb
    %t19 = gpu.destroy_dn_tensor async [%t18] %sc
    %t20 = gpu.memcpy async [%t19] %cflat, %dc : memref<6xf32>, memref<6xf32>
    gpu.wait [%t20]
    %u1 = memref.cast %c : memref<3x2xf32> to memref<*xf32>
    call @printMemrefF32(%u1) : (memref<*xf32>) -> ()

    // SDDMM: A and B dense, C a CSR pattern whose values grow by A B there
    %s0 = gpu.wait async
    %da, %s1 = gpu.alloc async [%s0] () : memref<12xf32>
    %dpos, %s2 = gpu.alloc async [%s1] () : memref<4xi32>
    %dcrd, %s3 = gpu.alloc async [%s2] () : memref<3xi32>
    %dcv, %s4 = gpu.alloc async [%s3] () : memref<3xf32>
    %aflat = memref.collapse_shape %a [[0, 1]] : memref<3x4xf32> into memref<12xf32>
    %s5 = gpu.memcpy async [%s4] %da, %aflat : memref<12xf32>, memref<12xf32>
    %s6 = gpu.memcpy async [%s5] %dpos, %cpos : memref<4xi32>, memref<4xi32>
    %s7 = gpu.memcpy async [%s6] %dcrd, %ccrd : memref<3xi32>, memref<3xi32>
    %s8 = gpu.memcpy async [%s7] %dcv, %cval : memref<3xf32>, memref<3xf32>
    %ma, %s9 = gpu.create_dn_tensor async [%s8] %da, %c3, %c4 : index, index into memref<12xf32>
    %mb, %s10 = gpu.create_dn_tensor async [%s9] %db, %c4, %c2 : index, index into memref<8xf32>
    %mc, %s11 = gpu.create_csr async [%s10] %c3, %c2, %c3, %dpos, %dcrd, %dcv
      : memref<4xi32>, memref<3xi32>, memref<3xf32>
    %sz2, %s12 = gpu.sddmm_buffer_size async [%s11] %ma, %mb, %mc into f32
    %buf2, %s13 = gpu.alloc async [%s12] (%sz2) : memref<?xi8>
    %s14 = gpu.sddmm async [%s13] %ma, %mb, %mc, %buf2 : memref<?xi8> into f32
    %s15 = gpu.destroy_dn_tensor async [%s14] %ma
    %s16 = gpu.destroy_dn_tensor async [%s15] %mb
    %s17 = gpu.destroy_sp_mat async [%s16] %mc
    %out = memref.alloc() : memref<3xf32>
    %s18 = gpu.memcpy async [%s17] %out, %dcv : memref<3xf32>, memref<3xf32>
    gpu.wait [%s18]
    %u2 = memref.cast %out : memref<3xf32> to memref<*xf32>
    call @printMemrefF32(%u2) : (memref<*xf32>) -> ()
    return
  }
}
