// GPU check kit benchmark: C = A B for @N@ x @N@ floats, the classic
// shared-memory tiled kernel: 16 x 16 threads per block, each block walks
// the K dimension one 16 x 16 tile of A and of B at a time through workgroup
// memory, with a barrier after each load and after each use. Timed on the
// host over @REPS@ launches on one stream (after a warm-up launch).
// bench_matmul.cu is the same in CUDA C. @N@ (a multiple of 16) and @REPS@
// are filled in by scripts/gpu-kit.sh. Prints
//   matmul_gflops <GFLOP/s>  check ok|FAILED
// A[i][k] = (i + 2k) mod 7 - 3 and B[k][j] = (3k + j) mod 5 - 2 are small
// integers, so every product and sum is exact in f32 and a few elements
// recomputed on the host must match exactly.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @matmul(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>, %n: index)
        workgroup(%ta: memref<16x16xf32, #gpu.address_space<workgroup>>,
                  %tb: memref<16x16xf32, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %row0 = arith.muli %by, %c16 : index
      %row = arith.addi %row0, %ty : index
      %col0 = arith.muli %bx, %c16 : index
      %col = arith.addi %col0, %tx : index
      %tiles = arith.divui %n, %c16 : index
      %zero = arith.constant 0.0 : f32
      %sum = scf.for %t = %c0 to %tiles step %c1 iter_args(%acc = %zero) -> (f32) {
        %k0 = arith.muli %t, %c16 : index
        %ka = arith.addi %k0, %tx : index
        %kb = arith.addi %k0, %ty : index
        %av = memref.load %a[%row, %ka] : memref<?x?xf32>
        %bv = memref.load %b[%kb, %col] : memref<?x?xf32>
        memref.store %av, %ta[%ty, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
        memref.store %bv, %tb[%ty, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
        gpu.barrier
        %part = scf.for %k = %c0 to %c16 step %c1 iter_args(%p = %acc) -> (f32) {
          %x = memref.load %ta[%ty, %k] : memref<16x16xf32, #gpu.address_space<workgroup>>
          %y = memref.load %tb[%k, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
          %m = arith.mulf %x, %y : f32
          %s = arith.addf %p, %m : f32
          scf.yield %s : f32
        }
        gpu.barrier
        scf.yield %part : f32
      }
      memref.store %sum, %c[%row, %col] : memref<?x?xf32>
      gpu.return
    }
  }
  func.func private @rtclock() -> f64

  func.func @a_at(%i: index, %k: index) -> f32 {
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : i32
    %c7 = arith.constant 7 : index
    %k2 = arith.muli %k, %c2 : index
    %s = arith.addi %i, %k2 : index
    %r = arith.remui %s, %c7 : index
    %ri = arith.index_cast %r : index to i32
    %v = arith.subi %ri, %c3 : i32
    %f = arith.sitofp %v : i32 to f32
    return %f : f32
  }
  func.func @b_at(%k: index, %j: index) -> f32 {
    %c3 = arith.constant 3 : index
    %c2 = arith.constant 2 : i32
    %c5 = arith.constant 5 : index
    %k3 = arith.muli %k, %c3 : index
    %s = arith.addi %k3, %j : index
    %r = arith.remui %s, %c5 : index
    %ri = arith.index_cast %r : index to i32
    %v = arith.subi %ri, %c2 : i32
    %f = arith.sitofp %v : i32 to f32
    return %f : f32
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %n = arith.constant @N@ : index
    %reps = arith.constant @REPS@ : index
    %ha = memref.alloc(%n, %n) : memref<?x?xf32>
    %hb = memref.alloc(%n, %n) : memref<?x?xf32>
    %hc = memref.alloc(%n, %n) : memref<?x?xf32>
    scf.for %i = %c0 to %n step %c1 {
      scf.for %j = %c0 to %n step %c1 {
        %x = func.call @a_at(%i, %j) : (index, index) -> f32
        %y = func.call @b_at(%i, %j) : (index, index) -> f32
        memref.store %x, %ha[%i, %j] : memref<?x?xf32>
        memref.store %y, %hb[%i, %j] : memref<?x?xf32>
      }
    }
    %da = gpu.alloc (%n, %n) : memref<?x?xf32>
    %db = gpu.alloc (%n, %n) : memref<?x?xf32>
    %dc = gpu.alloc (%n, %n) : memref<?x?xf32>
    gpu.memcpy %da, %ha : memref<?x?xf32>, memref<?x?xf32>
    gpu.memcpy %db, %hb : memref<?x?xf32>, memref<?x?xf32>
    %blocks = arith.divui %n, %c16 : index
    gpu.launch_func @kernels::@matmul blocks in (%blocks, %blocks, %c1) threads in (%c16, %c16, %c1)
        args(%da : memref<?x?xf32>, %db : memref<?x?xf32>, %dc : memref<?x?xf32>, %n : index)
    %s = gpu.wait async
    %t0 = func.call @rtclock() : () -> f64
    scf.for %r = %c0 to %reps step %c1 {
      %t = gpu.launch_func async [%s] @kernels::@matmul blocks in (%blocks, %blocks, %c1) threads in (%c16, %c16, %c1)
          args(%da : memref<?x?xf32>, %db : memref<?x?xf32>, %dc : memref<?x?xf32>, %n : index)
    }
    gpu.wait [%s]
    %t1 = func.call @rtclock() : () -> f64
    gpu.memcpy %hc, %dc : memref<?x?xf32>, memref<?x?xf32>

    // 2 n^3 floating-point operations per product
    %ni = arith.index_cast %n : index to i64
    %nf = arith.sitofp %ni : i64 to f64
    %ri = arith.index_cast %reps : index to i64
    %rf = arith.sitofp %ri : i64 to f64
    %two = arith.constant 2.0 : f64
    %n2 = arith.mulf %nf, %nf : f64
    %n3 = arith.mulf %n2, %nf : f64
    %flop = arith.mulf %n3, %two : f64
    %all = arith.mulf %flop, %rf : f64
    %dt = arith.subf %t1, %t0 : f64
    %rate = arith.divf %all, %dt : f64
    %giga = arith.constant 1.0e9 : f64
    %gflops = arith.divf %rate, %giga : f64

    // check 64 elements spread over the matrix (row i * 37 mod n, column i * 91 mod n)
    %c37 = arith.constant 37 : index
    %c91 = arith.constant 91 : index
    %c64 = arith.constant 64 : index
    %zero = arith.constant 0.0 : f32
    %bad = scf.for %e = %c0 to %c64 step %c1 iter_args(%acc = %c0) -> (index) {
      %i0 = arith.muli %e, %c37 : index
      %i = arith.remui %i0, %n : index
      %j0 = arith.muli %e, %c91 : index
      %j = arith.remui %j0, %n : index
      %want = scf.for %k = %c0 to %n step %c1 iter_args(%p = %zero) -> (f32) {
        %x = memref.load %ha[%i, %k] : memref<?x?xf32>
        %y = memref.load %hb[%k, %j] : memref<?x?xf32>
        %m = arith.mulf %x, %y : f32
        %q = arith.addf %p, %m : f32
        scf.yield %q : f32
      }
      %got = memref.load %hc[%i, %j] : memref<?x?xf32>
      %ok = arith.cmpf oeq, %got, %want : f32
      %next = arith.addi %acc, %c1 : index
      %r = arith.select %ok, %acc, %next : index
      scf.yield %r : index
    }
    vector.print str "matmul_gflops "
    vector.print %gflops : f64
    %good = arith.cmpi eq, %bad, %c0 : index
    scf.if %good {
      vector.print str "check ok\n"
    } else {
      vector.print str "check FAILED\n"
    }
    gpu.dealloc %da : memref<?x?xf32>
    gpu.dealloc %db : memref<?x?xf32>
    gpu.dealloc %dc : memref<?x?xf32>
    memref.dealloc %ha : memref<?x?xf32>
    memref.dealloc %hb : memref<?x?xf32>
    memref.dealloc %hc : memref<?x?xf32>
    return
  }
}
