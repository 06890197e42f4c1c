// gpu.subgroup_mma on 16x16x16 tiles: C = max(A * B + 1, 0) for 32x32
// matrices, f16 operands, f32 accumulation. One subgroup (32 threads) per
// 16x16 tile of C, a 2x2 grid; the K loop carries the accumulator fragment
// through scf.for. B is stored transposed (BT[j][k] = B[k][j]) and loaded
// with `transpose`; the bias is a constant matrix. The host computes the
// same product in f32 loops and prints the number of elements that differ
// (all values are small integers, exact in f16 and f32), then row 5.
module attributes {gpu.container_module} {
  gpu.module @tc {
    gpu.func @matmul(%a: memref<32x32xf16>, %bt: memref<32x32xf16>, %c: memref<32x32xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %c32 = arith.constant 32 : index
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %row = arith.muli %by, %c16 : index
      %col = arith.muli %bx, %c16 : index
      %zero = arith.constant 0.0 : f32
      %one = arith.constant 1.0 : f32
      %acc0 = gpu.subgroup_mma_constant_matrix %zero : !gpu.mma_matrix<16x16xf32, "COp">
      %acc = scf.for %k = %c0 to %c32 step %c16 iter_args(%sum = %acc0) -> (!gpu.mma_matrix<16x16xf32, "COp">) {
        %fa = gpu.subgroup_mma_load_matrix %a[%row, %k] {leadDimension = 32 : index} : memref<32x32xf16> -> !gpu.mma_matrix<16x16xf16, "AOp">
        %fb = gpu.subgroup_mma_load_matrix %bt[%col, %k] {leadDimension = 32 : index, transpose} : memref<32x32xf16> -> !gpu.mma_matrix<16x16xf16, "BOp">
        %next = gpu.subgroup_mma_compute %fa, %fb, %sum {b_transpose} : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp"> -> !gpu.mma_matrix<16x16xf32, "COp">
        scf.yield %next : !gpu.mma_matrix<16x16xf32, "COp">
      }
      %bias = gpu.subgroup_mma_constant_matrix %one : !gpu.mma_matrix<16x16xf32, "COp">
      %biased = gpu.subgroup_mma_elementwise addf %acc, %bias : (!gpu.mma_matrix<16x16xf32, "COp">, !gpu.mma_matrix<16x16xf32, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">
      %relu = gpu.subgroup_mma_elementwise maxf %biased, %acc0 : (!gpu.mma_matrix<16x16xf32, "COp">, !gpu.mma_matrix<16x16xf32, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">
      gpu.subgroup_mma_store_matrix %relu, %c[%row, %col] {leadDimension = 32 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<32x32xf32>
      gpu.return
    }
  }

  func.func private @printMemrefF32(memref<*xf32>)

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c5 = arith.constant 5 : index
    %c7 = arith.constant 7 : index
    %c32 = arith.constant 32 : index
    %a = memref.alloc() : memref<32x32xf16>
    %bt = memref.alloc() : memref<32x32xf16>
    %c = memref.alloc() : memref<32x32xf32>
    // a[i][k] = (i + k) mod 5 - 2, b[k][j] = (3k + j) mod 7 - 3
    scf.for %i = %c0 to %c32 step %c1 {
      scf.for %j = %c0 to %c32 step %c1 {
        %s = arith.addi %i, %j : index
        %m = arith.remui %s, %c5 : index
        %mi = arith.index_cast %m : index to i32
        %mf = arith.sitofp %mi : i32 to f16
        %two = arith.constant 2.0 : f16
        %va = arith.subf %mf, %two : f16
        memref.store %va, %a[%i, %j] : memref<32x32xf16>
        %k3 = arith.muli %j, %c2 : index
        %k3b = arith.addi %k3, %j : index
        %t = arith.addi %k3b, %i : index
        %n = arith.remui %t, %c7 : index
        %ni = arith.index_cast %n : index to i32
        %nf = arith.sitofp %ni : i32 to f16
        %three = arith.constant 3.0 : f16
        %vb = arith.subf %nf, %three : f16
        // bt[i][j] = b[j][i]: k = j, column i
        memref.store %vb, %bt[%i, %j] : memref<32x32xf16>
      }
    }
    %da = gpu.alloc () : memref<32x32xf16>
    %db = gpu.alloc () : memref<32x32xf16>
    %dc = gpu.alloc () : memref<32x32xf32>
    gpu.memcpy %da, %a : memref<32x32xf16>, memref<32x32xf16>
    gpu.memcpy %db, %bt : memref<32x32xf16>, memref<32x32xf16>
    gpu.launch_func @tc::@matmul blocks in (%c2, %c2, %c1) threads in (%c32, %c1, %c1)
        args(%da : memref<32x32xf16>, %db : memref<32x32xf16>, %dc : memref<32x32xf32>)
    gpu.memcpy %c, %dc : memref<32x32xf32>, memref<32x32xf32>
    // The reference, in f32, and the count of elements that differ.
    %zero = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %bad = scf.for %i = %c0 to %c32 step %c1 iter_args(%nb = %c0) -> (index) {
      %nb2 = scf.for %j = %c0 to %c32 step %c1 iter_args(%nbj = %nb) -> (index) {
        %dot = scf.for %k = %c0 to %c32 step %c1 iter_args(%acc = %zero) -> (f32) {
          %x = memref.load %a[%i, %k] : memref<32x32xf16>
          %y = memref.load %bt[%j, %k] : memref<32x32xf16>
          %xf = arith.extf %x : f16 to f32
          %yf = arith.extf %y : f16 to f32
          %p = arith.mulf %xf, %yf : f32
          %s = arith.addf %acc, %p : f32
          scf.yield %s : f32
        }
        %b1 = arith.addf %dot, %one : f32
        %want = arith.maximumf %b1, %zero : f32
        %got = memref.load %c[%i, %j] : memref<32x32xf32>
        %same = arith.cmpf oeq, %want, %got : f32
        %inc = arith.select %same, %c0, %c1 : index
        %nbn = arith.addi %nbj, %inc : index
        scf.yield %nbn : index
      }
      scf.yield %nb2 : index
    }
    vector.print str "mismatches: "
    vector.print %bad : index
    %row5 = memref.subview %c[5, 0] [1, 32] [1, 1] : memref<32x32xf32> to memref<32xf32, strided<[1], offset: 160>>
    %u = memref.cast %row5 : memref<32xf32, strided<[1], offset: 160>> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
}
