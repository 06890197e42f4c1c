// The Hopper path (sm_90a): the host makes two TMA descriptors (lowered
// before outlining to calls of the runtime's tensor-map encoder); a cluster
// of 2 blocks, one warpgroup each, loads two 64x64 f16 tiles (128-byte
// swizzle, which wgmma needs) into workgroup memory with TMA
// (cp.async.bulk.tensor), completing on an mbarrier (init,
// arrive.expect_tx, try_wait.parity), then wgmma m64n64k16 (four k-steps)
// accumulates in f32 and the accumulator is stored. The block's rank in
// its cluster picks the rows it writes.
// TARGETS: sm_90a
// PTX: gemm_tile_kernel sm_90a 1 mbarrier\.init\.shared\.b64
// PTX: gemm_tile_kernel sm_90a 1 mbarrier\.arrive\.expect_tx\.shared\.b64
// PTX: gemm_tile_kernel sm_90a 1 mbarrier\.try_wait\.parity\.shared\.b64
// PTX: gemm_tile_kernel sm_90a 2 cp\.async\.bulk\.tensor\.2d\.shared::cluster\.global
// PTX: gemm_tile_kernel sm_90a 1 prefetch\.tensormap
// PTX: gemm_tile_kernel sm_90a 1 wgmma\.fence\.sync\.aligned
// PTX: gemm_tile_kernel sm_90a 4 wgmma\.mma_async\.sync\.aligned\.m64n64k16\.f32\.f16\.f16
// PTX: gemm_tile_kernel sm_90a 1 wgmma\.commit_group\.sync\.aligned
// PTX: gemm_tile_kernel sm_90a 1 wgmma\.wait_group\.sync\.aligned
// PTX: gemm_tile_kernel sm_90a some %cluster_ctaid\.x
!tileA = memref<64x64xf16, #gpu.address_space<workgroup>>
!tileB = memref<64x64xf16, #gpu.address_space<workgroup>>
!mapA = !nvgpu.tensormap.descriptor<tensor = !tileA, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
!mapB = !nvgpu.tensormap.descriptor<tensor = !tileB, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
!acc = !nvgpu.warpgroup.accumulator<fragmented = vector<64x64xf32>>
module attributes {gpu.container_module} {
  func.func @gemm_tile(%a: memref<64x64xf16>, %b: memref<64x64xf16>, %d: memref<2x64x64xf32>) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %ua = memref.cast %a : memref<64x64xf16> to memref<*xf16>
    %ub = memref.cast %b : memref<64x64xf16> to memref<*xf16>
    %ma = nvgpu.tma.create.descriptor %ua box[%c64, %c64] : memref<*xf16> -> !mapA
    %mb = nvgpu.tma.create.descriptor %ub box[%c64, %c64] : memref<*xf16> -> !mapB
    %shmem = arith.constant 16384 : i32
    gpu.launch clusters(%cx, %cy, %cz) in (%ncx = %c2, %ncy = %c1, %ncz = %c1)
               blocks(%bx, %by, %bz) in (%nbx = %c2, %nby = %c1, %nbz = %c1)
               threads(%tx, %ty, %tz) in (%ntx = %c128, %nty = %c1, %ntz = %c1)
               dynamic_shared_memory_size %shmem {
      %c0 = arith.constant 0 : index
      %one = arith.constant 1 : index
      %bytes = arith.constant 16384 : index
      %phase = arith.constant false
      %ticks = arith.constant 10000000 : index
      %mem = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %off = arith.constant 8192 : index
      %sa = memref.view %mem[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to !tileA
      %sb = memref.view %mem[%off][] : memref<?xi8, #gpu.address_space<workgroup>> to !tileB
      %bar = nvgpu.mbarrier.create -> !bars
      %first = arith.cmpi eq, %tx, %c0 : index
      scf.if %first {
        nvgpu.mbarrier.init %bar[%c0], %one : !bars
        nvgpu.tma.prefetch.descriptor %ma : !mapA
      }
      gpu.barrier
      scf.if %first {
        nvgpu.mbarrier.arrive.expect_tx %bar[%c0], %bytes : !bars
        nvgpu.tma.async.load %ma[%c0, %c0], %bar[%c0] to %sa : !mapA, !bars -> !tileA
        nvgpu.tma.async.load %mb[%c0, %c0], %bar[%c0] to %sb : !mapB, !bars -> !tileB
      }
      nvgpu.mbarrier.try_wait.parity %bar[%c0], %phase, %ticks : !bars
      %da = nvgpu.warpgroup.generate.descriptor %sa, %ma : !tileA, !mapA -> !nvgpu.warpgroup.descriptor<tensor = !tileA>
      %db = nvgpu.warpgroup.generate.descriptor %sb, %mb : !tileB, !mapB -> !nvgpu.warpgroup.descriptor<tensor = !tileB>
      %z = nvgpu.warpgroup.mma.init.accumulator -> !acc
      %r = nvgpu.warpgroup.mma %da, %db, %z {transposeB}
          : <tensor = !tileA>, <tensor = !tileB>, !acc -> !acc
      %rank = gpu.cluster_block_id x
      %out = memref.subview %d[%rank, 0, 0] [1, 64, 64] [1, 1, 1]
          : memref<2x64x64xf32> to memref<64x64xf32, strided<[64, 1], offset: ?>>
      nvgpu.warpgroup.mma.store %r, %out : !acc to memref<64x64xf32, strided<[64, 1], offset: ?>>
      gpu.terminator
    }
    return
  }
}
