// gpu.subgroup_mma written for 64-thread blocks, so that it is valid on
// CDNA (one 64-lane wavefront per block) as well as on 32-lane targets
// (two subgroups doing the same work on the same data), built for the
// default targets. Two kernels on 32x32 matrices, a 2x2 grid of 16x16
// tiles, one block per tile:
//   @matmul  C = max(A * B + 1, 0): f16 operands, f32 accumulation over a
//            K loop (the fragment carried through scf.for), B stored
//            transposed and loaded with `transpose`, a constant bias;
//   @half    P = A * B + Cin with f16 accumulators (loaded, not constant),
//            stored to a separate buffer, and E = extf(P) stored transposed.
// A[i][k] = (i + k) mod 5 - 2, B[k][j] = (3k + j) mod 7 - 3, Cin[i][j] =
// (i - j) mod 3: small integers, exact in f16 and f32. The host counts the
// elements that differ from its own loops and prints row 5 of C and of E.
// ISA gfx908: v_mfma_f32_16x16x16f16
// ISA gfx90a: v_mfma_f32_16x16x16f16
// ISA gfx942: v_mfma_f32_16x16x16_f16
// ISA gfx950: v_mfma_f32_16x16x16_f16
// ISA gfx906: ds_bpermute_b32 v_fmac_f32_e32
// ISA gfx1030: ds_bpermute_b32 v_fmac_f32_e32
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
    gpu.func @half(%a: memref<32x32xf16>, %b: memref<32x32xf16>, %cin: memref<32x32xf16>, %p: memref<32x32xf16>, %e: memref<32x32xf32>) kernel {
      %c16 = arith.constant 16 : index
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %row = arith.muli %by, %c16 : index
      %col = arith.muli %bx, %c16 : index
      %c0 = arith.constant 0 : index
      %fc = gpu.subgroup_mma_load_matrix %cin[%row, %col] {leadDimension = 32 : index} : memref<32x32xf16> -> !gpu.mma_matrix<16x16xf16, "COp">
      %fa0 = gpu.subgroup_mma_load_matrix %a[%row, %c0] {leadDimension = 32 : index} : memref<32x32xf16> -> !gpu.mma_matrix<16x16xf16, "AOp">
      %fb0 = gpu.subgroup_mma_load_matrix %b[%c0, %col] {leadDimension = 32 : index} : memref<32x32xf16> -> !gpu.mma_matrix<16x16xf16, "BOp">
      %p0 = gpu.subgroup_mma_compute %fa0, %fb0, %fc : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp"> -> !gpu.mma_matrix<16x16xf16, "COp">
      %fa1 = gpu.subgroup_mma_load_matrix %a[%row, %c16] {leadDimension = 32 : index} : memref<32x32xf16> -> !gpu.mma_matrix<16x16xf16, "AOp">
      %fb1 = gpu.subgroup_mma_load_matrix %b[%c16, %col] {leadDimension = 32 : index} : memref<32x32xf16> -> !gpu.mma_matrix<16x16xf16, "BOp">
      %p1 = gpu.subgroup_mma_compute %fa1, %fb1, %p0 : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp"> -> !gpu.mma_matrix<16x16xf16, "COp">
      %wide = gpu.subgroup_mma_elementwise extf %p1 : (!gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">
      gpu.subgroup_mma_store_matrix %p1, %p[%row, %col] {leadDimension = 32 : index} : !gpu.mma_matrix<16x16xf16, "COp">, memref<32x32xf16>
      gpu.subgroup_mma_store_matrix %wide, %e[%col, %row] {leadDimension = 32 : index, transpose} : !gpu.mma_matrix<16x16xf32, "COp">, memref<32x32xf32>
      gpu.return
    }
  }

  func.func private @printMemrefF32(memref<*xf32>)

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c5 = arith.constant 5 : index
    %c7 = arith.constant 7 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %a = memref.alloc() : memref<32x32xf16>
    %b = memref.alloc() : memref<32x32xf16>
    %bt = memref.alloc() : memref<32x32xf16>
    %cin = memref.alloc() : memref<32x32xf16>
    %c = memref.alloc() : memref<32x32xf32>
    %p = memref.alloc() : memref<32x32xf16>
    %e = memref.alloc() : memref<32x32xf32>
    scf.for %i = %c0 to %c32 step %c1 {
      scf.for %j = %c0 to %c32 step %c1 {
        %s = arith.addi %i, %j : index
        %m = arith.remui %s, %c5 : index
        %mi = arith.index_cast %m : index to i32
        %mf = arith.sitofp %mi : i32 to f16
        %two = arith.constant 2.0 : f16
        %va = arith.subf %mf, %two : f16
        memref.store %va, %a[%i, %j] : memref<32x32xf16>
        // b[i][j] = (3i + j) mod 7 - 3, bt[j][i] = b[i][j]
        %i3 = arith.muli %i, %c3 : index
        %t = arith.addi %i3, %j : index
        %n = arith.remui %t, %c7 : index
        %ni = arith.index_cast %n : index to i32
        %nf = arith.sitofp %ni : i32 to f16
        %three = arith.constant 3.0 : f16
        %vb = arith.subf %nf, %three : f16
        memref.store %vb, %b[%i, %j] : memref<32x32xf16>
        memref.store %vb, %bt[%j, %i] : memref<32x32xf16>
        // cin[i][j] = (i + 32 - j) mod 3
        %ip = arith.addi %i, %c32 : index
        %d = arith.subi %ip, %j : index
        %r = arith.remui %d, %c3 : index
        %ri = arith.index_cast %r : index to i32
        %rf = arith.sitofp %ri : i32 to f16
        memref.store %rf, %cin[%i, %j] : memref<32x32xf16>
      }
    }
    %da = gpu.alloc () : memref<32x32xf16>
    %db = gpu.alloc () : memref<32x32xf16>
    %dbt = gpu.alloc () : memref<32x32xf16>
    %dcin = gpu.alloc () : memref<32x32xf16>
    %dc = gpu.alloc () : memref<32x32xf32>
    %dp = gpu.alloc () : memref<32x32xf16>
    %de = gpu.alloc () : memref<32x32xf32>
    gpu.memcpy %da, %a : memref<32x32xf16>, memref<32x32xf16>
    gpu.memcpy %db, %b : memref<32x32xf16>, memref<32x32xf16>
    gpu.memcpy %dbt, %bt : memref<32x32xf16>, memref<32x32xf16>
    gpu.memcpy %dcin, %cin : memref<32x32xf16>, memref<32x32xf16>
    gpu.launch_func @tc::@matmul blocks in (%c2, %c2, %c1) threads in (%c64, %c1, %c1)
        args(%da : memref<32x32xf16>, %dbt : memref<32x32xf16>, %dc : memref<32x32xf32>)
    gpu.launch_func @tc::@half blocks in (%c2, %c2, %c1) threads in (%c64, %c1, %c1)
        args(%da : memref<32x32xf16>, %db : memref<32x32xf16>, %dcin : memref<32x32xf16>, %dp : memref<32x32xf16>, %de : memref<32x32xf32>)
    gpu.memcpy %c, %dc : memref<32x32xf32>, memref<32x32xf32>
    gpu.memcpy %p, %dp : memref<32x32xf16>, memref<32x32xf16>
    gpu.memcpy %e, %de : memref<32x32xf32>, memref<32x32xf32>
    %zero = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %bad = scf.for %i = %c0 to %c32 step %c1 iter_args(%nb = %c0) -> (index) {
      %nb2 = scf.for %j = %c0 to %c32 step %c1 iter_args(%nbj = %nb) -> (index) {
        %dot = scf.for %k = %c0 to %c32 step %c1 iter_args(%acc = %zero) -> (f32) {
          %x = memref.load %a[%i, %k] : memref<32x32xf16>
          %y = memref.load %b[%k, %j] : memref<32x32xf16>
          %xf = arith.extf %x : f16 to f32
          %yf = arith.extf %y : f16 to f32
          %pr = arith.mulf %xf, %yf : f32
          %s = arith.addf %acc, %pr : f32
          scf.yield %s : f32
        }
        %b1 = arith.addf %dot, %one : f32
        %want = arith.maximumf %b1, %zero : f32
        %got = memref.load %c[%i, %j] : memref<32x32xf32>
        %same = arith.cmpf oeq, %want, %got : f32
        %ch = memref.load %cin[%i, %j] : memref<32x32xf16>
        %chf = arith.extf %ch : f16 to f32
        %wanth = arith.addf %dot, %chf : f32
        %goth = memref.load %p[%i, %j] : memref<32x32xf16>
        %gothf = arith.extf %goth : f16 to f32
        %sameh = arith.cmpf oeq, %wanth, %gothf : f32
        %gote = memref.load %e[%j, %i] : memref<32x32xf32>
        %samee = arith.cmpf oeq, %wanth, %gote : f32
        %ok1 = arith.andi %same, %sameh : i1
        %ok = arith.andi %ok1, %samee : i1
        %inc = arith.select %ok, %c0, %c1 : index
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
    %erow5 = memref.subview %e[5, 0] [1, 32] [1, 1] : memref<32x32xf32> to memref<32xf32, strided<[1], offset: 160>>
    %eu = memref.cast %erow5 : memref<32xf32, strided<[1], offset: 160>> to memref<*xf32>
    call @printMemrefF32(%eu) : (memref<*xf32>) -> ()
    return
  }
}
