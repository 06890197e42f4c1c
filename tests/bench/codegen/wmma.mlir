// wmma.mlir: the tensor-core kernel of the codegen benchmark, apart from
// kernels.mlir because it is NVIDIA-only among the bench's targets (gfx942
// has no WMMA; gpucc refuses gpu.subgroup_mma_* for it). kernels.cu's
// wmma_gemm is its CUDA C twin (nvcuda::wmma).
module attributes {gpu.container_module} {
  // BEGIN bench kernels
  gpu.module @bench_wmma {
    // c = a b for 1024 x 1024 matrices, f16 inputs and f32 sums: one
    // subgroup per block and per 16 x 16 tile of c.
    gpu.func @wmma_gemm(%a: memref<1024x1024xf16>, %b: memref<1024x1024xf16>, %c: memref<1024x1024xf32>)
        kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %c1024 = arith.constant 1024 : index
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %row = arith.muli %by, %c16 : index
      %col = arith.muli %bx, %c16 : index
      %zero = arith.constant 0.0 : f32
      %init = gpu.subgroup_mma_constant_matrix %zero : !gpu.mma_matrix<16x16xf32, "COp">
      %sum = scf.for %k = %c0 to %c1024 step %c16 iter_args(%acc = %init) -> (!gpu.mma_matrix<16x16xf32, "COp">) {
        %fa = gpu.subgroup_mma_load_matrix %a[%row, %k] {leadDimension = 1024 : index}
            : memref<1024x1024xf16> -> !gpu.mma_matrix<16x16xf16, "AOp">
        %fb = gpu.subgroup_mma_load_matrix %b[%k, %col] {leadDimension = 1024 : index}
            : memref<1024x1024xf16> -> !gpu.mma_matrix<16x16xf16, "BOp">
        %d = gpu.subgroup_mma_compute %fa, %fb, %acc
            : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp">
            -> !gpu.mma_matrix<16x16xf32, "COp">
        scf.yield %d : !gpu.mma_matrix<16x16xf32, "COp">
      }
      gpu.subgroup_mma_store_matrix %sum, %c[%row, %col] {leadDimension = 1024 : index}
          : !gpu.mma_matrix<16x16xf32, "COp">, memref<1024x1024xf32>
      gpu.return
    }
  }
  // END bench kernels
}
