// GPU check kit benchmark: the nine kernels of the codegen benchmark
// (tests/bench/codegen, which compares their device code with nvcc's and
// clang's statically), timed: scripts/gpu-kit.sh puts the gpu.modules of
// tests/bench/codegen/kernels.mlir and wmma.mlir where @KERNELS@ stands, so
// the code timed is the code compared. bench_codegen.cu is the same in CUDA
// C around tests/bench/codegen/kernels.cu.
// Sizes, filled in by gpu-kit.sh: @N@ floats for the 1-D kernels (a
// multiple of 512), @M@ x @M@ matrices for sgemm16, stencil5 and transpose
// (a multiple of 32), @WT@ x @WT@ tiles of 16 x 16 of the 1024 x 1024 wmma
// product (at most 64), @REPS@ timed launches of each kernel on one stream
// after a warm-up launch, timed on the host. Launch shapes are those of
// bench_codegen.c's table. Prints
//   cg_<kernel>_gbps <GB/s> (bytes each launch must move) or
//   cg_<kernel>_gflops <GFLOP/s>, then check ok|FAILED
// (before FAILED, the count of wrong results of each kernel). Inputs are small integers, so
// every result is exact in f32 whether or not products and sums are fused:
//   a[i] = i mod 8, b[i] = 2;  grid g[y][x] = (x + 2y) mod 8;
//   A[i][k] = (i + 2k) mod 7 - 3, B[k][j] = (3k + j) mod 5 - 2 (sgemm16);
//   A[i][k] = (i + k) mod 3 - 1, B[k][j] = (k + 2j) mod 3 - 1 (wmma, f16).
module attributes {gpu.container_module} {
  // @KERNELS@

  func.func private @rtclock() -> f64

  // amount (bytes or flops) per launch, reps times, over t1 - t0, in G/s
  func.func @giga_rate(%per: index, %reps: index, %t0: f64, %t1: f64) -> f64 {
    %all = arith.muli %per, %reps : index
    %i = arith.index_cast %all : index to i64
    %f = arith.sitofp %i : i64 to f64
    %dt = arith.subf %t1, %t0 : f64
    %r = arith.divf %f, %dt : f64
    %giga = arith.constant 1.0e9 : f64
    %q = arith.divf %r, %giga : f64
    return %q : f64
  }

  // (x mod k) + add, as f32
  func.func @modf(%x: index, %k: index, %add: i32) -> f32 {
    %r = arith.remui %x, %k : index
    %ri = arith.index_cast %r : index to i32
    %s = arith.addi %ri, %add : i32
    %f = arith.sitofp %s : i32 to f32
    return %f : f32
  }

  // the elements of m that differ from want
  func.func @count_ne(%m: memref<?xf32>, %want: f32) -> index {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = memref.dim %m, %c0 : memref<?xf32>
    %bad = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c0) -> (index) {
      %v = memref.load %m[%i] : memref<?xf32>
      %ok = arith.cmpf oeq, %v, %want : f32
      %next = arith.addi %acc, %c1 : index
      %r = arith.select %ok, %acc, %next : index
      scf.yield %r : index
    }
    return %bad : index
  }

  // bad + (1 when got != want)
  func.func @tally(%bad: index, %got: f32, %want: f32) -> index {
    %c1 = arith.constant 1 : index
    %ok = arith.cmpf oeq, %got, %want : f32
    %next = arith.addi %bad, %c1 : index
    %r = arith.select %ok, %bad, %next : index
    return %r : index
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c5 = arith.constant 5 : index
    %c7 = arith.constant 7 : index
    %c8 = arith.constant 8 : index
    %c12 = arith.constant 12 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %c37 = arith.constant 37 : index
    %c64 = arith.constant 64 : index
    %c91 = arith.constant 91 : index
    %c256 = arith.constant 256 : index
    %c512 = arith.constant 512 : index
    %c1024 = arith.constant 1024 : index
    %i0 = arith.constant 0 : i32
    %im1 = arith.constant -1 : i32
    %im2 = arith.constant -2 : i32
    %im3 = arith.constant -3 : i32
    %zero = arith.constant 0.0 : f32
    %two = arith.constant 2.0 : f32
    %alpha = arith.constant 0.5 : f32
    %n = arith.constant @N@ : index
    %m = arith.constant @M@ : index
    %wt = arith.constant @WT@ : index
    %reps = arith.constant @REPS@ : index

    // ---- 1-D inputs: a[i] = i mod 8, b[i] = 2 ----
    %ha = memref.alloc(%n) : memref<?xf32>
    %hb = memref.alloc(%n) : memref<?xf32>
    scf.for %i = %c0 to %n step %c1 {
      %v = func.call @modf(%i, %c8, %i0) : (index, index, i32) -> f32
      memref.store %v, %ha[%i] : memref<?xf32>
      memref.store %two, %hb[%i] : memref<?xf32>
    }
    %da = gpu.alloc (%n) : memref<?xf32>
    %db = gpu.alloc (%n) : memref<?xf32>
    %dc = gpu.alloc (%n) : memref<?xf32>
    gpu.memcpy %da, %ha : memref<?xf32>, memref<?xf32>
    gpu.memcpy %db, %hb : memref<?xf32>, memref<?xf32>
    %blocks = arith.ceildivui %n, %c256 : index
    %n12 = arith.muli %n, %c12 : index
    %n4b = arith.muli %n, %c4 : index
    %hout = memref.alloc(%n) : memref<?xf32>

    // ---- vadd: c = a + b ----
    gpu.launch_func @bench::@vadd blocks in (%blocks, %c1, %c1) threads in (%c256, %c1, %c1)
        args(%da : memref<?xf32>, %db : memref<?xf32>, %dc : memref<?xf32>, %n : index)
    %s0 = gpu.wait async
    %t0 = func.call @rtclock() : () -> f64
    scf.for %r = %c0 to %reps step %c1 {
      %t = gpu.launch_func async [%s0] @bench::@vadd blocks in (%blocks, %c1, %c1) threads in (%c256, %c1, %c1)
          args(%da : memref<?xf32>, %db : memref<?xf32>, %dc : memref<?xf32>, %n : index)
    }
    gpu.wait [%s0]
    %t1 = func.call @rtclock() : () -> f64
    %vadd_rate = func.call @giga_rate(%n12, %reps, %t0, %t1) : (index, index, f64, f64) -> f64
    gpu.memcpy %hout, %dc : memref<?xf32>, memref<?xf32>
    %vadd_bad = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c0) -> (index) {
      %want = func.call @modf(%i, %c8, %i0) : (index, index, i32) -> f32
      %w2 = arith.addf %want, %two : f32
      %v = memref.load %hout[%i] : memref<?xf32>
      %r = func.call @tally(%acc, %v, %w2) : (index, f32, f32) -> index
      scf.yield %r : index
    }

    // ---- vadd4: the same in vector<4xf32> ----
    %n4 = arith.divui %n, %c4 : index
    %blocks4 = arith.ceildivui %n4, %c256 : index
    %ha4 = memref.alloc(%n4) : memref<?xvector<4xf32>>
    %hb4 = memref.alloc(%n4) : memref<?xvector<4xf32>>
    %twos = vector.broadcast %two : f32 to vector<4xf32>
    scf.for %i = %c0 to %n4 step %c1 {
      %i4 = arith.muli %i, %c4 : index
      %v = vector.load %ha[%i4] : memref<?xf32>, vector<4xf32>
      memref.store %v, %ha4[%i] : memref<?xvector<4xf32>>
      memref.store %twos, %hb4[%i] : memref<?xvector<4xf32>>
    }
    %da4 = gpu.alloc (%n4) : memref<?xvector<4xf32>>
    %db4 = gpu.alloc (%n4) : memref<?xvector<4xf32>>
    %dc4 = gpu.alloc (%n4) : memref<?xvector<4xf32>>
    gpu.memcpy %da4, %ha4 : memref<?xvector<4xf32>>, memref<?xvector<4xf32>>
    gpu.memcpy %db4, %hb4 : memref<?xvector<4xf32>>, memref<?xvector<4xf32>>
    gpu.launch_func @bench::@vadd4 blocks in (%blocks4, %c1, %c1) threads in (%c256, %c1, %c1)
        args(%da4 : memref<?xvector<4xf32>>, %db4 : memref<?xvector<4xf32>>, %dc4 : memref<?xvector<4xf32>>, %n4 : index)
    %s1 = gpu.wait async
    %t2 = func.call @rtclock() : () -> f64
    scf.for %r = %c0 to %reps step %c1 {
      %t = gpu.launch_func async [%s1] @bench::@vadd4 blocks in (%blocks4, %c1, %c1) threads in (%c256, %c1, %c1)
          args(%da4 : memref<?xvector<4xf32>>, %db4 : memref<?xvector<4xf32>>, %dc4 : memref<?xvector<4xf32>>, %n4 : index)
    }
    gpu.wait [%s1]
    %t3 = func.call @rtclock() : () -> f64
    %vadd4_rate = func.call @giga_rate(%n12, %reps, %t2, %t3) : (index, index, f64, f64) -> f64
    gpu.memcpy %hb4, %dc4 : memref<?xvector<4xf32>>, memref<?xvector<4xf32>>
    %vadd4_bad = scf.for %i = %c0 to %n4 step %c1 iter_args(%acc = %c0) -> (index) {
      %i4 = arith.muli %i, %c4 : index
      %a = vector.load %ha[%i4] : memref<?xf32>, vector<4xf32>
      %want = arith.addf %a, %twos : vector<4xf32>
      %got = memref.load %hb4[%i] : memref<?xvector<4xf32>>
      %eq = arith.cmpf oeq, %got, %want : vector<4xf32>
      %all = vector.reduction <and>, %eq : vector<4xi1> into i1
      %next = arith.addi %acc, %c1 : index
      %r = arith.select %all, %acc, %next : index
      scf.yield %r : index
    }

    // ---- saxpy: y = 0.5 a + y from y = 2, warm-up and reps launches ----
    %dy = gpu.alloc (%n) : memref<?xf32>
    gpu.memcpy %dy, %hb : memref<?xf32>, memref<?xf32>
    gpu.launch_func @bench::@saxpy blocks in (%blocks, %c1, %c1) threads in (%c256, %c1, %c1)
        args(%alpha : f32, %da : memref<?xf32>, %dy : memref<?xf32>, %n : index)
    %s2 = gpu.wait async
    %t4 = func.call @rtclock() : () -> f64
    scf.for %r = %c0 to %reps step %c1 {
      %t = gpu.launch_func async [%s2] @bench::@saxpy blocks in (%blocks, %c1, %c1) threads in (%c256, %c1, %c1)
          args(%alpha : f32, %da : memref<?xf32>, %dy : memref<?xf32>, %n : index)
    }
    gpu.wait [%s2]
    %t5 = func.call @rtclock() : () -> f64
    %saxpy_rate = func.call @giga_rate(%n12, %reps, %t4, %t5) : (index, index, f64, f64) -> f64
    gpu.memcpy %hout, %dy : memref<?xf32>, memref<?xf32>
    %launches = arith.addi %reps, %c1 : index
    %li = arith.index_cast %launches : index to i32
    %lf = arith.sitofp %li : i32 to f32
    %saxpy_bad = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c0) -> (index) {
      %a = func.call @modf(%i, %c8, %i0) : (index, index, i32) -> f32
      %p = arith.mulf %alpha, %a : f32
      %pl = arith.mulf %p, %lf : f32
      %want = arith.addf %two, %pl : f32
      %v = memref.load %hout[%i] : memref<?xf32>
      %r = func.call @tally(%acc, %v, %want) : (index, f32, f32) -> index
      scf.yield %r : index
    }

    // ---- reduce_smem: one sum per 512 floats, 64 * (0 + ... + 7) each ----
    %parts = arith.divui %n, %c512 : index
    %dparts = gpu.alloc (%parts) : memref<?xf32>
    gpu.launch_func @bench::@reduce_smem blocks in (%parts, %c1, %c1) threads in (%c256, %c1, %c1)
        args(%da : memref<?xf32>, %dparts : memref<?xf32>)
    %s3 = gpu.wait async
    %t6 = func.call @rtclock() : () -> f64
    scf.for %r = %c0 to %reps step %c1 {
      %t = gpu.launch_func async [%s3] @bench::@reduce_smem blocks in (%parts, %c1, %c1) threads in (%c256, %c1, %c1)
          args(%da : memref<?xf32>, %dparts : memref<?xf32>)
    }
    gpu.wait [%s3]
    %t7 = func.call @rtclock() : () -> f64
    %smem_rate = func.call @giga_rate(%n4b, %reps, %t6, %t7) : (index, index, f64, f64) -> f64
    %hparts = memref.alloc(%parts) : memref<?xf32>
    gpu.memcpy %hparts, %dparts : memref<?xf32>, memref<?xf32>
    %w1792 = arith.constant 1792.0 : f32
    %smem_bad = func.call @count_ne(%hparts, %w1792) : (memref<?xf32>, f32) -> index

    // ---- reduce_shfl: one sum per 32 floats, 4 * (0 + ... + 7) each ----
    %warps = arith.divui %n, %c32 : index
    %dwarps = gpu.alloc (%warps) : memref<?xf32>
    gpu.launch_func @bench::@reduce_shfl blocks in (%blocks, %c1, %c1) threads in (%c256, %c1, %c1)
        args(%da : memref<?xf32>, %dwarps : memref<?xf32>)
    %s4 = gpu.wait async
    %t8 = func.call @rtclock() : () -> f64
    scf.for %r = %c0 to %reps step %c1 {
      %t = gpu.launch_func async [%s4] @bench::@reduce_shfl blocks in (%blocks, %c1, %c1) threads in (%c256, %c1, %c1)
          args(%da : memref<?xf32>, %dwarps : memref<?xf32>)
    }
    gpu.wait [%s4]
    %t9 = func.call @rtclock() : () -> f64
    %shfl_rate = func.call @giga_rate(%n4b, %reps, %t8, %t9) : (index, index, f64, f64) -> f64
    %hwarps = memref.alloc(%warps) : memref<?xf32>
    gpu.memcpy %hwarps, %dwarps : memref<?xf32>, memref<?xf32>
    %w112 = arith.constant 112.0 : f32
    %shfl_bad = func.call @count_ne(%hwarps, %w112) : (memref<?xf32>, f32) -> index

    // ---- 2-D inputs: A, B for sgemm16, the grid g for stencil5 and transpose ----
    %hA = memref.alloc(%m, %m) : memref<?x?xf32>
    %hB = memref.alloc(%m, %m) : memref<?x?xf32>
    %hg = memref.alloc(%m, %m) : memref<?x?xf32>
    scf.for %i = %c0 to %m step %c1 {
      scf.for %j = %c0 to %m step %c1 {
        %j2 = arith.muli %j, %c2 : index
        %ia = arith.addi %i, %j2 : index
        %av = func.call @modf(%ia, %c7, %im3) : (index, index, i32) -> f32
        %i3 = arith.muli %i, %c3 : index
        %ib = arith.addi %i3, %j : index
        %bv = func.call @modf(%ib, %c5, %im2) : (index, index, i32) -> f32
        %i2 = arith.muli %i, %c2 : index
        %ig = arith.addi %j, %i2 : index
        %gv = func.call @modf(%ig, %c8, %i0) : (index, index, i32) -> f32
        memref.store %av, %hA[%i, %j] : memref<?x?xf32>
        memref.store %bv, %hB[%i, %j] : memref<?x?xf32>
        memref.store %gv, %hg[%i, %j] : memref<?x?xf32>
      }
    }
    %dA = gpu.alloc (%m, %m) : memref<?x?xf32>
    %dB = gpu.alloc (%m, %m) : memref<?x?xf32>
    %dC = gpu.alloc (%m, %m) : memref<?x?xf32>
    %dg = gpu.alloc (%m, %m) : memref<?x?xf32>
    gpu.memcpy %dA, %hA : memref<?x?xf32>, memref<?x?xf32>
    gpu.memcpy %dB, %hB : memref<?x?xf32>, memref<?x?xf32>
    gpu.memcpy %dg, %hg : memref<?x?xf32>, memref<?x?xf32>
    %hC = memref.alloc(%m, %m) : memref<?x?xf32>
    %mm = arith.muli %m, %m : index
    %mm8 = arith.muli %mm, %c8 : index

    // ---- sgemm16: C = A B, 2 m^3 flops ----
    %tiles = arith.divui %m, %c16 : index
    gpu.launch_func @bench::@sgemm16 blocks in (%tiles, %tiles, %c1) threads in (%c16, %c16, %c1)
        args(%dA : memref<?x?xf32>, %dB : memref<?x?xf32>, %dC : memref<?x?xf32>)
    %s5 = gpu.wait async
    %t10 = func.call @rtclock() : () -> f64
    scf.for %r = %c0 to %reps step %c1 {
      %t = gpu.launch_func async [%s5] @bench::@sgemm16 blocks in (%tiles, %tiles, %c1) threads in (%c16, %c16, %c1)
          args(%dA : memref<?x?xf32>, %dB : memref<?x?xf32>, %dC : memref<?x?xf32>)
    }
    gpu.wait [%s5]
    %t11 = func.call @rtclock() : () -> f64
    %mmm = arith.muli %mm, %m : index
    %flops = arith.muli %mmm, %c2 : index
    %sgemm_rate = func.call @giga_rate(%flops, %reps, %t10, %t11) : (index, index, f64, f64) -> f64
    gpu.memcpy %hC, %dC : memref<?x?xf32>, memref<?x?xf32>
    // 64 elements spread over C
    %sgemm_bad = scf.for %e = %c0 to %c64 step %c1 iter_args(%acc = %c0) -> (index) {
      %e37 = arith.muli %e, %c37 : index
      %i = arith.remui %e37, %m : index
      %e91 = arith.muli %e, %c91 : index
      %j = arith.remui %e91, %m : index
      %want = scf.for %k = %c0 to %m step %c1 iter_args(%p = %zero) -> (f32) {
        %x = memref.load %hA[%i, %k] : memref<?x?xf32>
        %y = memref.load %hB[%k, %j] : memref<?x?xf32>
        %xy = arith.mulf %x, %y : f32
        %q = arith.addf %p, %xy : f32
        scf.yield %q : f32
      }
      %got = memref.load %hC[%i, %j] : memref<?x?xf32>
      %r = func.call @tally(%acc, %got, %want) : (index, f32, f32) -> index
      scf.yield %r : index
    }

    // ---- stencil5 on g, blocks of 32 x 8; reads and writes m^2 floats ----
    %sbx = arith.ceildivui %m, %c32 : index
    %sby = arith.ceildivui %m, %c8 : index
    gpu.memset %dC, %zero : memref<?x?xf32>, f32
    gpu.launch_func @bench::@stencil5 blocks in (%sbx, %sby, %c1) threads in (%c32, %c8, %c1)
        args(%dg : memref<?x?xf32>, %dC : memref<?x?xf32>)
    %s6 = gpu.wait async
    %t12 = func.call @rtclock() : () -> f64
    scf.for %r = %c0 to %reps step %c1 {
      %t = gpu.launch_func async [%s6] @bench::@stencil5 blocks in (%sbx, %sby, %c1) threads in (%c32, %c8, %c1)
          args(%dg : memref<?x?xf32>, %dC : memref<?x?xf32>)
    }
    gpu.wait [%s6]
    %t13 = func.call @rtclock() : () -> f64
    %stencil_rate = func.call @giga_rate(%mm8, %reps, %t12, %t13) : (index, index, f64, f64) -> f64
    gpu.memcpy %hC, %dC : memref<?x?xf32>, memref<?x?xf32>
    %inner = arith.subi %m, %c2 : index
    %half = arith.constant 0.5 : f32
    %eighth = arith.constant 0.125 : f32
    %stencil_bad0 = scf.for %e = %c0 to %c64 step %c1 iter_args(%acc = %c0) -> (index) {
      %e37 = arith.muli %e, %c37 : index
      %y0 = arith.remui %e37, %inner : index
      %y = arith.addi %y0, %c1 : index
      %e91 = arith.muli %e, %c91 : index
      %x0 = arith.remui %e91, %inner : index
      %x = arith.addi %x0, %c1 : index
      %ym = arith.subi %y, %c1 : index
      %yp = arith.addi %y, %c1 : index
      %xm = arith.subi %x, %c1 : index
      %xp = arith.addi %x, %c1 : index
      %c = memref.load %hg[%y, %x] : memref<?x?xf32>
      %no = memref.load %hg[%ym, %x] : memref<?x?xf32>
      %so = memref.load %hg[%yp, %x] : memref<?x?xf32>
      %we = memref.load %hg[%y, %xm] : memref<?x?xf32>
      %ea = memref.load %hg[%y, %xp] : memref<?x?xf32>
      %ns = arith.addf %no, %so : f32
      %wea = arith.addf %we, %ea : f32
      %around = arith.addf %ns, %wea : f32
      %hc = arith.mulf %half, %c : f32
      %a8 = arith.mulf %eighth, %around : f32
      %want = arith.addf %hc, %a8 : f32
      %got = memref.load %hC[%y, %x] : memref<?x?xf32>
      %r = func.call @tally(%acc, %got, %want) : (index, f32, f32) -> index
      scf.yield %r : index
    }
    // the border stays as the memset left it
    %corner = memref.load %hC[%c0, %c0] : memref<?x?xf32>
    %stencil_bad = func.call @tally(%stencil_bad0, %corner, %zero) : (index, f32, f32) -> index

    // ---- transpose g into C, blocks of 32 x 8; reads and writes m^2 floats ----
    %tb = arith.divui %m, %c32 : index
    gpu.launch_func @bench::@transpose blocks in (%tb, %tb, %c1) threads in (%c32, %c8, %c1)
        args(%dg : memref<?x?xf32>, %dC : memref<?x?xf32>)
    %s7 = gpu.wait async
    %t14 = func.call @rtclock() : () -> f64
    scf.for %r = %c0 to %reps step %c1 {
      %t = gpu.launch_func async [%s7] @bench::@transpose blocks in (%tb, %tb, %c1) threads in (%c32, %c8, %c1)
          args(%dg : memref<?x?xf32>, %dC : memref<?x?xf32>)
    }
    gpu.wait [%s7]
    %t15 = func.call @rtclock() : () -> f64
    %transpose_rate = func.call @giga_rate(%mm8, %reps, %t14, %t15) : (index, index, f64, f64) -> f64
    gpu.memcpy %hC, %dC : memref<?x?xf32>, memref<?x?xf32>
    %transpose_bad = scf.for %e = %c0 to %c64 step %c1 iter_args(%acc = %c0) -> (index) {
      %e37 = arith.muli %e, %c37 : index
      %y = arith.remui %e37, %m : index
      %e91 = arith.muli %e, %c91 : index
      %x = arith.remui %e91, %m : index
      %want = memref.load %hg[%y, %x] : memref<?x?xf32>
      %got = memref.load %hC[%x, %y] : memref<?x?xf32>
      %r = func.call @tally(%acc, %got, %want) : (index, f32, f32) -> index
      scf.yield %r : index
    }

    // ---- wmma_gemm: the first 16 wt x 16 wt of C = A B, 1024 x 1024 f16 ----
    %hA16 = memref.alloc() : memref<1024x1024xf16>
    %hB16 = memref.alloc() : memref<1024x1024xf16>
    scf.for %i = %c0 to %c1024 step %c1 {
      scf.for %j = %c0 to %c1024 step %c1 {
        %ia = arith.addi %i, %j : index
        %av = func.call @modf(%ia, %c3, %im1) : (index, index, i32) -> f32
        %j2 = arith.muli %j, %c2 : index
        %ib = arith.addi %i, %j2 : index
        %bv = func.call @modf(%ib, %c3, %im1) : (index, index, i32) -> f32
        %ah = arith.truncf %av : f32 to f16
        %bh = arith.truncf %bv : f32 to f16
        memref.store %ah, %hA16[%i, %j] : memref<1024x1024xf16>
        memref.store %bh, %hB16[%i, %j] : memref<1024x1024xf16>
      }
    }
    %dA16 = gpu.alloc () : memref<1024x1024xf16>
    %dB16 = gpu.alloc () : memref<1024x1024xf16>
    %dC32 = gpu.alloc () : memref<1024x1024xf32>
    gpu.memcpy %dA16, %hA16 : memref<1024x1024xf16>, memref<1024x1024xf16>
    gpu.memcpy %dB16, %hB16 : memref<1024x1024xf16>, memref<1024x1024xf16>
    gpu.launch_func @bench_wmma::@wmma_gemm blocks in (%wt, %wt, %c1) threads in (%c32, %c1, %c1)
        args(%dA16 : memref<1024x1024xf16>, %dB16 : memref<1024x1024xf16>, %dC32 : memref<1024x1024xf32>)
    %s8 = gpu.wait async
    %t16 = func.call @rtclock() : () -> f64
    scf.for %r = %c0 to %reps step %c1 {
      %t = gpu.launch_func async [%s8] @bench_wmma::@wmma_gemm blocks in (%wt, %wt, %c1) threads in (%c32, %c1, %c1)
          args(%dA16 : memref<1024x1024xf16>, %dB16 : memref<1024x1024xf16>, %dC32 : memref<1024x1024xf32>)
    }
    gpu.wait [%s8]
    %t17 = func.call @rtclock() : () -> f64
    %side = arith.muli %wt, %c16 : index
    %side2 = arith.muli %side, %side : index
    %wflops0 = arith.muli %side2, %c1024 : index
    %wflops = arith.muli %wflops0, %c2 : index
    %wmma_rate = func.call @giga_rate(%wflops, %reps, %t16, %t17) : (index, index, f64, f64) -> f64
    %hC32 = memref.alloc() : memref<1024x1024xf32>
    gpu.memcpy %hC32, %dC32 : memref<1024x1024xf32>, memref<1024x1024xf32>
    %wmma_bad = scf.for %e = %c0 to %c64 step %c1 iter_args(%acc = %c0) -> (index) {
      %e37 = arith.muli %e, %c37 : index
      %i = arith.remui %e37, %side : index
      %e91 = arith.muli %e, %c91 : index
      %j = arith.remui %e91, %side : index
      %want = scf.for %k = %c0 to %c1024 step %c1 iter_args(%p = %zero) -> (f32) {
        %ia = arith.addi %i, %k : index
        %x = func.call @modf(%ia, %c3, %im1) : (index, index, i32) -> f32
        %j2 = arith.muli %j, %c2 : index
        %ib = arith.addi %k, %j2 : index
        %y = func.call @modf(%ib, %c3, %im1) : (index, index, i32) -> f32
        %xy = arith.mulf %x, %y : f32
        %q = arith.addf %p, %xy : f32
        scf.yield %q : f32
      }
      %got = memref.load %hC32[%i, %j] : memref<1024x1024xf32>
      %r = func.call @tally(%acc, %got, %want) : (index, f32, f32) -> index
      scf.yield %r : index
    }

    vector.print str "cg_vadd_gbps "
    vector.print %vadd_rate : f64
    vector.print str "cg_vadd4_gbps "
    vector.print %vadd4_rate : f64
    vector.print str "cg_saxpy_gbps "
    vector.print %saxpy_rate : f64
    vector.print str "cg_reduce_smem_gbps "
    vector.print %smem_rate : f64
    vector.print str "cg_reduce_shfl_gbps "
    vector.print %shfl_rate : f64
    vector.print str "cg_sgemm16_gflops "
    vector.print %sgemm_rate : f64
    vector.print str "cg_stencil5_gbps "
    vector.print %stencil_rate : f64
    vector.print str "cg_transpose_gbps "
    vector.print %transpose_rate : f64
    vector.print str "cg_wmma_gemm_gflops "
    vector.print %wmma_rate : f64
    %b0 = arith.addi %vadd_bad, %vadd4_bad : index
    %b1 = arith.addi %b0, %saxpy_bad : index
    %b2 = arith.addi %b1, %smem_bad : index
    %b3 = arith.addi %b2, %shfl_bad : index
    %b4 = arith.addi %b3, %sgemm_bad : index
    %b5 = arith.addi %b4, %stencil_bad : index
    %b6 = arith.addi %b5, %transpose_bad : index
    %bad = arith.addi %b6, %wmma_bad : index
    %good = arith.cmpi eq, %bad, %c0 : index
    scf.if %good {
      vector.print str "check ok\n"
    } else {
      vector.print str "wrong (vadd vadd4 saxpy reduce_smem reduce_shfl sgemm16 stencil5 transpose wmma_gemm): "
      vector.print %vadd_bad : index
      vector.print %vadd4_bad : index
      vector.print %saxpy_bad : index
      vector.print %smem_bad : index
      vector.print %shfl_bad : index
      vector.print %sgemm_bad : index
      vector.print %stencil_bad : index
      vector.print %transpose_bad : index
      vector.print %wmma_bad : index
      vector.print str "check FAILED\n"
    }
    gpu.dealloc %da : memref<?xf32>
    gpu.dealloc %db : memref<?xf32>
    gpu.dealloc %dc : memref<?xf32>
    gpu.dealloc %dy : memref<?xf32>
    gpu.dealloc %da4 : memref<?xvector<4xf32>>
    gpu.dealloc %db4 : memref<?xvector<4xf32>>
    gpu.dealloc %dc4 : memref<?xvector<4xf32>>
    gpu.dealloc %dparts : memref<?xf32>
    gpu.dealloc %dwarps : memref<?xf32>
    gpu.dealloc %dA : memref<?x?xf32>
    gpu.dealloc %dB : memref<?x?xf32>
    gpu.dealloc %dC : memref<?x?xf32>
    gpu.dealloc %dg : memref<?x?xf32>
    gpu.dealloc %dA16 : memref<1024x1024xf16>
    gpu.dealloc %dB16 : memref<1024x1024xf16>
    gpu.dealloc %dC32 : memref<1024x1024xf32>
    memref.dealloc %ha : memref<?xf32>
    memref.dealloc %hb : memref<?xf32>
    memref.dealloc %hout : memref<?xf32>
    memref.dealloc %ha4 : memref<?xvector<4xf32>>
    memref.dealloc %hb4 : memref<?xvector<4xf32>>
    memref.dealloc %hparts : memref<?xf32>
    memref.dealloc %hwarps : memref<?xf32>
    memref.dealloc %hA : memref<?x?xf32>
    memref.dealloc %hB : memref<?x?xf32>
    memref.dealloc %hg : memref<?x?xf32>
    memref.dealloc %hC : memref<?x?xf32>
    memref.dealloc %hA16 : memref<1024x1024xf16>
    memref.dealloc %hB16 : memref<1024x1024xf16>
    memref.dealloc %hC32 : memref<1024x1024xf32>
    return
  }
}
