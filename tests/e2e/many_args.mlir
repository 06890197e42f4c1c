// A kernel with 16 arguments of mixed kinds, as a frontend passes sizes,
// flags and scalars next to its buffers: i1, i8 (signed and unsigned use),
// i16, i32, i64, f16, f32, f64, index, and static, dynamic and f16 memrefs.
// One thread writes every scalar back, widened, plus sums over the memrefs:
//   ints:   -3  1000  -70000  5000000000  7  1  200  (10+20+30 = 60)
//   floats: 1.5  0.25  123.25  (1+2+3+4 = 10)  (0.5+1+2+4 = 7.5)
//           -3 * 1.5 = -4.5   123.25 * 0.25 = 30.8125   dim(m2) = 3
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @sixteen(%a8: i8, %oi: memref<8xi64>, %a16: i16, %a32: i32,
                      %m1: memref<4xf32>, %a64: i64, %h: f16, %f: f32,
                      %of: memref<8xf64>, %d: f64, %idx: index, %m2: memref<?xi32>,
                      %b: i1, %u8: i8, %m3: memref<2x2xf16>, %n: index) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %c5 = arith.constant 5 : index
      %c6 = arith.constant 6 : index
      %c7 = arith.constant 7 : index
      %e0 = arith.extsi %a8 : i8 to i64
      %e1 = arith.extsi %a16 : i16 to i64
      %e2 = arith.extsi %a32 : i32 to i64
      %e4 = arith.index_cast %idx : index to i64
      %e5 = arith.extui %b : i1 to i64
      %e6 = arith.extui %u8 : i8 to i64
      %zi = arith.constant 0 : i32
      %s2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zi) -> i32 {
        %v = memref.load %m2[%i] : memref<?xi32>
        %a = arith.addi %acc, %v : i32
        scf.yield %a : i32
      }
      %e7 = arith.extsi %s2 : i32 to i64
      memref.store %e0, %oi[%c0] : memref<8xi64>
      memref.store %e1, %oi[%c1] : memref<8xi64>
      memref.store %e2, %oi[%c2] : memref<8xi64>
      memref.store %a64, %oi[%c3] : memref<8xi64>
      memref.store %e4, %oi[%c4] : memref<8xi64>
      memref.store %e5, %oi[%c5] : memref<8xi64>
      memref.store %e6, %oi[%c6] : memref<8xi64>
      memref.store %e7, %oi[%c7] : memref<8xi64>
      %g0 = arith.extf %h : f16 to f64
      %g1 = arith.extf %f : f32 to f64
      %zf = arith.constant 0.0 : f32
      %s1 = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %zf) -> f32 {
        %v = memref.load %m1[%i] : memref<4xf32>
        %a = arith.addf %acc, %v : f32
        scf.yield %a : f32
      }
      %g3 = arith.extf %s1 : f32 to f64
      %zh = arith.constant 0.0 : f16
      %s3 = scf.for %i = %c0 to %c2 step %c1 iter_args(%acc = %zh) -> f16 {
        %r = scf.for %j = %c0 to %c2 step %c1 iter_args(%acc2 = %acc) -> f16 {
          %v = memref.load %m3[%i, %j] : memref<2x2xf16>
          %a = arith.addf %acc2, %v : f16
          scf.yield %a : f16
        }
        scf.yield %r : f16
      }
      %g4 = arith.extf %s3 : f16 to f64
      %a8f = arith.sitofp %a8 : i8 to f64
      %g5 = arith.mulf %a8f, %g0 : f64
      %g6 = arith.mulf %d, %g1 : f64
      %dim = memref.dim %m2, %c0 : memref<?xi32>
      %dimi = arith.index_cast %dim : index to i64
      %g7 = arith.sitofp %dimi : i64 to f64
      memref.store %g0, %of[%c0] : memref<8xf64>
      memref.store %g1, %of[%c1] : memref<8xf64>
      memref.store %d, %of[%c2] : memref<8xf64>
      memref.store %g3, %of[%c3] : memref<8xf64>
      memref.store %g4, %of[%c4] : memref<8xf64>
      memref.store %g5, %of[%c5] : memref<8xf64>
      memref.store %g6, %of[%c6] : memref<8xf64>
      memref.store %g7, %of[%c7] : memref<8xf64>
      gpu.return
    }
  }
  func.func private @printMemrefI64(memref<*xi64>)
  func.func private @printMemrefF64(memref<*xf64>)
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c7 = arith.constant 7 : index
    %a8 = arith.constant -3 : i8
    %a16 = arith.constant 1000 : i16
    %a32 = arith.constant -70000 : i32
    %a64 = arith.constant 5000000000 : i64
    %h = arith.constant 1.5 : f16
    %f = arith.constant 0.25 : f32
    %d = arith.constant 123.25 : f64
    %b = arith.constant true
    %u8 = arith.constant 200 : i8
    // m1 = [1, 2, 3, 4]
    %hm1 = memref.alloc() : memref<4xf32>
    scf.for %i = %c0 to %c4 step %c1 {
      %ip = arith.addi %i, %c1 : index
      %ii = arith.index_cast %ip : index to i32
      %v = arith.sitofp %ii : i32 to f32
      memref.store %v, %hm1[%i] : memref<4xf32>
    }
    // m2 = [10, 20, 30], dynamic size
    %hm2 = memref.alloc(%c3) : memref<?xi32>
    scf.for %i = %c0 to %c3 step %c1 {
      %ip = arith.addi %i, %c1 : index
      %ii = arith.index_cast %ip : index to i32
      %ten = arith.constant 10 : i32
      %v = arith.muli %ii, %ten : i32
      memref.store %v, %hm2[%i] : memref<?xi32>
    }
    // m3 = [[0.5, 1], [2, 4]]
    %hm3 = memref.alloc() : memref<2x2xf16>
    %q0 = arith.constant 0.5 : f16
    %q1 = arith.constant 1.0 : f16
    %q2 = arith.constant 2.0 : f16
    %q3 = arith.constant 4.0 : f16
    memref.store %q0, %hm3[%c0, %c0] : memref<2x2xf16>
    memref.store %q1, %hm3[%c0, %c1] : memref<2x2xf16>
    memref.store %q2, %hm3[%c1, %c0] : memref<2x2xf16>
    memref.store %q3, %hm3[%c1, %c1] : memref<2x2xf16>
    %m1 = gpu.alloc () : memref<4xf32>
    %m2 = gpu.alloc (%c3) : memref<?xi32>
    %m3 = gpu.alloc () : memref<2x2xf16>
    %oi = gpu.alloc () : memref<8xi64>
    %of = gpu.alloc () : memref<8xf64>
    gpu.memcpy %m1, %hm1 : memref<4xf32>, memref<4xf32>
    gpu.memcpy %m2, %hm2 : memref<?xi32>, memref<?xi32>
    gpu.memcpy %m3, %hm3 : memref<2x2xf16>, memref<2x2xf16>
    gpu.launch_func @kernels::@sixteen blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%a8 : i8, %oi : memref<8xi64>, %a16 : i16, %a32 : i32,
             %m1 : memref<4xf32>, %a64 : i64, %h : f16, %f : f32,
             %of : memref<8xf64>, %d : f64, %c7 : index, %m2 : memref<?xi32>,
             %b : i1, %u8 : i8, %m3 : memref<2x2xf16>, %c3 : index)
    %hoi = memref.alloc() : memref<8xi64>
    %hof = memref.alloc() : memref<8xf64>
    gpu.memcpy %hoi, %oi : memref<8xi64>, memref<8xi64>
    gpu.memcpy %hof, %of : memref<8xf64>, memref<8xf64>
    %ui = memref.cast %hoi : memref<8xi64> to memref<*xi64>
    %uf = memref.cast %hof : memref<8xf64> to memref<*xf64>
    call @printMemrefI64(%ui) : (memref<*xi64>) -> ()
    call @printMemrefF64(%uf) : (memref<*xf64>) -> ()
    gpu.dealloc %m1 : memref<4xf32>
    gpu.dealloc %m2 : memref<?xi32>
    gpu.dealloc %m3 : memref<2x2xf16>
    gpu.dealloc %oi : memref<8xi64>
    gpu.dealloc %of : memref<8xf64>
    return
  }
}
