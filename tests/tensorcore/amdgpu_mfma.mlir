// The amdgpu dialect's matrix op on CDNA (gfx90a, gfx942): one 32x32x1 f32
// MFMA of a lane's value with itself into a 32-element accumulator, stored.
// Compile-only: its code must hold v_mfma.
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @mfma(%a: memref<64xf32>, %out: memref<64x32xf32>) kernel {
      %t = gpu.thread_id x
      %x = memref.load %a[%t] : memref<64xf32>
      %acc = arith.constant dense<0.0> : vector<32xf32>
      %r = amdgpu.mfma 32x32x1 %x * %x + %acc { abid = 0 : i32, cbsz = 0 : i32, blocks = 2 : i32 } blgp = none : f32, f32, vector<32xf32>
      %c0 = arith.constant 0 : index
      vector.store %r, %out[%t, %c0] : memref<64x32xf32>, vector<32xf32>
      gpu.return
    }
  }
}
