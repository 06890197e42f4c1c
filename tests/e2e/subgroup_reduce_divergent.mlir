// gpu.subgroup_reduce that only some lanes of the subgroup reach: the
// result is the reduction over the lanes that reach it (per cluster when
// there is one), in the lanes that reach it. One block of 64 threads: two
// 32-lane subgroups on the host (and NVIDIA). Thread t writes row t; a lane
// that skips a reduction writes -1 in its column. @body does the divergent
// ones (in a device function nothing is marked uniform); the kernels then
// do one uniform reduction, which must wait for the lanes still reducing.
// @rounds runs as rounds on the host; @fibers calls a recursive function
// that waits at a barrier, so the host runs its threads on fibers. Both
// print the same table. Columns (condition: x, kind, type):
//   0  t%3 == 0: t, add i32          1  t%4 != 1: t + 0.5, add f32
//   2  t%5 >= 2: (7t mod 11 - 5) * 2^40, maxsi i64 (printed / 2^40)
//   3  t%8 < 3: 2 if t%3 == 0 else 1, mul f16
//   4  t odd: 1 << (t%8), or i8 (unsigned)
//   5  t < 20 or t >= 40: 37t, xor i16 (signed)
//   6  t%3 != 2: 1.25t, add f64, clusters of 8
//   7  t even: t, add i32, clusters of 4 with stride 8
//   8  t%7 < 4: t%9 - 4.5, minimumf f32
//   9  t%6 != 0: t%13, maxnumf bf16
//  10  t even: t%3 == 0, xor i1
//  11  t >= 10: 13t mod 29 + 100, minui i32 (redux.sync on sm_80+)
//  12  t%4 == 0: 3t, maxsi i32; else: 100 - t, minsi i32
//  13  t%16 < 12: (t%16 < 5: t, add i32; else 2t, add i32), then add i32
//      of that over all of them (they meet again)
//  14  sum over i < t%4 of (add i32 of t + i over the lanes still looping)
//  15  t%5 != 0: t * 0.5 - 7, maximumf f64, clusters of 16 with stride 2
//  16  uniform: t, add i32 (in the kernel, after @body)
//  17  t (fibers: read back from a private array)
module attributes {gpu.container_module} {
  gpu.module @kernels {
    func.func @body(%out: memref<64x18xf64>, %t: index) {
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
      %c13 = arith.constant 13 : index
      %c14 = arith.constant 14 : index
      %c15 = arith.constant 15 : index
      %c16 = arith.constant 16 : index
      %c20 = arith.constant 20 : index
      %c40 = arith.constant 40 : index
      %none = arith.constant -1.0 : f64
      %ti = arith.index_cast %t : index to i32
      %tl = arith.index_cast %t : index to i64
      %tf = arith.uitofp %ti : i32 to f64
      // 0
      %m3 = arith.remui %t, %c3 : index
      %k0 = arith.cmpi eq, %m3, %c0 : index
      %r0 = scf.if %k0 -> f64 {
        %s = gpu.subgroup_reduce add %ti : (i32) -> i32
        %f = arith.sitofp %s : i32 to f64
        scf.yield %f : f64
      } else {
        scf.yield %none : f64
      }
      memref.store %r0, %out[%t, %c0] : memref<64x18xf64>
      // 1
      %m4 = arith.remui %t, %c4 : index
      %k1 = arith.cmpi ne, %m4, %c1 : index
      %r1 = scf.if %k1 -> f64 {
        %h = arith.constant 0.5 : f32
        %a = arith.uitofp %ti : i32 to f32
        %x = arith.addf %a, %h : f32
        %s = gpu.subgroup_reduce add %x : (f32) -> f32
        %f = arith.extf %s : f32 to f64
        scf.yield %f : f64
      } else {
        scf.yield %none : f64
      }
      memref.store %r1, %out[%t, %c1] : memref<64x18xf64>
      // 2
      %m5 = arith.remui %t, %c5 : index
      %k2 = arith.cmpi uge, %m5, %c2 : index
      %r2 = scf.if %k2 -> f64 {
        %i7 = arith.constant 7 : i64
        %i11 = arith.constant 11 : i64
        %i5 = arith.constant 5 : i64
        %sh = arith.constant 40 : i64
        %a = arith.muli %tl, %i7 : i64
        %b = arith.remui %a, %i11 : i64
        %c = arith.subi %b, %i5 : i64
        %x = arith.shli %c, %sh : i64
        %s = gpu.subgroup_reduce maxsi %x : (i64) -> i64
        %d = arith.shrsi %s, %sh : i64
        %f = arith.sitofp %d : i64 to f64
        scf.yield %f : f64
      } else {
        scf.yield %none : f64
      }
      memref.store %r2, %out[%t, %c2] : memref<64x18xf64>
      // 3
      %m8 = arith.remui %t, %c8 : index
      %k3 = arith.cmpi ult, %m8, %c3 : index
      %r3 = scf.if %k3 -> f64 {
        %two = arith.constant 2.0 : f16
        %one = arith.constant 1.0 : f16
        %x = arith.select %k0, %two, %one : f16
        %s = gpu.subgroup_reduce mul %x : (f16) -> f16
        %f = arith.extf %s : f16 to f64
        scf.yield %f : f64
      } else {
        scf.yield %none : f64
      }
      memref.store %r3, %out[%t, %c3] : memref<64x18xf64>
      // 4
      %m2 = arith.remui %t, %c2 : index
      %odd = arith.cmpi eq, %m2, %c1 : index
      %r4 = scf.if %odd -> f64 {
        %one = arith.constant 1 : i8
        %sh = arith.index_cast %m8 : index to i8
        %x = arith.shli %one, %sh : i8
        %s = gpu.subgroup_reduce or %x : (i8) -> i8
        %w = arith.extui %s : i8 to i32
        %f = arith.uitofp %w : i32 to f64
        scf.yield %f : f64
      } else {
        scf.yield %none : f64
      }
      memref.store %r4, %out[%t, %c4] : memref<64x18xf64>
      // 5
      %lo = arith.cmpi ult, %t, %c20 : index
      %hi = arith.cmpi uge, %t, %c40 : index
      %k5 = arith.ori %lo, %hi : i1
      %r5 = scf.if %k5 -> f64 {
        %i37 = arith.constant 37 : i32
        %a = arith.muli %ti, %i37 : i32
        %x = arith.trunci %a : i32 to i16
        %s = gpu.subgroup_reduce xor %x : (i16) -> i16
        %f = arith.sitofp %s : i16 to f64
        scf.yield %f : f64
      } else {
        scf.yield %none : f64
      }
      memref.store %r5, %out[%t, %c5] : memref<64x18xf64>
      // 6
      %k6 = arith.cmpi ne, %m3, %c2 : index
      %r6 = scf.if %k6 -> f64 {
        %q = arith.constant 1.25 : f64
        %x = arith.mulf %tf, %q : f64
        %s = gpu.subgroup_reduce add %x cluster(size = 8) : (f64) -> f64
        scf.yield %s : f64
      } else {
        scf.yield %none : f64
      }
      memref.store %r6, %out[%t, %c6] : memref<64x18xf64>
      // 7
      %even = arith.cmpi eq, %m2, %c0 : index
      %r7 = scf.if %even -> f64 {
        %s = gpu.subgroup_reduce add %ti cluster(size = 4, stride = 8) : (i32) -> i32
        %f = arith.sitofp %s : i32 to f64
        scf.yield %f : f64
      } else {
        scf.yield %none : f64
      }
      memref.store %r7, %out[%t, %c7] : memref<64x18xf64>
      // 8
      %m7 = arith.remui %t, %c7 : index
      %k8 = arith.cmpi ult, %m7, %c4 : index
      %r8 = scf.if %k8 -> f64 {
        %m9 = arith.remui %t, %c9 : index
        %a9 = arith.index_cast %m9 : index to i32
        %a = arith.uitofp %a9 : i32 to f32
        %d = arith.constant 4.5 : f32
        %x = arith.subf %a, %d : f32
        %s = gpu.subgroup_reduce minimumf %x : (f32) -> f32
        %f = arith.extf %s : f32 to f64
        scf.yield %f : f64
      } else {
        scf.yield %none : f64
      }
      memref.store %r8, %out[%t, %c8] : memref<64x18xf64>
      // 9
      %m6 = arith.remui %t, %c6 : index
      %k9 = arith.cmpi ne, %m6, %c0 : index
      %r9 = scf.if %k9 -> f64 {
        %m13 = arith.remui %t, %c13 : index
        %a13 = arith.index_cast %m13 : index to i32
        %x = arith.uitofp %a13 : i32 to bf16
        %s = gpu.subgroup_reduce maxnumf %x : (bf16) -> bf16
        %f = arith.extf %s : bf16 to f64
        scf.yield %f : f64
      } else {
        scf.yield %none : f64
      }
      memref.store %r9, %out[%t, %c9] : memref<64x18xf64>
      // 10
      %r10 = scf.if %even -> f64 {
        %s = gpu.subgroup_reduce xor %k0 : (i1) -> i1
        %w = arith.extui %s : i1 to i32
        %f = arith.uitofp %w : i32 to f64
        scf.yield %f : f64
      } else {
        scf.yield %none : f64
      }
      memref.store %r10, %out[%t, %c10] : memref<64x18xf64>
      // 11
      %k11 = arith.cmpi uge, %t, %c10 : index
      %r11 = scf.if %k11 -> f64 {
        %i13 = arith.constant 13 : i32
        %i29 = arith.constant 29 : i32
        %i100 = arith.constant 100 : i32
        %a = arith.muli %ti, %i13 : i32
        %b = arith.remui %a, %i29 : i32
        %x = arith.addi %b, %i100 : i32
        %s = gpu.subgroup_reduce minui %x : (i32) -> i32
        %f = arith.uitofp %s : i32 to f64
        scf.yield %f : f64
      } else {
        scf.yield %none : f64
      }
      memref.store %r11, %out[%t, %c11] : memref<64x18xf64>
      // 12
      %k12 = arith.cmpi eq, %m4, %c0 : index
      %r12 = scf.if %k12 -> f64 {
        %i3 = arith.constant 3 : i32
        %x = arith.muli %ti, %i3 : i32
        %s = gpu.subgroup_reduce maxsi %x : (i32) -> i32
        %f = arith.sitofp %s : i32 to f64
        scf.yield %f : f64
      } else {
        %i100 = arith.constant 100 : i32
        %x = arith.subi %i100, %ti : i32
        %s = gpu.subgroup_reduce minsi %x : (i32) -> i32
        %f = arith.sitofp %s : i32 to f64
        scf.yield %f : f64
      }
      memref.store %r12, %out[%t, %c12] : memref<64x18xf64>
      // 13
      %m16 = arith.remui %t, %c16 : index
      %k13 = arith.cmpi ult, %m16, %c12 : index
      %r13 = scf.if %k13 -> f64 {
        %inner5 = arith.cmpi ult, %m16, %c5 : index
        %in = scf.if %inner5 -> i32 {
          %s = gpu.subgroup_reduce add %ti : (i32) -> i32
          scf.yield %s : i32
        } else {
          %x = arith.addi %ti, %ti : i32
          %s = gpu.subgroup_reduce add %x : (i32) -> i32
          scf.yield %s : i32
        }
        %s = gpu.subgroup_reduce add %in : (i32) -> i32
        %f = arith.sitofp %s : i32 to f64
        scf.yield %f : f64
      } else {
        scf.yield %none : f64
      }
      memref.store %r13, %out[%t, %c13] : memref<64x18xf64>
      // 14
      %z = arith.constant 0 : i32
      %r14 = scf.for %i = %c0 to %m4 step %c1 iter_args(%acc = %z) -> i32 {
        %ii = arith.index_cast %i : index to i32
        %x = arith.addi %ti, %ii : i32
        %s = gpu.subgroup_reduce add %x : (i32) -> i32
        %a = arith.addi %acc, %s : i32
        scf.yield %a : i32
      }
      %f14 = arith.sitofp %r14 : i32 to f64
      memref.store %f14, %out[%t, %c14] : memref<64x18xf64>
      // 15
      %k15 = arith.cmpi ne, %m5, %c0 : index
      %r15 = scf.if %k15 -> f64 {
        %h = arith.constant 0.5 : f64
        %s7 = arith.constant 7.0 : f64
        %a = arith.mulf %tf, %h : f64
        %x = arith.subf %a, %s7 : f64
        %s = gpu.subgroup_reduce maximumf %x cluster(size = 16, stride = 2) : (f64) -> f64
        scf.yield %s : f64
      } else {
        scf.yield %none : f64
      }
      memref.store %r15, %out[%t, %c15] : memref<64x18xf64>
      return
    }

    func.func @wait(%n: index) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %z = arith.cmpi eq, %n, %c0 : index
      scf.if %z {
      } else {
        gpu.barrier
        %m = arith.subi %n, %c1 : index
        func.call @wait(%m) : (index) -> ()
      }
      return
    }

    gpu.func @rounds(%out: memref<64x18xf64>) kernel {
      %t = gpu.thread_id x
      %c16 = arith.constant 16 : index
      %c17 = arith.constant 17 : index
      func.call @body(%out, %t) : (memref<64x18xf64>, index) -> ()
      %ti = arith.index_cast %t : index to i32
      %u = gpu.subgroup_reduce add %ti : (i32) -> i32
      %uf = arith.sitofp %u : i32 to f64
      memref.store %uf, %out[%t, %c16] : memref<64x18xf64>
      %tf = arith.uitofp %ti : i32 to f64
      memref.store %tf, %out[%t, %c17] : memref<64x18xf64>
      gpu.return
    }

    gpu.func @fibers(%out: memref<64x18xf64>, %n: index) private(%keep: memref<1xf64, #gpu.address_space<private>>) kernel {
      %t = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %c17 = arith.constant 17 : index
      %ti = arith.index_cast %t : index to i32
      %tf = arith.uitofp %ti : i32 to f64
      memref.store %tf, %keep[%c0] : memref<1xf64, #gpu.address_space<private>>
      func.call @wait(%n) : (index) -> ()
      func.call @body(%out, %t) : (memref<64x18xf64>, index) -> ()
      %u = gpu.subgroup_reduce add %ti : (i32) -> i32
      %uf = arith.sitofp %u : i32 to f64
      memref.store %uf, %out[%t, %c16] : memref<64x18xf64>
      %back = memref.load %keep[%c0] : memref<1xf64, #gpu.address_space<private>>
      memref.store %back, %out[%t, %c17] : memref<64x18xf64>
      gpu.return
    }
  }

  func.func private @printMemrefF64(memref<*xf64>)

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %one = arith.constant 1 : index
    %a = gpu.alloc () : memref<64x18xf64>
    %b = gpu.alloc () : memref<64x18xf64>
    gpu.launch_func @kernels::@rounds blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%a : memref<64x18xf64>)
    gpu.launch_func @kernels::@fibers blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%b : memref<64x18xf64>, %one : index)
    %ha = memref.alloc () : memref<64x18xf64>
    %hb = memref.alloc () : memref<64x18xf64>
    gpu.memcpy %ha, %a : memref<64x18xf64>, memref<64x18xf64>
    gpu.memcpy %hb, %b : memref<64x18xf64>, memref<64x18xf64>
    %ua = memref.cast %ha : memref<64x18xf64> to memref<*xf64>
    %ub = memref.cast %hb : memref<64x18xf64> to memref<*xf64>
    call @printMemrefF64(%ua) : (memref<*xf64>) -> ()
    call @printMemrefF64(%ub) : (memref<*xf64>) -> ()
    gpu.dealloc %a : memref<64x18xf64>
    gpu.dealloc %b : memref<64x18xf64>
    return
  }
}
