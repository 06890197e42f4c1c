// gpu.subgroup_mma needs a matrix unit (WMMA, MFMA): gfx906 has none.
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @mma(%a: memref<16x16xf16>, %c: memref<16x16xf32>) kernel {
      %i = arith.constant 0 : index
      %fa = gpu.subgroup_mma_load_matrix %a[%i, %i] {leadDimension = 16 : index} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "AOp">
      %fb = gpu.subgroup_mma_load_matrix %a[%i, %i] {leadDimension = 16 : index} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "BOp">
      %fc = gpu.subgroup_mma_load_matrix %c[%i, %i] {leadDimension = 16 : index} : memref<16x16xf32> -> !gpu.mma_matrix<16x16xf32, "COp">
      %d = gpu.subgroup_mma_compute %fa, %fb, %fc : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp"> -> !gpu.mma_matrix<16x16xf32, "COp">
      gpu.subgroup_mma_store_matrix %d, %c[%i, %i] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<16x16xf32>
      gpu.return
    }
  }
}
