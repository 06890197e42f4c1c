// math.exp and math.sqrt (GLSL.std.450 instructions) on a 2-D buffer:
// out[i][j] = sqrt(i * 4 + j) + exp(-j), 4 x 4, one thread per element.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @ops(%out: memref<4x4xf32>) kernel {
      %i = gpu.block_id x
      %j = gpu.thread_id x
      %c4 = arith.constant 4 : index
      %r = arith.muli %i, %c4 : index
      %k = arith.addi %r, %j : index
      %ki = arith.index_cast %k : index to i32
      %kf = arith.sitofp %ki : i32 to f32
      %s = math.sqrt %kf : f32
      %ji = arith.index_cast %j : index to i32
      %jf = arith.sitofp %ji : i32 to f32
      %nj = arith.negf %jf : f32
      %e = math.exp %nj : f32
      %v = arith.addf %s, %e : f32
      memref.store %v, %out[%i, %j] : memref<4x4xf32>
      gpu.return
    }
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %d = gpu.alloc () : memref<4x4xf32>
    gpu.launch_func @kernels::@ops blocks in (%c4, %c1, %c1) threads in (%c4, %c1, %c1) args(%d : memref<4x4xf32>)
    %h = memref.alloc() : memref<4x4xf32>
    gpu.memcpy %h, %d : memref<4x4xf32>, memref<4x4xf32>
    %u = memref.cast %h : memref<4x4xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
}
