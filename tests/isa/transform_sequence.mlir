// The older spelling of a schedule: a top-level transform.sequence (no
// named sequence, no module attribute). gpucc runs it as it runs
// @__transform_main: the f32 linalg.matmul in the launch body (16x8 +=
// 16x4 * 4x8, one warp) becomes nvgpu.mma.sync on tf32, m16n8k4.
// TARGETS: sm_80,sm_90
// PTX: matmul_kernel sm_80,sm_90 1 mma\.sync\.aligned\.m16n8k4\.row\.col\.f32\.tf32\.tf32\.f32
func.func @matmul(%a: memref<16x4xf32>, %b: memref<4x8xf32>, %c: memref<16x8xf32>) {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1)
             threads(%tx, %ty, %tz) in (%u = %c32, %v = %c1, %w = %c1) {
    linalg.matmul ins(%a, %b : memref<16x4xf32>, memref<4x8xf32>) outs(%c : memref<16x8xf32>)
    gpu.terminator
  }
  return
}

transform.sequence failures(propagate) {
^bb0(%root: !transform.any_op):
  %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
  transform.nvgpu.rewrite_matmul_as_mma_sync %mm : (!transform.any_op) -> ()
}
