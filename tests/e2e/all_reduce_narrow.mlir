// gpu.all_reduce of i8, i16, f16 and bf16 over a block of 64 threads
// (NVVM's shuffle moves 32-bit values only: these were refused for NVIDIA
// and the host; gpucc reduces them widened and narrows the result):
//   i8 add of t (mod 256, signed):   2016 = 0xe0 -> -32
//   i16 maxsi of t - 40:             23
//   i16 minui of t + 65500 (wraps past 65535 at t = 36): 0
//   f16 add of 0.5:                  32
//   bf16 minimumf of 3 - t:          -60
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%o: memref<5xf32>) kernel {
      %t = gpu.thread_id x
      %ti = arith.index_cast %t : index to i32
      %x8 = arith.trunci %ti : i32 to i8
      %c40 = arith.constant 40 : i32
      %m = arith.subi %ti, %c40 : i32
      %x16 = arith.trunci %m : i32 to i16
      %big = arith.constant 65500 : i32
      %u = arith.addi %ti, %big : i32
      %u16 = arith.trunci %u : i32 to i16
      %half = arith.constant 0.5 : f16
      %three = arith.constant 3 : i32
      %d = arith.subi %three, %ti : i32
      %xb = arith.sitofp %d : i32 to bf16
      %a = gpu.all_reduce add %x8 uniform {} : (i8) -> i8
      %b = gpu.all_reduce maxsi %x16 uniform {} : (i16) -> i16
      %c = gpu.all_reduce minui %u16 uniform {} : (i16) -> i16
      %e = gpu.all_reduce add %half uniform {} : (f16) -> f16
      %f = gpu.all_reduce minimumf %xb uniform {} : (bf16) -> bf16
      %c0 = arith.constant 0 : index
      %is0 = arith.cmpi eq, %t, %c0 : index
      scf.if %is0 {
        %c1 = arith.constant 1 : index
        %c2 = arith.constant 2 : index
        %c3 = arith.constant 3 : index
        %c4 = arith.constant 4 : index
        %af = arith.sitofp %a : i8 to f32
        %bf = arith.sitofp %b : i16 to f32
        %cf = arith.uitofp %c : i16 to f32
        %ef = arith.extf %e : f16 to f32
        %ff = arith.extf %f : bf16 to f32
        memref.store %af, %o[%c0] : memref<5xf32>
        memref.store %bf, %o[%c1] : memref<5xf32>
        memref.store %cf, %o[%c2] : memref<5xf32>
        memref.store %ef, %o[%c3] : memref<5xf32>
        memref.store %ff, %o[%c4] : memref<5xf32>
      }
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %h = memref.alloc() : memref<5xf32>
    %d = gpu.alloc () : memref<5xf32>
    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%d : memref<5xf32>)
    gpu.memcpy %h, %d : memref<5xf32>, memref<5xf32>
    %pad = arith.constant 0.0 : f32
    %v = vector.transfer_read %h[%c0], %pad : memref<5xf32>, vector<5xf32>
    vector.print %v : vector<5xf32>
    return
  }
}
