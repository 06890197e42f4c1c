// wgmma exists on sm_90a alone: refused before any device job, once for
// both targets that lack it.
!descA = !nvgpu.warpgroup.descriptor<tensor = memref<128x64xf16, 3>>
!descB = !nvgpu.warpgroup.descriptor<tensor = memref<64x128xf16, 3>>
!acc = !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @mma(%a: !descA, %b: !descB, %out: memref<128x128xf32>) kernel {
      %acc = nvgpu.warpgroup.mma.init.accumulator -> !acc
      %d = nvgpu.warpgroup.mma %a, %b, %acc {transposeB} : !descA, !descB, !acc -> !acc
      nvgpu.warpgroup.mma.store %d, %out : !acc to memref<128x128xf32>
      %e = nvgpu.warpgroup.mma %a, %b, %d : !descA, !descB, !acc -> !acc
      gpu.return
    }
  }
}
