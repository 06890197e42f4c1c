// The amdgpu dialect's WMMA op written directly for RDNA3 (gfx1100): a
// lane's 16 f16 A and B elements and 8 f32 accumulators, loaded from its
// own row of the inputs. Compile-only: its code must hold v_wmma.
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @wmma(%a: memref<32x16xf16>, %c: memref<32x8xf32>) kernel {
      %t = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %va = vector.load %a[%t, %c0] : memref<32x16xf16>, vector<16xf16>
      %vc = vector.load %c[%t, %c0] : memref<32x8xf32>, vector<8xf32>
      %d = amdgpu.wmma 16x16x16 %va * %va + %vc : vector<16xf16>, vector<16xf16>, vector<8xf32>
      vector.store %d, %c[%t, %c0] : memref<32x8xf32>, vector<8xf32>
      gpu.return
    }
  }
}
