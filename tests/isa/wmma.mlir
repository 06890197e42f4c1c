// gpu.subgroup_mma_* on NVIDIA: one warp loads 16x16 f16 tiles (B
// transposed, i.e. column-major), multiplies and accumulates in f32, adds a
// constant matrix and takes the maximum with the input elementwise, and
// stores the result transposed. Each becomes a wmma instruction: load.a/b/c,
// mma, store.d, with .col where a tile is transposed. Loads and stores of
// the kernel's buffers use the .global forms, as nvcc's do (LLVM gave them
// generic addresses: a cvta back to generic and an address-space check per
// access).
// TARGETS: sm_80,sm_90,sm_90a
// PTX: tiles sm_80,sm_90,sm_90a 1 wmma\.load\.a\.sync\.aligned\.row\.m16n16k16\.global\.f16
// PTX: tiles sm_80,sm_90,sm_90a 1 wmma\.load\.b\.sync\.aligned\.col\.m16n16k16\.global\.f16
// PTX: tiles sm_80,sm_90,sm_90a 1 wmma\.load\.c\.sync\.aligned\.row\.m16n16k16\.global\.f32
// PTX: tiles sm_80,sm_90,sm_90a 1 wmma\.mma\.sync\.aligned\.row\.col\.m16n16k16\.f32\.f32
// PTX: tiles sm_80,sm_90,sm_90a 1 wmma\.store\.d\.sync\.aligned\.col\.m16n16k16\.global\.f32
// PTX: tiles sm_80,sm_90,sm_90a none wmma\.(load|store)\.[a-d]\.sync\.aligned\.[a-z]+\.m16n16k16\.f
// Module @staged loads its tiles from workgroup memory: the .shared forms,
// with the array's 32-bit address; its result goes out by .global.
// PTX: staged sm_80,sm_90 1 wmma\.load\.a\.sync\.aligned\.row\.m16n16k16\.shared\.f16
// PTX: staged sm_80,sm_90 1 wmma\.load\.b\.sync\.aligned\.row\.m16n16k16\.shared\.f16
// PTX: staged sm_80,sm_90 1 wmma\.store\.d\.sync\.aligned\.row\.m16n16k16\.global\.f16
// PTX: tiles sm_80 some add(\.rn)?\.f32
// PTX: tiles sm_80 some max\.NaN\.f32
module attributes {gpu.container_module} {
  gpu.module @staged {
    gpu.func @k(%a: memref<16x16xf16>, %d: memref<16x16xf16>)
        workgroup(%s: memref<16x16xf16, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %t = gpu.thread_id x
      %v = memref.load %a[%c0, %t] : memref<16x16xf16>
      memref.store %v, %s[%c0, %t] : memref<16x16xf16, #gpu.address_space<workgroup>>
      gpu.barrier
      %A = gpu.subgroup_mma_load_matrix %s[%c0, %c0] {leadDimension = 16 : index}
          : memref<16x16xf16, #gpu.address_space<workgroup>> -> !gpu.mma_matrix<16x16xf16, "AOp">
      %B = gpu.subgroup_mma_load_matrix %s[%c0, %c0] {leadDimension = 16 : index}
          : memref<16x16xf16, #gpu.address_space<workgroup>> -> !gpu.mma_matrix<16x16xf16, "BOp">
      %C = gpu.subgroup_mma_constant_matrix %v : !gpu.mma_matrix<16x16xf16, "COp">
      %R = gpu.subgroup_mma_compute %A, %B, %C : !gpu.mma_matrix<16x16xf16, "AOp">,
          !gpu.mma_matrix<16x16xf16, "BOp"> -> !gpu.mma_matrix<16x16xf16, "COp">
      gpu.subgroup_mma_store_matrix %R, %d[%c0, %c0] {leadDimension = 16 : index}
          : !gpu.mma_matrix<16x16xf16, "COp">, memref<16x16xf16>
      gpu.return
    }
  }
  gpu.module @tiles {
    gpu.func @mma(%a: memref<16x16xf16>, %b: memref<16x16xf16>, %c: memref<16x16xf32>,
                  %d: memref<16x16xf32>) kernel {
      %c0 = arith.constant 0 : index
      %one = arith.constant 1.0 : f32
      %A = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 16 : index}
          : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "AOp">
      %B = gpu.subgroup_mma_load_matrix %b[%c0, %c0] {leadDimension = 16 : index, transpose}
          : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "BOp">
      %C = gpu.subgroup_mma_load_matrix %c[%c0, %c0] {leadDimension = 16 : index}
          : memref<16x16xf32> -> !gpu.mma_matrix<16x16xf32, "COp">
      %D = gpu.subgroup_mma_compute %A, %B, %C {b_transpose}
          : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp"> -> !gpu.mma_matrix<16x16xf32, "COp">
      %K = gpu.subgroup_mma_constant_matrix %one : !gpu.mma_matrix<16x16xf32, "COp">
      %E = gpu.subgroup_mma_elementwise addf %D, %K
          : (!gpu.mma_matrix<16x16xf32, "COp">, !gpu.mma_matrix<16x16xf32, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">
      %F = gpu.subgroup_mma_elementwise maxf %E, %C
          : (!gpu.mma_matrix<16x16xf32, "COp">, !gpu.mma_matrix<16x16xf32, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">
      gpu.subgroup_mma_store_matrix %F, %d[%c0, %c0] {leadDimension = 16 : index, transpose}
          : !gpu.mma_matrix<16x16xf32, "COp">, memref<16x16xf32>
      gpu.return
    }
  }
}
