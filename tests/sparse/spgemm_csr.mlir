// MODE: run
// gpu.spgemm_*: C = A B of two CSR matrices (i32 indices, f32), through
// the whole protocol (work estimation twice, compute twice, the size of C,
// gpu.set_csr_pointers, copy); C's arrays are printed, then C scattered
// into a dense matrix next to the dense product linalg.matmul computes.
//
//     A = [1 0 2 0]   B = [1 0]   A B = [11  0]
//         [0 0 0 3]       [0 4]         [ 0 24]
//         [4 5 0 0]       [5 0]         [ 4 20]
//                         [0 8]

// CHECK:      nnz = 4
// CHECK:      [0,  1,  2,  4]
// CHECK:      [0,  1,  0,  1]
// CHECK:      [11,  24,  4,  20]
// CHECK:      Unranked Memref
// CHECK-NEXT: {{\[}}[11,   0],
// CHECK-NEXT:  [0,   24],
// CHECK-NEXT:  [4,   20]]
// CHECK-NEXT: Unranked Memref
// CHECK-NEXT: {{\[}}[11,   0],
// CHECK-NEXT:  [0,   24],
// CHECK-NEXT:  [4,   20]]

module attributes {gpu.container_module} {
  memref.global "private" constant @a : memref<3x4xf32> =
    dense<[[1.0, 0.0, 2.0, 0.0], [0.0, 0.0, 0.0, 3.0], [4.0, 5.0, 0.0, 0.0]]>
  memref.global "private" constant @b : memref<4x2xf32> =
    dense<[[1.0, 0.0], [0.0, 4.0], [5.0, 0.0], [0.0, 8.0]]>
  memref.global "private" constant @a_pos : memref<4xi32> = dense<[0, 2, 3, 5]>
  memref.global "private" constant @a_crd : memref<5xi32> = dense<[0, 2, 3, 0, 1]>
  memref.global "private" constant @a_val : memref<5xf32> = dense<[1.0, 2.0, 3.0, 4.0, 5.0]>
  memref.global "private" constant @b_pos : memref<5xi32> = dense<[0, 1, 2, 3, 4]>
  memref.global "private" constant @b_crd : memref<4xi32> = dense<[0, 1, 0, 1]>
  memref.global "private" constant @b_val : memref<4xf32> = dense<[1.0, 4.0, 5.0, 8.0]>

  func.func private @printMemrefF32(memref<*xf32>)
  func.func private @printMemrefI32(memref<*xi32>)

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c5 = arith.constant 5 : index
    %zero = arith.constant 0.0 : f32
    %apos = memref.get_global @a_pos : memref<4xi32>
    %acrd = memref.get_global @a_crd : memref<5xi32>
    %aval = memref.get_global @a_val : memref<5xf32>
    %bpos = memref.get_global @b_pos : memref<5xi32>
    %bcrd = memref.get_global @b_crd : memref<4xi32>
    %bval = memref.get_global @b_val : memref<4xf32>

    %t0 = gpu.wait async
    %d1, %t1 = gpu.alloc async [%t0] () : memref<4xi32>
    %d2, %t2 = gpu.alloc async [%t1] () : memref<5xi32>
    %d3, %t3 = gpu.alloc async [%t2] () : memref<5xf32>
    %d4, %t4 = gpu.alloc async [%t3] () : memref<5xi32>
    %d5, %t5 = gpu.alloc async [%t4] () : memref<4xi32>
    %d6, %t6 = gpu.alloc async [%t5] () : memref<4xf32>
    %t7 = gpu.memcpy async [%t6] %d1, %apos : memref<4xi32>, memref<4xi32>
    %t8 = gpu.memcpy async [%t7] %d2, %acrd : memref<5xi32>, memref<5xi32>
    %t9 = gpu.memcpy async [%t8] %d3, %aval : memref<5xf32>, memref<5xf32>
    %t10 = gpu.memcpy async [%t9] %d4, %bpos : memref<5xi32>, memref<5xi32>
    %t11 = gpu.memcpy async [%t10] %d5, %bcrd : memref<4xi32>, memref<4xi32>
    %t12 = gpu.memcpy async [%t11] %d6, %bval : memref<4xf32>, memref<4xf32>
    // C starts empty: row offsets only
    %cpos, %t13 = gpu.alloc async [%t12] () : memref<4xi32>
    %ccrd0, %t14 = gpu.alloc async [%t13] () : memref<0xi32>
    %cval0, %t15 = gpu.alloc async [%t14] () : memref<0xf32>
    %sa, %t16 = gpu.create_csr async [%t15] %c3, %c4, %c5, %d1, %d2, %d3
      : memref<4xi32>, memref<5xi32>, memref<5xf32>
    %sb, %t17 = gpu.create_csr async [%t16] %c4, %c2, %c4, %d4, %d5, %d6
      : memref<5xi32>, memref<4xi32>, memref<4xf32>
    %sc, %t18 = gpu.create_csr async [%t17] %c3, %c2, %c0, %cpos, %ccrd0, %cval0
      : memref<4xi32>, memref<0xi32>, memref<0xf32>
    %desc, %t19 = gpu.spgemm_create_descr async [%t18]
    %none = memref.alloc() : memref<0xi8>
    %sz1, %t20 = gpu.spgemm_work_estimation_or_compute async [%t19]{WORK_ESTIMATION}
      %sa, %sb, %sc, %desc, %c0, %none : f32 into memref<0xi8>
    %buf1, %t21 = gpu.alloc async [%t20] (%sz1) : memref<?xi8>
    %sz1b, %t22 = gpu.spgemm_work_estimation_or_compute async [%t21]{WORK_ESTIMATION}
      %sa, %sb, %sc, %desc, %sz1, %buf1 : f32 into memref<?xi8>
    %sz2, %t23 = gpu.spgemm_work_estimation_or_compute async [%t22]{COMPUTE}
      %sa, %sb, %sc, %desc, %c0, %none : f32 into memref<0xi8>
    %buf2, %t24 = gpu.alloc async [%t23] (%sz2) : memref<?xi8>
    %sz2b, %t25 = gpu.spgemm_work_estimation_or_compute async [%t24]{COMPUTE}
      %sa, %sb, %sc, %desc, %sz2, %buf2 : f32 into memref<?xi8>
    %rows, %cols, %nnz, %t26 = gpu.spmat_get_size async [%t25] %sc
    %ccrd, %t27 = gpu.alloc async [%t26] (%nnz) : memref<?xi32>
    %cval, %t28 = gpu.alloc async [%t27] (%nnz) : memref<?xf32>
    %t29 = gpu.set_csr_pointers async [%t28] %sc, %cpos, %ccrd, %cval
      : memref<4xi32>, memref<?xi32>, memref<?xf32>
    %t30 = gpu.spgemm_copy async [%t29] %sa, %sb, %sc, %desc : f32
    %t31 = gpu.spgemm_destroy_descr async [%t30] %desc
    %t32 = gpu.destroy_sp_mat async [%t31] %sa
    %t33 = gpu.destroy_sp_mat async [%t32] %sb
    %t34 = gpu.destroy_sp_mat async [%t33] %sc
    %hpos = memref.alloc() : memref<4xi32>
    %hcrd = memref.alloc(%nnz) : memref<?xi32>
    %hval = memref.alloc(%nnz) : memref<?xf32>
    %t35 = gpu.memcpy async [%t34] %hpos, %cpos : memref<4xi32>, memref<4xi32>
    %t36 = gpu.memcpy async [%t35] %hcrd, %ccrd : memref<?xi32>, memref<?xi32>
    %t37 = gpu.memcpy async [%t36] %hval, %cval : memref<?xf32>, memref<?xf32>
    gpu.wait [%t37]

    vector.print str "nnz = "
    vector.print %nnz : index
    %u1 = memref.cast %hpos : memref<4xi32> to memref<*xi32>
    call @printMemrefI32(%u1) : (memref<*xi32>) -> ()
    %u2 = memref.cast %hcrd : memref<?xi32> to memref<*xi32>
    call @printMemrefI32(%u2) : (memref<*xi32>) -> ()
    %u3 = memref.cast %hval : memref<?xf32> to memref<*xf32>
    call @printMemrefF32(%u3) : (memref<*xf32>) -> ()

    // C scattered into a dense matrix
    %dense = memref.alloc() : memref<3x2xf32>
    linalg.fill ins(%zero : f32) outs(%dense : memref<3x2xf32>)
    scf.for %i = %c0 to %c3 step %c1 {
      %i1 = arith.addi %i, %c1 : index
      %lo32 = memref.load %hpos[%i] : memref<4xi32>
      %hi32 = memref.load %hpos[%i1] : memref<4xi32>
      %lo = arith.index_cast %lo32 : i32 to index
      %hi = arith.index_cast %hi32 : i32 to index
      scf.for %p = %lo to %hi step %c1 {
        %j32 = memref.load %hcrd[%p] : memref<?xi32>
        %j = arith.index_cast %j32 : i32 to index
        %v = memref.load %hval[%p] : memref<?xf32>
        memref.store %v, %dense[%i, %j] : memref<3x2xf32>
      }
    }
    %u4 = memref.cast %dense : memref<3x2xf32> to memref<*xf32>
    call @printMemrefF32(%u4) : (memref<*xf32>) -> ()

    // the dense reference
    %a = memref.get_global @a : memref<3x4xf32>
    %b = memref.get_global @b : memref<4x2xf32>
    %ref = memref.alloc() : memref<3x2xf32>
    linalg.fill ins(%zero : f32) outs(%ref : memref<3x2xf32>)
    linalg.matmul ins(%a, %b : memref<3x4xf32>, memref<4x2xf32>) outs(%ref : memref<3x2xf32>)
    %u5 = memref.cast %ref : memref<3x2xf32> to memref<*xf32>
    call @printMemrefF32(%u5) : (memref<*xf32>) -> ()
    return
  }
}
