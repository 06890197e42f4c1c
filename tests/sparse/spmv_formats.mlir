// MODE: run
// gpu.spmv with one 4x4 matrix in four formats (CSR with i32 indices, COO
// with index indices, CSC with i64 indices, BSR of 2x2 blocks), y = A x + y,
// and once transposed; each result next to the same product computed
// densely by this program.
//
//     A = [1 0 0 2]   x = [1 10 100 1000]   y starts at 0.5 everywhere
//         [0 3 0 0]
//         [4 0 5 0]
//         [0 0 0 6]

// CHECK:      dense Unranked Memref
// CHECK-NEXT: [2001.5,  30.5,  504.5,  6000.5]
// CHECK-NEXT: csr Unranked Memref
// CHECK-NEXT: [2001.5,  30.5,  504.5,  6000.5]
// CHECK-NEXT: coo Unranked Memref
// CHECK-NEXT: [2001.5,  30.5,  504.5,  6000.5]
// CHECK-NEXT: csc Unranked Memref
// CHECK-NEXT: [2001.5,  30.5,  504.5,  6000.5]
// CHECK-NEXT: bsr Unranked Memref
// CHECK-NEXT: [2001.5,  30.5,  504.5,  6000.5]
// CHECK-NEXT: dense{{\^}}T Unranked Memref
// CHECK-NEXT: [401.5,  30.5,  500.5,  6002.5]
// CHECK-NEXT: csr{{\^}}T Unranked Memref
// CHECK-NEXT: [401.5,  30.5,  500.5,  6002.5]

module attributes {gpu.container_module} {
  memref.global "private" constant @dense : memref<4x4xf64> =
    dense<[[1.0, 0.0, 0.0, 2.0], [0.0, 3.0, 0.0, 0.0], [4.0, 0.0, 5.0, 0.0], [0.0, 0.0, 0.0, 6.0]]>
  memref.global "private" constant @x : memref<4xf64> = dense<[1.0, 10.0, 100.0, 1000.0]>
  memref.global "private" constant @csr_pos : memref<5xi32> = dense<[0, 2, 3, 5, 6]>
  memref.global "private" constant @csr_crd : memref<6xi32> = dense<[0, 3, 1, 0, 2, 3]>
  memref.global "private" constant @csr_val : memref<6xf64> = dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]>
  memref.global "private" constant @coo_row : memref<6xindex> = dense<[0, 0, 1, 2, 2, 3]>
  memref.global "private" constant @coo_col : memref<6xindex> = dense<[0, 3, 1, 0, 2, 3]>
  memref.global "private" constant @csc_pos : memref<5xi64> = dense<[0, 2, 3, 4, 6]>
  memref.global "private" constant @csc_row : memref<6xi64> = dense<[0, 2, 1, 2, 0, 3]>
  memref.global "private" constant @csc_val : memref<6xf64> = dense<[1.0, 4.0, 3.0, 5.0, 2.0, 6.0]>
  memref.global "private" constant @bsr_pos : memref<3xi32> = dense<[0, 2, 4]>
  memref.global "private" constant @bsr_col : memref<4xi32> = dense<[0, 1, 0, 1]>
  memref.global "private" constant @bsr_val : memref<16xf64> =
    dense<[1.0, 0.0, 0.0, 3.0, 0.0, 2.0, 0.0, 0.0, 4.0, 0.0, 0.0, 0.0, 5.0, 0.0, 0.0, 6.0]>

  func.func private @printString(!llvm.ptr)
  func.func private @printMemrefF64(memref<*xf64>)
  llvm.mlir.global internal constant @s_dense("dense   \00") {addr_space = 0 : i32}
  llvm.mlir.global internal constant @s_csr("csr     \00") {addr_space = 0 : i32}
  llvm.mlir.global internal constant @s_coo("coo     \00") {addr_space = 0 : i32}
  llvm.mlir.global internal constant @s_csc("csc     \00") {addr_space = 0 : i32}
  llvm.mlir.global internal constant @s_bsr("bsr     \00") {addr_space = 0 : i32}
  llvm.mlir.global internal constant @s_denset("dense^T \00") {addr_space = 0 : i32}
  llvm.mlir.global internal constant @s_csrt("csr^T   \00") {addr_space = 0 : i32}

  // Prints the label, then the vector's elements (the data line of
  // printMemrefF64, whose header line the CHECK lines skip).
  func.func @show(%label: !llvm.ptr, %v: memref<4xf64>) {
    call @printString(%label) : (!llvm.ptr) -> ()
    %u = memref.cast %v : memref<4xf64> to memref<*xf64>
    call @printMemrefF64(%u) : (memref<*xf64>) -> ()
    return
  }

  // A device copy of a host array.
  func.func @upload_f64(%h: memref<?xf64>) -> memref<?xf64> {
    %c0 = arith.constant 0 : index
    %n = memref.dim %h, %c0 : memref<?xf64>
    %t0 = gpu.wait async
    %d, %t1 = gpu.alloc async [%t0] (%n) : memref<?xf64>
    %t2 = gpu.memcpy async [%t1] %d, %h : memref<?xf64>, memref<?xf64>
    gpu.wait [%t2]
    return %d : memref<?xf64>
  }
  func.func @upload_i32(%h: memref<?xi32>) -> memref<?xi32> {
    %c0 = arith.constant 0 : index
    %n = memref.dim %h, %c0 : memref<?xi32>
    %t0 = gpu.wait async
    %d, %t1 = gpu.alloc async [%t0] (%n) : memref<?xi32>
    %t2 = gpu.memcpy async [%t1] %d, %h : memref<?xi32>, memref<?xi32>
    gpu.wait [%t2]
    return %d : memref<?xi32>
  }
  func.func @upload_i64(%h: memref<?xi64>) -> memref<?xi64> {
    %c0 = arith.constant 0 : index
    %n = memref.dim %h, %c0 : memref<?xi64>
    %t0 = gpu.wait async
    %d, %t1 = gpu.alloc async [%t0] (%n) : memref<?xi64>
    %t2 = gpu.memcpy async [%t1] %d, %h : memref<?xi64>, memref<?xi64>
    gpu.wait [%t2]
    return %d : memref<?xi64>
  }
  func.func @upload_index(%h: memref<?xindex>) -> memref<?xindex> {
    %c0 = arith.constant 0 : index
    %n = memref.dim %h, %c0 : memref<?xindex>
    %t0 = gpu.wait async
    %d, %t1 = gpu.alloc async [%t0] (%n) : memref<?xindex>
    %t2 = gpu.memcpy async [%t1] %d, %h : memref<?xindex>, memref<?xindex>
    gpu.wait [%t2]
    return %d : memref<?xindex>
  }

  // y = op(A) x + 0.5 from the dense matrix, on the host.
  func.func @dense_spmv(%trans: i1) -> memref<4xf64> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %half = arith.constant 0.5 : f64
    %a = memref.get_global @dense : memref<4x4xf64>
    %x = memref.get_global @x : memref<4xf64>
    %y = memref.alloc() : memref<4xf64>
    scf.for %i = %c0 to %c4 step %c1 {
      %s = scf.for %k = %c0 to %c4 step %c1 iter_args(%acc = %half) -> (f64) {
        %aik = scf.if %trans -> (f64) {
          %v = memref.load %a[%k, %i] : memref<4x4xf64>
          scf.yield %v : f64
        } else {
          %v = memref.load %a[%i, %k] : memref<4x4xf64>
          scf.yield %v : f64
        }
        %xk = memref.load %x[%k] : memref<4xf64>
        %p = arith.mulf %aik, %xk : f64
        %n = arith.addf %acc, %p : f64
        scf.yield %n : f64
      }
      memref.store %s, %y[%i] : memref<4xf64>
    }
    return %y : memref<4xf64>
  }

  // y = op(A) x + 0.5 with the sparse matrix A on the device.
  func.func @sparse_spmv(%a: !gpu.sparse.spmat_handle, %trans: i1) -> memref<4xf64> {
    %c4 = arith.constant 4 : index
    %half = arith.constant 0.5 : f64
    %xg = memref.get_global @x : memref<4xf64>
    %xh = memref.cast %xg : memref<4xf64> to memref<?xf64>
    %x = call @upload_f64(%xh) : (memref<?xf64>) -> memref<?xf64>
    %yh = memref.alloc() : memref<4xf64>
    linalg.fill ins(%half : f64) outs(%yh : memref<4xf64>)
    %yd = memref.cast %yh : memref<4xf64> to memref<?xf64>
    %y = call @upload_f64(%yd) : (memref<?xf64>) -> memref<?xf64>
    %t0 = gpu.wait async
    %dx, %t1 = gpu.create_dn_tensor async [%t0] %x, %c4 : index into memref<?xf64>
    %dy, %t2 = gpu.create_dn_tensor async [%t1] %y, %c4 : index into memref<?xf64>
    %t5 = scf.if %trans -> (!gpu.async.token) {
      %sz, %t3 = gpu.spmv_buffer_size async [%t2] %a{TRANSPOSE}, %dx, %dy into f64
      %buf, %t4 = gpu.alloc async [%t3] (%sz) : memref<?xi8>
      %t = gpu.spmv async [%t4] %a{TRANSPOSE}, %dx, %dy, %buf : memref<?xi8> into f64
      scf.yield %t : !gpu.async.token
    } else {
      %sz, %t3 = gpu.spmv_buffer_size async [%t2] %a, %dx, %dy into f64
      %buf, %t4 = gpu.alloc async [%t3] (%sz) : memref<?xi8>
      %t = gpu.spmv async [%t4] %a, %dx, %dy, %buf : memref<?xi8> into f64
      scf.yield %t : !gpu.async.token
    }
    %t6 = gpu.destroy_dn_tensor async [%t5] %dx
    %t7 = gpu.destroy_dn_tensor async [%t6] %dy
    %out = memref.alloc() : memref<4xf64>
    %outd = memref.cast %out : memref<4xf64> to memref<?xf64>
    %t8 = gpu.memcpy async [%t7] %outd, %y : memref<?xf64>, memref<?xf64>
    gpu.wait [%t8]
    return %out : memref<4xf64>
  }

  func.func @main() {
    %false = arith.constant false
    %true = arith.constant true
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c6 = arith.constant 6 : index

    %l0 = llvm.mlir.addressof @s_dense : !llvm.ptr
    %d = call @dense_spmv(%false) : (i1) -> memref<4xf64>
    call @show(%l0, %d) : (!llvm.ptr, memref<4xf64>) -> ()

    // CSR, i32 positions and coordinates
    %g1 = memref.get_global @csr_pos : memref<5xi32>
    %g2 = memref.get_global @csr_crd : memref<6xi32>
    %g3 = memref.get_global @csr_val : memref<6xf64>
    %h1 = memref.cast %g1 : memref<5xi32> to memref<?xi32>
    %h2 = memref.cast %g2 : memref<6xi32> to memref<?xi32>
    %h3 = memref.cast %g3 : memref<6xf64> to memref<?xf64>
    %pos = call @upload_i32(%h1) : (memref<?xi32>) -> memref<?xi32>
    %crd = call @upload_i32(%h2) : (memref<?xi32>) -> memref<?xi32>
    %val = call @upload_f64(%h3) : (memref<?xf64>) -> memref<?xf64>
    %t0 = gpu.wait async
    %csr, %t1 = gpu.create_csr async [%t0] %c4, %c4, %c6, %pos, %crd, %val
      : memref<?xi32>, memref<?xi32>, memref<?xf64>
    gpu.wait [%t1]
    %l1 = llvm.mlir.addressof @s_csr : !llvm.ptr
    %y1 = call @sparse_spmv(%csr, %false) : (!gpu.sparse.spmat_handle, i1) -> memref<4xf64>
    call @show(%l1, %y1) : (!llvm.ptr, memref<4xf64>) -> ()

    // COO, index coordinates, the CSR's values
    %g4 = memref.get_global @coo_row : memref<6xindex>
    %g5 = memref.get_global @coo_col : memref<6xindex>
    %h4 = memref.cast %g4 : memref<6xindex> to memref<?xindex>
    %h5 = memref.cast %g5 : memref<6xindex> to memref<?xindex>
    %row = call @upload_index(%h4) : (memref<?xindex>) -> memref<?xindex>
    %col = call @upload_index(%h5) : (memref<?xindex>) -> memref<?xindex>
    %t2 = gpu.wait async
    %coo, %t3 = gpu.create_coo async [%t2] %c4, %c4, %c6, %row, %col, %val
      : memref<?xindex>, memref<?xindex>, memref<?xf64>
    gpu.wait [%t3]
    %l2 = llvm.mlir.addressof @s_coo : !llvm.ptr
    %y2 = call @sparse_spmv(%coo, %false) : (!gpu.sparse.spmat_handle, i1) -> memref<4xf64>
    call @show(%l2, %y2) : (!llvm.ptr, memref<4xf64>) -> ()

    // CSC, i64 positions and coordinates
    %g6 = memref.get_global @csc_pos : memref<5xi64>
    %g7 = memref.get_global @csc_row : memref<6xi64>
    %g8 = memref.get_global @csc_val : memref<6xf64>
    %h6 = memref.cast %g6 : memref<5xi64> to memref<?xi64>
    %h7 = memref.cast %g7 : memref<6xi64> to memref<?xi64>
    %h8 = memref.cast %g8 : memref<6xf64> to memref<?xf64>
    %cpos = call @upload_i64(%h6) : (memref<?xi64>) -> memref<?xi64>
    %crow = call @upload_i64(%h7) : (memref<?xi64>) -> memref<?xi64>
    %cval = call @upload_f64(%h8) : (memref<?xf64>) -> memref<?xf64>
    %t4 = gpu.wait async
    %csc, %t5 = gpu.create_csc async [%t4] %c4, %c4, %c6, %cpos, %crow, %cval
      : memref<?xi64>, memref<?xi64>, memref<?xf64>
    gpu.wait [%t5]
    %l3 = llvm.mlir.addressof @s_csc : !llvm.ptr
    %y3 = call @sparse_spmv(%csc, %false) : (!gpu.sparse.spmat_handle, i1) -> memref<4xf64>
    call @show(%l3, %y3) : (!llvm.ptr, memref<4xf64>) -> ()

    // BSR: 2x2 block rows and columns of 2x2 blocks, all four stored
    %g9 = memref.get_global @bsr_pos : memref<3xi32>
    %g10 = memref.get_global @bsr_col : memref<4xi32>
    %g11 = memref.get_global @bsr_val : memref<16xf64>
    %h9 = memref.cast %g9 : memref<3xi32> to memref<?xi32>
    %h10 = memref.cast %g10 : memref<4xi32> to memref<?xi32>
    %h11 = memref.cast %g11 : memref<16xf64> to memref<?xf64>
    %bpos = call @upload_i32(%h9) : (memref<?xi32>) -> memref<?xi32>
    %bcol = call @upload_i32(%h10) : (memref<?xi32>) -> memref<?xi32>
    %bval = call @upload_f64(%h11) : (memref<?xf64>) -> memref<?xf64>
    %t6 = gpu.wait async
    %bsr, %t7 = gpu.create_bsr async [%t6] %c2, %c2, %c4, %c2, %c2, %bpos, %bcol, %bval
      : memref<?xi32>, memref<?xi32>, memref<?xf64>
    gpu.wait [%t7]
    %l4 = llvm.mlir.addressof @s_bsr : !llvm.ptr
    %y4 = call @sparse_spmv(%bsr, %false) : (!gpu.sparse.spmat_handle, i1) -> memref<4xf64>
    call @show(%l4, %y4) : (!llvm.ptr, memref<4xf64>) -> ()

    // transposed
    %l5 = llvm.mlir.addressof @s_denset : !llvm.ptr
    %dt = call @dense_spmv(%true) : (i1) -> memref<4xf64>
    call @show(%l5, %dt) : (!llvm.ptr, memref<4xf64>) -> ()
    %l6 = llvm.mlir.addressof @s_csrt : !llvm.ptr
    %y5 = call @sparse_spmv(%csr, %true) : (!gpu.sparse.spmat_handle, i1) -> memref<4xf64>
    call @show(%l6, %y5) : (!llvm.ptr, memref<4xf64>) -> ()

    %t8 = gpu.wait async
    %t9 = gpu.destroy_sp_mat async [%t8] %csr
    %t10 = gpu.destroy_sp_mat async [%t9] %coo
    %t11 = gpu.destroy_sp_mat async [%t10] %csc
    %t12 = gpu.destroy_sp_mat async [%t11] %bsr
    gpu.wait [%t12]
    return
  }
}
