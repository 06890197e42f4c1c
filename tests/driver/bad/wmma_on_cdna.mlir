// amdgpu.wmma is RDNA3/4's matrix unit; CDNA (gfx90a) has MFMA instead.
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @mma(%out: memref<16xf32>) kernel {
      %a = arith.constant dense<1.0> : vector<16xf16>
      %c = arith.constant dense<0.0> : vector<8xf32>
      %d = amdgpu.wmma 16x16x16 %a * %a + %c : vector<16xf16>, vector<16xf16>, vector<8xf32>
      %c0 = arith.constant 0 : index
      vector.store %d, %out[%c0] : memref<16xf32>, vector<8xf32>
      gpu.return
    }
  }
}
