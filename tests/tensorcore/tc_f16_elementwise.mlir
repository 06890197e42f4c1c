// gpu.subgroup_mma with f16 accumulators and every float elementwise kind:
// one subgroup computes, on 16x16 tiles,
//   P = A * B + C            (f16 accumulate)
//   Q = (P + C) * C - C      addf, mulf, subf
//   R = max(Q, 16) / C       maxf, divf
//   S = -min(R, 10)          minf, negatef
// and stores S widened to f32 (extf) transposed, and P as f16.
// Inputs: A[i][k] = (i == k) * 2, B[k][j] = (k + 2j) mod 4 + 1, C = 2,
// so P[i][j] = 2 B[i][j] + 2. Every value is a small integer, exact in
// f16. The host prints P's row 1 and S as stored (S transposed).
module attributes {gpu.container_module} {
  gpu.module @tc {
    gpu.func @ew(%a: memref<16x16xf16>, %b: memref<16x16xf16>, %p: memref<16x16xf16>, %s: memref<16x16xf32>) kernel {
      %c0 = arith.constant 0 : index
      %two = arith.constant 2.0 : f16
      %ten = arith.constant 10.0 : f16
      %sixteen = arith.constant 16.0 : f16
      %f10 = gpu.subgroup_mma_constant_matrix %ten : !gpu.mma_matrix<16x16xf16, "COp">
      %f16c = gpu.subgroup_mma_constant_matrix %sixteen : !gpu.mma_matrix<16x16xf16, "COp">
      %fa = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "AOp">
      %fb = gpu.subgroup_mma_load_matrix %b[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "BOp">
      %fc = gpu.subgroup_mma_constant_matrix %two : !gpu.mma_matrix<16x16xf16, "COp">
      %P = gpu.subgroup_mma_compute %fa, %fb, %fc : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp"> -> !gpu.mma_matrix<16x16xf16, "COp">
      %q1 = gpu.subgroup_mma_elementwise addf %P, %fc : (!gpu.mma_matrix<16x16xf16, "COp">, !gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf16, "COp">
      %q2 = gpu.subgroup_mma_elementwise mulf %q1, %fc : (!gpu.mma_matrix<16x16xf16, "COp">, !gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf16, "COp">
      %Q = gpu.subgroup_mma_elementwise subf %q2, %fc : (!gpu.mma_matrix<16x16xf16, "COp">, !gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf16, "COp">
      %r1 = gpu.subgroup_mma_elementwise maxf %Q, %f16c : (!gpu.mma_matrix<16x16xf16, "COp">, !gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf16, "COp">
      %R = gpu.subgroup_mma_elementwise divf %r1, %fc : (!gpu.mma_matrix<16x16xf16, "COp">, !gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf16, "COp">
      %m = gpu.subgroup_mma_elementwise minf %R, %f10 : (!gpu.mma_matrix<16x16xf16, "COp">, !gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf16, "COp">
      %S = gpu.subgroup_mma_elementwise negatef %m : (!gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf16, "COp">
      %S32 = gpu.subgroup_mma_elementwise extf %S : (!gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">
      gpu.subgroup_mma_store_matrix %P, %p[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf16, "COp">, memref<16x16xf16>
      gpu.subgroup_mma_store_matrix %S32, %s[%c0, %c0] {leadDimension = 16 : index, transpose} : !gpu.mma_matrix<16x16xf32, "COp">, memref<16x16xf32>
      gpu.return
    }
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %zero = arith.constant 0.0 : f16
    %twoh = arith.constant 2.0 : f16
    %oneh = arith.constant 1.0 : f16
    %a = memref.alloc() : memref<16x16xf16>
    %b = memref.alloc() : memref<16x16xf16>
    scf.for %i = %c0 to %c16 step %c1 {
      scf.for %j = %c0 to %c16 step %c1 {
        %eq = arith.cmpi eq, %i, %j : index
        %va = arith.select %eq, %twoh, %zero : f16
        memref.store %va, %a[%i, %j] : memref<16x16xf16>
        %j2 = arith.addi %j, %j : index
        %s = arith.addi %i, %j2 : index
        %m = arith.remui %s, %c4 : index
        %mi = arith.index_cast %m : index to i32
        %mf = arith.sitofp %mi : i32 to f16
        %vb = arith.addf %mf, %oneh : f16
        memref.store %vb, %b[%i, %j] : memref<16x16xf16>
      }
    }
    %da = gpu.alloc () : memref<16x16xf16>
    %db = gpu.alloc () : memref<16x16xf16>
    %dp = gpu.alloc () : memref<16x16xf16>
    %ds = gpu.alloc () : memref<16x16xf32>
    gpu.memcpy %da, %a : memref<16x16xf16>, memref<16x16xf16>
    gpu.memcpy %db, %b : memref<16x16xf16>, memref<16x16xf16>
    gpu.launch_func @tc::@ew blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%da : memref<16x16xf16>, %db : memref<16x16xf16>, %dp : memref<16x16xf16>, %ds : memref<16x16xf32>)
    %p = memref.alloc() : memref<16x16xf16>
    %s = memref.alloc() : memref<16x16xf32>
    gpu.memcpy %p, %dp : memref<16x16xf16>, memref<16x16xf16>
    gpu.memcpy %s, %ds : memref<16x16xf32>, memref<16x16xf32>
    %pf = memref.alloc() : memref<16xf32>
    scf.for %j = %c0 to %c16 step %c1 {
      %x = memref.load %p[%c1, %j] : memref<16x16xf16>
      %xf = arith.extf %x : f16 to f32
      memref.store %xf, %pf[%j] : memref<16xf32>
    }
    %pu = memref.cast %pf : memref<16xf32> to memref<*xf32>
    call @printMemrefF32(%pu) : (memref<*xf32>) -> ()
    %su = memref.cast %s : memref<16x16xf32> to memref<*xf32>
    call @printMemrefF32(%su) : (memref<*xf32>) -> ()
    return
  }
}
