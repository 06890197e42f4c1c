// A transform schedule makes the tensor-core code: the linalg.matmul in the
// launch body (one warp, 16x8 f16 += 16x16 * 16x8) is rewritten as
// nvgpu.mma.sync by transform.nvgpu.rewrite_matmul_as_mma_sync before
// outlining, so the kernel carries one mma.sync m16n8k16.
// TARGETS: sm_80,sm_90
// PTX: matmul_kernel sm_80,sm_90 1 mma\.sync\.aligned\.m16n8k16\.row\.col\.f16\.f16\.f16\.f16
module attributes {transform.with_named_sequence} {
  func.func @matmul(%a: memref<16x16xf16>, %b: memref<16x8xf16>, %c: memref<16x8xf16>) {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1)
               threads(%tx, %ty, %tz) in (%u = %c32, %v = %c1, %w = %c1) {
      linalg.matmul ins(%a, %b : memref<16x16xf16>, memref<16x8xf16>) outs(%c : memref<16x8xf16>)
      gpu.terminator
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.nvgpu.rewrite_matmul_as_mma_sync %mm : (!transform.any_op) -> ()
    transform.yield
  }
}
