// Warp-uniform bf16 contractions (issue 23): bf16 x bf16 -> f32 is a wmma
// multiply on sm_80 and newer (device_wmma_build.c: LLVM's bf16 wmma
// intrinsics, LLVM 22's gpu.subgroup_mma having no bf16), per thread on
// older chips and into a bf16 accumulator (wmma has none). On the host the
// per-thread code runs; main checks the tiles against the same sums in
// scalar host code (small integers: exact in bf16 and f32).
// TARGETS: sm_75,sm_80,sm_90
// @bf16: C read, 32-thread blocks promised.
// PTX: bf16 sm_80,sm_90 1 wmma\.mma\.sync\.aligned\.row\.row\.m16n16k16\.f32\.bf16\.bf16\.f32
// PTX: bf16 sm_80,sm_90 1 wmma\.load\.a\.sync\.aligned\.row\.m16n16k16\.global\.bf16
// PTX: bf16 sm_80,sm_90 1 wmma\.load\.b\.sync\.aligned\.row\.m16n16k16\.global\.bf16
// PTX: bf16 sm_80,sm_90 1 wmma\.load\.c\.sync\.aligned\.row\.m16n16k16\.global\.f32
// PTX: bf16 sm_75 none wmma
// @loop: a k-loop, B stored (n, k), splat init, activemask.
// PTX: loop sm_80,sm_90 some wmma\.mma\.sync\.aligned\.row\.col\.m16n16k16\.f32\.bf16\.bf16\.f32
// PTX: loop sm_80,sm_90 some wmma\.load\.b\.sync\.aligned\.col\.m16n16k16\.global\.bf16
// PTX: loop sm_80,sm_90 1 wmma\.store\.d\.sync\.aligned\.row\.m16n16k16\.global\.f32
// PTX: loop sm_75 none wmma
// @shared: A staged in workgroup memory: the shared form of the load.
// PTX: shared sm_80,sm_90 1 wmma\.load\.a\.sync\.aligned\.row\.m16n16k16\.shared\.bf16
// @acc_bf16: a bf16 accumulator: per thread everywhere.
// PTX: acc_bf16 sm_75,sm_80,sm_90 none wmma
#mk = affine_map<(m, n, k) -> (m, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#nk = affine_map<(m, n, k) -> (n, k)>
#mn = affine_map<(m, n, k) -> (m, n)>
module attributes {gpu.container_module} {
  // Block t: D[t] = A[t] x B + C
  gpu.module @bf16 {
    gpu.func @k(%a: memref<2x16x16xbf16>, %b: memref<16x64xbf16>, %c: memref<16x16xf32>, %d: memref<2x16x16xf32>)
        kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      %c0 = arith.constant 0 : index
      %t = gpu.block_id x
      %z = arith.constant 0.0 : bf16
      %zf = arith.constant 0.0 : f32
      %va = vector.transfer_read %a[%t, %c0, %c0], %z {in_bounds = [true, true]} : memref<2x16x16xbf16>, vector<16x16xbf16>
      %vb = vector.transfer_read %b[%c0, %c0], %z {in_bounds = [true, true]} : memref<16x64xbf16>, vector<16x16xbf16>
      %vc = vector.transfer_read %c[%c0, %c0], %zf {in_bounds = [true, true]} : memref<16x16xf32>, vector<16x16xf32>
      %r = vector.contract {indexing_maps = [#mk, #kn, #mn],
             iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>}
             %va, %vb, %vc : vector<16x16xbf16>, vector<16x16xbf16> into vector<16x16xf32>
      vector.transfer_write %r, %d[%t, %c0, %c0] {in_bounds = [true, true]} : vector<16x16xf32>, memref<2x16x16xf32>
      gpu.return
    }
  }
  // D[m][n] = sum over k < 64 of A[m][k] * Bt[n][k]
  gpu.module @loop {
    gpu.func @k(%a: memref<16x64xbf16>, %b: memref<16x64xbf16>, %d: memref<16x16xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %c64 = arith.constant 64 : index
      %z = arith.constant 0.0 : bf16
      %init = arith.constant dense<0.0> : vector<16x16xf32>
      %r = scf.for %k = %c0 to %c64 step %c16 iter_args(%acc = %init) -> (vector<16x16xf32>) {
        %va = vector.transfer_read %a[%c0, %k], %z {in_bounds = [true, true]} : memref<16x64xbf16>, vector<16x16xbf16>
        %vb = vector.transfer_read %b[%c0, %k], %z {in_bounds = [true, true]} : memref<16x64xbf16>, vector<16x16xbf16>
        %ea = arith.extf %va : vector<16x16xbf16> to vector<16x16xf32>
        %eb = arith.extf %vb : vector<16x16xbf16> to vector<16x16xf32>
        %p = vector.contract {indexing_maps = [#mk, #nk, #mn],
               iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>}
               %ea, %eb, %acc : vector<16x16xf32>, vector<16x16xf32> into vector<16x16xf32>
        scf.yield %p : vector<16x16xf32>
      }
      vector.transfer_write %r, %d[%c0, %c0] {in_bounds = [true, true]} : vector<16x16xf32>, memref<16x16xf32>
      gpu.return
    }
  }
  // D = A x B, A through workgroup memory (not launched: PTX only)
  gpu.module @shared {
    gpu.func @k(%a: memref<16x64xbf16>, %b: memref<16x64xbf16>, %d: memref<16x16xf32>)
        workgroup(%s: memref<16x16xbf16, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      %c0 = arith.constant 0 : index
      %z = arith.constant 0.0 : bf16
      %va0 = vector.transfer_read %a[%c0, %c0], %z {in_bounds = [true, true]} : memref<16x64xbf16>, vector<16x16xbf16>
      vector.transfer_write %va0, %s[%c0, %c0] {in_bounds = [true, true]}
          : vector<16x16xbf16>, memref<16x16xbf16, #gpu.address_space<workgroup>>
      gpu.barrier
      %va = vector.transfer_read %s[%c0, %c0], %z {in_bounds = [true, true]}
          : memref<16x16xbf16, #gpu.address_space<workgroup>>, vector<16x16xbf16>
      %vb = vector.transfer_read %b[%c0, %c0], %z {in_bounds = [true, true]} : memref<16x64xbf16>, vector<16x16xbf16>
      %acc = arith.constant dense<0.0> : vector<16x16xf32>
      %r = vector.contract {indexing_maps = [#mk, #kn, #mn],
             iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>}
             %va, %vb, %acc : vector<16x16xbf16>, vector<16x16xbf16> into vector<16x16xf32>
      vector.transfer_write %r, %d[%c0, %c0] {in_bounds = [true, true]} : vector<16x16xf32>, memref<16x16xf32>
      gpu.return
    }
  }
  // D = A x B in bf16
  gpu.module @acc_bf16 {
    gpu.func @k(%a: memref<16x64xbf16>, %b: memref<16x64xbf16>, %d: memref<16x16xbf16>)
        kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      %c0 = arith.constant 0 : index
      %z = arith.constant 0.0 : bf16
      %va = vector.transfer_read %a[%c0, %c0], %z {in_bounds = [true, true]} : memref<16x64xbf16>, vector<16x16xbf16>
      %vb = vector.transfer_read %b[%c0, %c0], %z {in_bounds = [true, true]} : memref<16x64xbf16>, vector<16x16xbf16>
      %acc = arith.constant dense<0.0> : vector<16x16xbf16>
      %r = vector.contract {indexing_maps = [#mk, #kn, #mn],
             iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>}
             %va, %vb, %acc : vector<16x16xbf16>, vector<16x16xbf16> into vector<16x16xbf16>
      vector.transfer_write %r, %d[%c0, %c0] {in_bounds = [true, true]} : vector<16x16xbf16>, memref<16x16xbf16>
      gpu.return
    }
  }

  // Elements of x that differ from y, and the sum of x.
  func.func @compare(%x: memref<?xf32>, %y: memref<?xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = memref.dim %x, %c0 : memref<?xf32>
    %zero = arith.constant 0 : i64
    %fzero = arith.constant 0.0 : f32
    %r:2 = scf.for %e = %c0 to %n step %c1 iter_args(%bad0 = %zero, %sum0 = %fzero) -> (i64, f32) {
      %u = memref.load %x[%e] : memref<?xf32>
      %v = memref.load %y[%e] : memref<?xf32>
      %ne = arith.cmpf une, %u, %v : f32
      %one = arith.extui %ne : i1 to i64
      %bad = arith.addi %bad0, %one : i64
      %sum = arith.addf %sum0, %u : f32
      scf.yield %bad, %sum : i64, f32
    }
    vector.print %r#0 : i64
    vector.print %r#1 : f32
    return
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c5 = arith.constant 5 : index
    %c7 = arith.constant 7 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    // a[i][j] = ((3i + 5j) mod 7) - 3, b[i][j] = ((5i + 3j) mod 7) - 3,
    // over 32 x 64 (the 2 x 16 x 16 A is its first 32 x 16)
    %ha = memref.alloc() : memref<32x64xbf16>
    %hb = memref.alloc() : memref<16x64xbf16>
    %hc = memref.alloc() : memref<16x16xf32>
    scf.for %i = %c0 to %c32 step %c1 {
      scf.for %j = %c0 to %c64 step %c1 {
        %x = arith.muli %i, %c3 : index
        %y = arith.muli %j, %c5 : index
        %s = arith.addi %x, %y : index
        %r = arith.remui %s, %c7 : index
        %v = arith.subi %r, %c3 : index
        %v32 = arith.index_cast %v : index to i32
        %vf = arith.sitofp %v32 : i32 to bf16
        memref.store %vf, %ha[%i, %j] : memref<32x64xbf16>
        %x2 = arith.muli %i, %c5 : index
        %y2 = arith.muli %j, %c3 : index
        %s2 = arith.addi %x2, %y2 : index
        %r2 = arith.remui %s2, %c7 : index
        %w = arith.subi %r2, %c3 : index
        %w32 = arith.index_cast %w : index to i32
        %wf = arith.sitofp %w32 : i32 to bf16
        %in16 = arith.cmpi ult, %i, %c16 : index
        scf.if %in16 {
          memref.store %wf, %hb[%i, %j] : memref<16x64xbf16>
          %j16 = arith.cmpi ult, %j, %c16 : index
          scf.if %j16 {
            %cf = arith.sitofp %v32 : i32 to f32
            memref.store %cf, %hc[%i, %j] : memref<16x16xf32>
          }
        }
      }
    }
    %ha3 = memref.alloc() : memref<2x16x16xbf16>
    scf.for %t = %c0 to %c2 step %c1 {
      scf.for %i = %c0 to %c16 step %c1 {
        scf.for %j = %c0 to %c16 step %c1 {
          %row = arith.muli %t, %c16 : index
          %ri = arith.addi %row, %i : index
          %v = memref.load %ha[%ri, %j] : memref<32x64xbf16>
          memref.store %v, %ha3[%t, %i, %j] : memref<2x16x16xbf16>
        }
      }
    }
    // references: @bf16's D[t][i][j] = sum_k<16 a[16t+i][k] b[k][j] + c,
    // @loop's D[i][j] = sum_k<64 a[i][k] b[j][k], @acc_bf16's
    // sum_k<16 a[i][k] b[k][j] (exact in bf16: at most 144)
    %r1 = memref.alloc() : memref<512xf32>
    %r2 = memref.alloc() : memref<256xf32>
    %r3 = memref.alloc() : memref<256xf32>
    %zf = arith.constant 0.0 : f32
    scf.for %t = %c0 to %c2 step %c1 {
      scf.for %i = %c0 to %c16 step %c1 {
        scf.for %j = %c0 to %c16 step %c1 {
          %row = arith.muli %t, %c16 : index
          %ri = arith.addi %row, %i : index
          %c = memref.load %hc[%i, %j] : memref<16x16xf32>
          %s:3 = scf.for %k = %c0 to %c64 step %c1 iter_args(%s1 = %c, %s2 = %zf, %s3 = %zf) -> (f32, f32, f32) {
            %in16 = arith.cmpi ult, %k, %c16 : index
            %x = memref.load %ha[%ri, %k] : memref<32x64xbf16>
            %x32 = arith.extf %x : bf16 to f32
            %kk = arith.select %in16, %k, %c0 : index
            %y = memref.load %hb[%kk, %j] : memref<16x64xbf16>
            %y32 = arith.extf %y : bf16 to f32
            %yt = memref.load %hb[%j, %k] : memref<16x64xbf16>
            %yt32 = arith.extf %yt : bf16 to f32
            %p = arith.mulf %x32, %y32 : f32
            %pt = arith.mulf %x32, %yt32 : f32
            %zero = arith.constant 0.0 : f32
            %p16 = arith.select %in16, %p, %zero : f32
            %n1 = arith.addf %s1, %p16 : f32
            %n2 = arith.addf %s2, %pt : f32
            %n3 = arith.addf %s3, %p16 : f32
            scf.yield %n1, %n2, %n3 : f32, f32, f32
          }
          %e = arith.muli %ri, %c16 : index
          %ej = arith.addi %e, %j : index
          memref.store %s#0, %r1[%ej] : memref<512xf32>
          %first = arith.cmpi eq, %t, %c0 : index
          scf.if %first {
            memref.store %s#1, %r2[%ej] : memref<256xf32>
            memref.store %s#2, %r3[%ej] : memref<256xf32>
          }
        }
      }
    }

    %da = gpu.alloc () : memref<2x16x16xbf16>
    %da2 = gpu.alloc () : memref<16x64xbf16>
    %db = gpu.alloc () : memref<16x64xbf16>
    %dc = gpu.alloc () : memref<16x16xf32>
    %d1 = gpu.alloc () : memref<2x16x16xf32>
    %d2 = gpu.alloc () : memref<16x16xf32>
    %d3 = gpu.alloc () : memref<16x16xbf16>
    %ha2 = memref.subview %ha[0, 0] [16, 64] [1, 1] : memref<32x64xbf16> to memref<16x64xbf16, strided<[64, 1]>>
    %ha2c = memref.alloc() : memref<16x64xbf16>
    memref.copy %ha2, %ha2c : memref<16x64xbf16, strided<[64, 1]>> to memref<16x64xbf16>
    gpu.memcpy %da, %ha3 : memref<2x16x16xbf16>, memref<2x16x16xbf16>
    gpu.memcpy %da2, %ha2c : memref<16x64xbf16>, memref<16x64xbf16>
    gpu.memcpy %db, %hb : memref<16x64xbf16>, memref<16x64xbf16>
    gpu.memcpy %dc, %hc : memref<16x16xf32>, memref<16x16xf32>
    gpu.launch_func @bf16::@k blocks in (%c2, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%da : memref<2x16x16xbf16>, %db : memref<16x64xbf16>, %dc : memref<16x16xf32>, %d1 : memref<2x16x16xf32>)
    gpu.launch_func @loop::@k blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%da2 : memref<16x64xbf16>, %db : memref<16x64xbf16>, %d2 : memref<16x16xf32>)
    gpu.launch_func @acc_bf16::@k blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%da2 : memref<16x64xbf16>, %db : memref<16x64xbf16>, %d3 : memref<16x16xbf16>)
    %h1 = memref.alloc() : memref<2x16x16xf32>
    %h2 = memref.alloc() : memref<16x16xf32>
    %h3 = memref.alloc() : memref<16x16xbf16>
    gpu.memcpy %h1, %d1 : memref<2x16x16xf32>, memref<2x16x16xf32>
    gpu.memcpy %h2, %d2 : memref<16x16xf32>, memref<16x16xf32>
    gpu.memcpy %h3, %d3 : memref<16x16xbf16>, memref<16x16xbf16>
    %h3f = memref.alloc() : memref<256xf32>
    scf.for %i = %c0 to %c16 step %c1 {
      scf.for %j = %c0 to %c16 step %c1 {
        %v = memref.load %h3[%i, %j] : memref<16x16xbf16>
        %f = arith.extf %v : bf16 to f32
        %e = arith.muli %i, %c16 : index
        %ej = arith.addi %e, %j : index
        memref.store %f, %h3f[%ej] : memref<256xf32>
      }
    }
    %h1f = memref.collapse_shape %h1 [[0, 1, 2]] : memref<2x16x16xf32> into memref<512xf32>
    %h2f = memref.collapse_shape %h2 [[0, 1]] : memref<16x16xf32> into memref<256xf32>
    %x1 = memref.cast %h1f : memref<512xf32> to memref<?xf32>
    %y1 = memref.cast %r1 : memref<512xf32> to memref<?xf32>
    %x2 = memref.cast %h2f : memref<256xf32> to memref<?xf32>
    %y2 = memref.cast %r2 : memref<256xf32> to memref<?xf32>
    %x3 = memref.cast %h3f : memref<256xf32> to memref<?xf32>
    %y3 = memref.cast %r3 : memref<256xf32> to memref<?xf32>
    call @compare(%x1, %y1) : (memref<?xf32>, memref<?xf32>) -> ()
    call @compare(%x2, %y2) : (memref<?xf32>, memref<?xf32>) -> ()
    call @compare(%x3, %y3) : (memref<?xf32>, memref<?xf32>) -> ()
    return
  }
}
