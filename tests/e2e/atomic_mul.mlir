// memref.atomic_rmw muli and mulf, which LLVM has no atomicrmw for (they
// were refused on every target): gpucc makes them compare-and-swap loops.
// 2 blocks of 16 threads (global id g = 0 .. 31):
//   i32 x 2 by threads g < 20, starting at 1: 2^20 = 1048576
//   f32 x 1.5 by threads g < 10, starting at 1: 1.5^10 = 57.665
//   i64 x 3 by every thread in workgroup memory, then stored by thread 0 of
//   each block and summed: 2 * 3^16 = 86093442
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @mul(%i: memref<1xi32>, %f: memref<1xf32>, %l: memref<2xi64>)
        workgroup(%w: memref<1xi64, #gpu.address_space<workgroup>>) kernel {
      %g = gpu.global_id x
      %t = gpu.thread_id x
      %b = gpu.block_id x
      %c0 = arith.constant 0 : index
      %c10 = arith.constant 10 : index
      %c20 = arith.constant 20 : index
      %two = arith.constant 2 : i32
      %k = arith.constant 1.5 : f32
      %three = arith.constant 3 : i64
      %one = arith.constant 1 : i64
      %first = arith.cmpi eq, %t, %c0 : index
      scf.if %first {
        memref.store %one, %w[%c0] : memref<1xi64, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      %lt20 = arith.cmpi ult, %g, %c20 : index
      scf.if %lt20 {
        %o = memref.atomic_rmw muli %two, %i[%c0] : (i32, memref<1xi32>) -> i32
      }
      %lt10 = arith.cmpi ult, %g, %c10 : index
      scf.if %lt10 {
        %o = memref.atomic_rmw mulf %k, %f[%c0] : (f32, memref<1xf32>) -> f32
      }
      %o = memref.atomic_rmw muli %three, %w[%c0] : (i64, memref<1xi64, #gpu.address_space<workgroup>>) -> i64
      gpu.barrier
      scf.if %first {
        %v = memref.load %w[%c0] : memref<1xi64, #gpu.address_space<workgroup>>
        memref.store %v, %l[%b] : memref<2xi64>
      }
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c16 = arith.constant 16 : index
    %i1 = arith.constant 1 : i32
    %f1 = arith.constant 1.0 : f32
    %hi = memref.alloc() : memref<1xi32>
    %hf = memref.alloc() : memref<1xf32>
    %hl = memref.alloc() : memref<2xi64>
    memref.store %i1, %hi[%c0] : memref<1xi32>
    memref.store %f1, %hf[%c0] : memref<1xf32>
    %di = gpu.alloc () : memref<1xi32>
    %df = gpu.alloc () : memref<1xf32>
    %dl = gpu.alloc () : memref<2xi64>
    gpu.memcpy %di, %hi : memref<1xi32>, memref<1xi32>
    gpu.memcpy %df, %hf : memref<1xf32>, memref<1xf32>
    gpu.launch_func @k::@mul blocks in (%c2, %c1, %c1) threads in (%c16, %c1, %c1)
        args(%di : memref<1xi32>, %df : memref<1xf32>, %dl : memref<2xi64>)
    gpu.memcpy %hi, %di : memref<1xi32>, memref<1xi32>
    gpu.memcpy %hf, %df : memref<1xf32>, memref<1xf32>
    gpu.memcpy %hl, %dl : memref<2xi64>, memref<2xi64>
    %ri = memref.load %hi[%c0] : memref<1xi32>
    %rf = memref.load %hf[%c0] : memref<1xf32>
    %l0 = memref.load %hl[%c0] : memref<2xi64>
    %l1 = memref.load %hl[%c1] : memref<2xi64>
    %rl = arith.addi %l0, %l1 : i64
    vector.print %ri : i32
    vector.print %rf : f32
    vector.print %rl : i64
    return
  }
}
