// A 32x8 fragment: no MFMA holds it, so CDNA refuses the op at line 7 (the store; ops are rewritten last first).
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%a: memref<32x8xf16>, %c: memref<32x8xf16>) kernel {
      %c0 = arith.constant 0 : index
      %fa = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 8 : index} : memref<32x8xf16> -> !gpu.mma_matrix<32x8xf16, "COp">
      gpu.subgroup_mma_store_matrix %fa, %c[%c0, %c0] {leadDimension = 8 : index} : !gpu.mma_matrix<32x8xf16, "COp">, memref<32x8xf16>
      gpu.return
    }
  }
}
