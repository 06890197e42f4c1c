// nvgpu.mma.sync (m16n8k16) needs sm_80: refused for sm_75 up front.
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @mma(%out: memref<4x2xf32>) kernel {
      %a = arith.constant dense<1.0> : vector<4x2xf16>
      %b = arith.constant dense<1.0> : vector<2x2xf16>
      %c = arith.constant dense<0.0> : vector<2x2xf32>
      %d = nvgpu.mma.sync (%a, %b, %c) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %c0 = arith.constant 0 : index
      vector.store %d, %out[%c0, %c0] : memref<4x2xf32>, vector<2x2xf32>
      gpu.return
    }
  }
}
