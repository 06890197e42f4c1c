// gpu.subgroup_reduce over every kind of element: i8, i16, i32, i64, f16,
// f32, f64, with add, mul, and/or/xor, signed and unsigned min/max, the four
// float min/max kinds, and clusters (cluster_size, cluster_stride). One
// block of 64 threads: two 32-lane subgroups on NVIDIA and the host. Thread
// t converts each result to f64 in row t; the host prints rows 0, 5, 31, 32,
// 63 (64-bit integers split so that every bit shows). Columns (per
// subgroup, over its lanes t):
//   0  add  i64  t * 2^33 + 1 (printed: high part * 100 + low 33 bits)
//   1  add  f64  t + 0.25
//   2  add  f16  t mod 8 + 0.5          3  mul  i16  2 if t mod 3 = 0 else 1
//   4  or   i8   1 << (t mod 8)         5  xor  i32  t * 5
//   6  minui i32 (t * 7) mod 13 + 3     7  maxsi i64 (t - 40) * 2^40 (/ 2^40)
//   8  mul  f32  2 if t = 5 or t = 40, else 1
//   9  minimumf f32 (t mod 5) - 1.5    10  maxnumf f16 t mod 11
//  11  add i32 t, clusters of 4        12  add i32 t, clusters of 2, stride 16
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @reduce(%out: memref<64x13xf64>) kernel {
      %t = gpu.thread_id x
      %ti = arith.index_cast %t : index to i32
      %tl = arith.index_cast %t : index to i64
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %c5 = arith.constant 5 : index
      %c6 = arith.constant 6 : index
      %c7 = arith.constant 7 : index
      %c8 = arith.constant 8 : index
      %c9 = arith.constant 9 : index
      %c10 = arith.constant 10 : index
      %c11 = arith.constant 11 : index
      %c12 = arith.constant 12 : index
      %tf = arith.sitofp %tl : i64 to f64
      // 0: add i64
      %s33 = arith.constant 8589934592 : i64
      %one64 = arith.constant 1 : i64
      %x0a = arith.muli %tl, %s33 : i64
      %x0 = arith.addi %x0a, %one64 : i64
      %r0 = gpu.subgroup_reduce add %x0 uniform : (i64) -> i64
      %k33 = arith.constant 33 : i64
      %hi0 = arith.shrsi %r0, %k33 : i64
      %mask33 = arith.constant 8589934591 : i64
      %lo0 = arith.andi %r0, %mask33 : i64
      %k100 = arith.constant 100 : i64
      %hi0k = arith.muli %hi0, %k100 : i64
      %p0 = arith.addi %hi0k, %lo0 : i64
      %f0 = arith.sitofp %p0 : i64 to f64
      memref.store %f0, %out[%t, %c0] : memref<64x13xf64>
      // 1: add f64
      %q = arith.constant 0.25 : f64
      %x1 = arith.addf %tf, %q : f64
      %r1 = gpu.subgroup_reduce add %x1 uniform : (f64) -> f64
      memref.store %r1, %out[%t, %c1] : memref<64x13xf64>
      // 2: add f16
      %i8c = arith.constant 8 : i32
      %m8 = arith.remui %ti, %i8c : i32
      %m8h = arith.uitofp %m8 : i32 to f16
      %halfh = arith.constant 0.5 : f16
      %x2 = arith.addf %m8h, %halfh : f16
      %r2 = gpu.subgroup_reduce add %x2 uniform : (f16) -> f16
      %f2 = arith.extf %r2 : f16 to f64
      memref.store %f2, %out[%t, %c2] : memref<64x13xf64>
      // 3: mul i16
      %i3 = arith.constant 3 : i32
      %m3 = arith.remui %ti, %i3 : i32
      %z32 = arith.constant 0 : i32
      %is0 = arith.cmpi eq, %m3, %z32 : i32
      %two16 = arith.constant 2 : i16
      %one16 = arith.constant 1 : i16
      %x3 = arith.select %is0, %two16, %one16 : i16
      %r3 = gpu.subgroup_reduce mul %x3 uniform : (i16) -> i16
      %f3 = arith.sitofp %r3 : i16 to f64
      memref.store %f3, %out[%t, %c3] : memref<64x13xf64>
      // 4: or i8
      %m8i8 = arith.trunci %m8 : i32 to i8
      %one8 = arith.constant 1 : i8
      %x4 = arith.shli %one8, %m8i8 : i8
      %r4 = gpu.subgroup_reduce or %x4 uniform : (i8) -> i8
      %r4u = arith.extui %r4 : i8 to i32
      %f4 = arith.uitofp %r4u : i32 to f64
      memref.store %f4, %out[%t, %c4] : memref<64x13xf64>
      // 5: xor i32
      %i5 = arith.constant 5 : i32
      %x5 = arith.muli %ti, %i5 : i32
      %r5 = gpu.subgroup_reduce xor %x5 uniform : (i32) -> i32
      %f5 = arith.sitofp %r5 : i32 to f64
      memref.store %f5, %out[%t, %c5] : memref<64x13xf64>
      // 6: minui i32
      %i7 = arith.constant 7 : i32
      %i13 = arith.constant 13 : i32
      %t7 = arith.muli %ti, %i7 : i32
      %t7m = arith.remui %t7, %i13 : i32
      %x6 = arith.addi %t7m, %i3 : i32
      %r6 = gpu.subgroup_reduce minui %x6 uniform : (i32) -> i32
      %f6 = arith.uitofp %r6 : i32 to f64
      memref.store %f6, %out[%t, %c6] : memref<64x13xf64>
      // 7: maxsi i64
      %i40 = arith.constant 40 : i64
      %s40 = arith.constant 1099511627776 : i64
      %d40 = arith.subi %tl, %i40 : i64
      %x7 = arith.muli %d40, %s40 : i64
      %r7 = gpu.subgroup_reduce maxsi %x7 uniform : (i64) -> i64
      %k40 = arith.constant 40 : i64
      %r7s = arith.shrsi %r7, %k40 : i64
      %f7 = arith.sitofp %r7s : i64 to f64
      memref.store %f7, %out[%t, %c7] : memref<64x13xf64>
      // 8: mul f32
      %k5 = arith.constant 5 : i32
      %k40i = arith.constant 40 : i32
      %e5 = arith.cmpi eq, %ti, %k5 : i32
      %e40 = arith.cmpi eq, %ti, %k40i : i32
      %e = arith.ori %e5, %e40 : i1
      %two32 = arith.constant 2.0 : f32
      %one32 = arith.constant 1.0 : f32
      %x8 = arith.select %e, %two32, %one32 : f32
      %r8 = gpu.subgroup_reduce mul %x8 uniform : (f32) -> f32
      %f8 = arith.extf %r8 : f32 to f64
      memref.store %f8, %out[%t, %c8] : memref<64x13xf64>
      // 9: minimumf f32
      %m5 = arith.remui %ti, %k5 : i32
      %m5f = arith.uitofp %m5 : i32 to f32
      %onehalf = arith.constant 1.5 : f32
      %x9 = arith.subf %m5f, %onehalf : f32
      %r9 = gpu.subgroup_reduce minimumf %x9 uniform : (f32) -> f32
      %f9 = arith.extf %r9 : f32 to f64
      memref.store %f9, %out[%t, %c9] : memref<64x13xf64>
      // 10: maxnumf f16
      %k11 = arith.constant 11 : i32
      %m11 = arith.remui %ti, %k11 : i32
      %x10 = arith.uitofp %m11 : i32 to f16
      %r10 = gpu.subgroup_reduce maxnumf %x10 uniform : (f16) -> f16
      %f10 = arith.extf %r10 : f16 to f64
      memref.store %f10, %out[%t, %c10] : memref<64x13xf64>
      // 11: add i32 in clusters of 4
      %r11 = gpu.subgroup_reduce add %ti uniform cluster(size = 4) : (i32) -> i32
      %f11 = arith.sitofp %r11 : i32 to f64
      memref.store %f11, %out[%t, %c11] : memref<64x13xf64>
      // 12: add i32 in clusters of 2 lanes 16 apart
      %r12 = gpu.subgroup_reduce add %ti uniform cluster(size = 2, stride = 16) : (i32) -> i32
      %f12 = arith.sitofp %r12 : i32 to f64
      memref.store %f12, %out[%t, %c12] : memref<64x13xf64>
      gpu.return
    }
  }
  memref.global "private" constant @rows : memref<5xindex> = dense<[0, 5, 31, 32, 63]>
  func.func private @printMemrefF64(memref<*xf64>)
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c5 = arith.constant 5 : index
    %c13 = arith.constant 13 : index
    %c64 = arith.constant 64 : index
    %dev = gpu.alloc () : memref<64x13xf64>
    gpu.launch_func @kernels::@reduce blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%dev : memref<64x13xf64>)
    %all = memref.alloc () : memref<64x13xf64>
    gpu.memcpy %all, %dev : memref<64x13xf64>, memref<64x13xf64>
    %rows = memref.get_global @rows : memref<5xindex>
    %sel = memref.alloc () : memref<5x13xf64>
    scf.for %i = %c0 to %c5 step %c1 {
      %r = memref.load %rows[%i] : memref<5xindex>
      scf.for %j = %c0 to %c13 step %c1 {
        %v = memref.load %all[%r, %j] : memref<64x13xf64>
        memref.store %v, %sel[%i, %j] : memref<5x13xf64>
      }
    }
    %u = memref.cast %sel : memref<5x13xf64> to memref<*xf64>
    call @printMemrefF64(%u) : (memref<*xf64>) -> ()
    gpu.dealloc %dev : memref<64x13xf64>
    return
  }
}
