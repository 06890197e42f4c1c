// The nvgpu ops of an sm_80 matmul pipeline, in a kernel of one warp: A and
// B are copied global -> workgroup memory with cp.async (one commit group,
// waited for), fragments come out of workgroup memory with ldmatrix (B
// transposed), and one m16n8k16 f16 mma.sync accumulates in f32.
// TARGETS: sm_80,sm_90,sm_90a
// PTX: mma sm_80,sm_90,sm_90a 2 cp\.async\.ca\.shared\.global
// PTX: mma sm_80,sm_90,sm_90a 1 cp\.async\.commit_group
// PTX: mma sm_80,sm_90,sm_90a 1 cp\.async\.wait_group
// PTX: mma sm_80,sm_90,sm_90a 1 ldmatrix\.sync\.aligned\.m8n8\.x4\.shared\.b16
// PTX: mma sm_80,sm_90,sm_90a 1 ldmatrix\.sync\.aligned\.m8n8\.x2\.trans\.shared\.b16
// PTX: mma sm_80,sm_90,sm_90a 1 mma\.sync\.aligned\.m16n8k16\.row\.col\.f32\.f16\.f16\.f32
module attributes {gpu.container_module} {
  gpu.module @mma {
    memref.global "private" @sa : memref<16x16xf16, #gpu.address_space<workgroup>>
    memref.global "private" @sb : memref<16x8xf16, #gpu.address_space<workgroup>>
    gpu.func @tile(%a: memref<16x16xf16>, %b: memref<16x8xf16>, %c: memref<16x8xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c8 = arith.constant 8 : index
      %t = gpu.thread_id x
      %sa = memref.get_global @sa : memref<16x16xf16, #gpu.address_space<workgroup>>
      %sb = memref.get_global @sb : memref<16x8xf16, #gpu.address_space<workgroup>>
      %row = arith.remui %t, %c8 : index
      %tok0 = nvgpu.device_async_copy %a[%row, %c0], %sa[%row, %c0], 8
          : memref<16x16xf16> to memref<16x16xf16, #gpu.address_space<workgroup>>
      %tok1 = nvgpu.device_async_copy %b[%row, %c0], %sb[%row, %c0], 8
          : memref<16x8xf16> to memref<16x8xf16, #gpu.address_space<workgroup>>
      %grp = nvgpu.device_async_create_group %tok0, %tok1
      nvgpu.device_async_wait %grp {numGroups = 0 : i32}
      gpu.barrier
      %fa = nvgpu.ldmatrix %sa[%row, %c0] {numTiles = 4 : i32, transpose = false}
          : memref<16x16xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
      %fb = nvgpu.ldmatrix %sb[%row, %c0] {numTiles = 2 : i32, transpose = true}
          : memref<16x8xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
      %acc = arith.constant dense<0.0> : vector<2x2xf32>
      %d = nvgpu.mma.sync (%fa, %fb, %acc) {mmaShape = [16, 8, 16]}
          : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %d0 = vector.extract %d[0] : vector<2xf32> from vector<2x2xf32>
      vector.store %d0, %c[%row, %c0] : memref<16x8xf32>, vector<2xf32>
      gpu.return
    }
  }
}
