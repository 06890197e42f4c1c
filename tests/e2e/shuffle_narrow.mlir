// gpu.shuffle of types NVVM's shuffle does not move (i8, f16, bf16,
// vector<2xf16>, vector<3xf32>): refused for NVIDIA and the host ("operand
// #1 must be 32-bit signless integer or 32-bit float"); gpucc widens narrow
// scalars to i32 and shuffles vectors element by element. Per lane t of 32,
// row t: [i8 xor 1, f16 xor 1, bf16 down 1, vector<2xf16> xor 1 (both
// elements), vector<3xf32> idx 1, valid of down 1] = [t^1, t^1, t+1 (31 on
// lane 31), t^1, t^1, 1, 1 (0 on lane 31)].
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%o: memref<32x7xf32>) kernel {
      %t = gpu.thread_id x
      %ti = arith.index_cast %t : index to i32
      %one = arith.constant 1 : i32
      %w = arith.constant 32 : i32
      %x8 = arith.trunci %ti : i32 to i8
      %xf = arith.sitofp %ti : i32 to f16
      %xb = arith.sitofp %ti : i32 to bf16
      %v2 = vector.broadcast %xf : f16 to vector<2xf16>
      %xs = arith.sitofp %ti : i32 to f32
      %v3 = vector.broadcast %xs : f32 to vector<3xf32>
      %r8, %k8 = gpu.shuffle xor %x8, %one, %w : i8
      %rf, %kf = gpu.shuffle xor %xf, %one, %w : f16
      %rb, %kb = gpu.shuffle down %xb, %one, %w : bf16
      %rv, %kv = gpu.shuffle xor %v2, %one, %w : vector<2xf16>
      %rw, %kw = gpu.shuffle idx %v3, %one, %w : vector<3xf32>
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %c5 = arith.constant 5 : index
      %c6 = arith.constant 6 : index
      %a = arith.uitofp %r8 : i8 to f32
      %b = arith.extf %rf : f16 to f32
      %c = arith.extf %rb : bf16 to f32
      %e0 = vector.extract %rv[0] : f16 from vector<2xf16>
      %e1 = vector.extract %rv[1] : f16 from vector<2xf16>
      %d0 = arith.extf %e0 : f16 to f32
      %d1 = arith.extf %e1 : f16 to f32
      %w2 = vector.extract %rw[2] : f32 from vector<3xf32>
      %k = arith.uitofp %kb : i1 to f32
      memref.store %a, %o[%t, %c0] : memref<32x7xf32>
      memref.store %b, %o[%t, %c1] : memref<32x7xf32>
      memref.store %c, %o[%t, %c2] : memref<32x7xf32>
      memref.store %d0, %o[%t, %c3] : memref<32x7xf32>
      memref.store %d1, %o[%t, %c4] : memref<32x7xf32>
      memref.store %w2, %o[%t, %c5] : memref<32x7xf32>
      memref.store %k, %o[%t, %c6] : memref<32x7xf32>
      gpu.return
    }
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %h = memref.alloc() : memref<32x7xf32>
    %d = gpu.alloc () : memref<32x7xf32>
    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%d : memref<32x7xf32>)
    gpu.memcpy %h, %d : memref<32x7xf32>, memref<32x7xf32>
    %u = memref.cast %h : memref<32x7xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
}
