// Warp-uniform 16x16x16 contractions in kernels (issue 23): every lane of
// a warp reads the same tiles and writes the same result, so on NVIDIA
// each becomes one warp-wide wmma multiply (device_contract_wmma.c), the
// per-thread code kept for a warp that is not whole or tiles off 32 bytes.
// On the host the per-thread code runs; main checks both kernels' tiles
// against the same contractions computed in host code (small integers:
// exact in f16 and f32 in any order).
// TARGETS: sm_80,sm_90
// @guarded: f16 x f16 -> f32 (mixed: contract_widen.c extends A and B
// first), tile per block, no known_block_size: guarded by activemask.
// PTX: guarded sm_80,sm_90 1 wmma\.mma\.sync\.aligned\.row\.row\.m16n16k16\.f32\.f32
// PTX: guarded sm_80,sm_90 1 wmma\.load\.a\.sync\.aligned\.row\.m16n16k16\.global\.f16
// PTX: guarded sm_80,sm_90 1 wmma\.store\.d\.sync\.aligned\.row\.m16n16k16\.global\.f32
// PTX: guarded sm_80,sm_90 some activemask\.b32
// @known: f16 accumulator read from memory, tiles by subgroup id and a
// uniform loop, inside a uniform scf.if; 64-thread blocks promised: no
// activemask.
// PTX: known sm_80,sm_90 1 wmma\.mma\.sync\.aligned\.row\.row\.m16n16k16\.f16\.f16
// PTX: known sm_80,sm_90 1 wmma\.load\.c\.sync\.aligned\.row\.m16n16k16\.global\.f16
// PTX: known sm_80,sm_90 none activemask
#mk = affine_map<(m, n, k) -> (m, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
module attributes {gpu.container_module} {
  gpu.module @guarded {
    // Block t: D[t] = A[t] x B + 0.5
    gpu.func @mixed(%a: memref<4x16x16xf16>, %b: memref<1x16x16xf16>, %d: memref<4x16x16xf32>) kernel {
      %c0 = arith.constant 0 : index
      %t = gpu.block_id x
      %z = arith.constant 0.0 : f16
      %va = vector.transfer_read %a[%t, %c0, %c0], %z {in_bounds = [true, true]}
          : memref<4x16x16xf16>, vector<16x16xf16>
      %vb = vector.transfer_read %b[%c0, %c0, %c0], %z {in_bounds = [true, true]}
          : memref<1x16x16xf16>, vector<16x16xf16>
      %acc = arith.constant dense<0.5> : vector<16x16xf32>
      %r = vector.contract {indexing_maps = [#mk, #kn, #mn],
             iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>}
             %va, %vb, %acc : vector<16x16xf16>, vector<16x16xf16> into vector<16x16xf32>
      vector.transfer_write %r, %d[%t, %c0, %c0] {in_bounds = [true, true]}
          : vector<16x16xf32>, memref<4x16x16xf32>
      gpu.return
    }
  }
  gpu.module @known {
    // Warp w of the one block: D[t] = A[t] x B + C for tiles t = w, w + 2.
    gpu.func @half(%a: memref<4x16x16xf16>, %b: memref<1x16x16xf16>, %c: memref<1x16x16xf16>,
                   %d: memref<4x16x16xf16>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %z = arith.constant 0.0 : f16
      %w = gpu.subgroup_id : index
      %mine = arith.cmpi ult, %w, %c2 : index
      scf.if %mine {
        scf.for %t = %w to %c4 step %c2 {
          %va = vector.transfer_read %a[%t, %c0, %c0], %z {in_bounds = [true, true]}
              : memref<4x16x16xf16>, vector<16x16xf16>
          %vb = vector.transfer_read %b[%c0, %c0, %c0], %z {in_bounds = [true, true]}
              : memref<1x16x16xf16>, vector<16x16xf16>
          %vc = vector.transfer_read %c[%c0, %c0, %c0], %z {in_bounds = [true, true]}
              : memref<1x16x16xf16>, vector<16x16xf16>
          %r = vector.contract {indexing_maps = [#mk, #kn, #mn],
                 iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>}
                 %va, %vb, %vc : vector<16x16xf16>, vector<16x16xf16> into vector<16x16xf16>
          vector.transfer_write %r, %d[%t, %c0, %c0] {in_bounds = [true, true]}
              : vector<16x16xf16>, memref<4x16x16xf16>
        }
      }
      gpu.return
    }
  }

  // m[t][i][j] = ((t*mt + i*mi + j*mj) mod 7) - 3
  func.func @fill(%m: memref<?x16x16xf16>, %mt: index, %mi: index, %mj: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c7 = arith.constant 7 : index
    %c16 = arith.constant 16 : index
    %n = memref.dim %m, %c0 : memref<?x16x16xf16>
    scf.for %t = %c0 to %n step %c1 {
      scf.for %i = %c0 to %c16 step %c1 {
        scf.for %j = %c0 to %c16 step %c1 {
          %x = arith.muli %t, %mt : index
          %y = arith.muli %i, %mi : index
          %z = arith.muli %j, %mj : index
          %s = arith.addi %x, %y : index
          %s2 = arith.addi %s, %z : index
          %r = arith.remui %s2, %c7 : index
          %v = arith.subi %r, %c3 : index
          %vi = arith.index_cast %v : index to i32
          %vf = arith.sitofp %vi : i32 to f16
          memref.store %vf, %m[%t, %i, %j] : memref<?x16x16xf16>
        }
      }
    }
    return
  }

  // Elements of x that differ from y, and the sum of x.
  func.func @compare(%x: memref<4x16x16xf32>, %y: memref<4x16x16xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %zero = arith.constant 0.0 : f32
    %r:2 = scf.for %t = %c0 to %c4 step %c1 iter_args(%bad0 = %c0, %sum0 = %zero) -> (index, f32) {
      %r1:2 = scf.for %i = %c0 to %c16 step %c1 iter_args(%bad1 = %bad0, %sum1 = %sum0) -> (index, f32) {
        %r2:2 = scf.for %j = %c0 to %c16 step %c1 iter_args(%bad2 = %bad1, %sum2 = %sum1) -> (index, f32) {
          %u = memref.load %x[%t, %i, %j] : memref<4x16x16xf32>
          %v = memref.load %y[%t, %i, %j] : memref<4x16x16xf32>
          %ne = arith.cmpf une, %u, %v : f32
          %one = arith.select %ne, %c1, %c0 : index
          %bad = arith.addi %bad2, %one : index
          %sum = arith.addf %sum2, %u : f32
          scf.yield %bad, %sum : index, f32
        }
        scf.yield %r2#0, %r2#1 : index, f32
      }
      scf.yield %r1#0, %r1#1 : index, f32
    }
    %bad = arith.index_cast %r#0 : index to i64
    vector.print %bad : i64
    vector.print %r#1 : f32
    return
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c5 = arith.constant 5 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %z = arith.constant 0.0 : f16
    %ha = memref.alloc() : memref<4x16x16xf16>
    %hb = memref.alloc() : memref<1x16x16xf16>
    %hc = memref.alloc() : memref<1x16x16xf16>
    %ha_ = memref.cast %ha : memref<4x16x16xf16> to memref<?x16x16xf16>
    %hb_ = memref.cast %hb : memref<1x16x16xf16> to memref<?x16x16xf16>
    %hc_ = memref.cast %hc : memref<1x16x16xf16> to memref<?x16x16xf16>
    call @fill(%ha_, %c1, %c2, %c3) : (memref<?x16x16xf16>, index, index, index) -> ()
    call @fill(%hb_, %c0, %c3, %c5) : (memref<?x16x16xf16>, index, index, index) -> ()
    call @fill(%hc_, %c0, %c1, %c4) : (memref<?x16x16xf16>, index, index, index) -> ()

    // The same contractions in host code, as scalar loops (each thread's
    // contraction in the kernels, on small integers: exact in any order).
    %ref32 = memref.alloc() : memref<4x16x16xf32>
    %ref16 = memref.alloc() : memref<4x16x16xf32>
    %c16 = arith.constant 16 : index
    %half = arith.constant 0.5 : f32
    scf.for %t = %c0 to %c4 step %c1 {
      scf.for %i = %c0 to %c16 step %c1 {
        scf.for %j = %c0 to %c16 step %c1 {
          %acc16 = memref.load %hc[%c0, %i, %j] : memref<1x16x16xf16>
          %s:2 = scf.for %k = %c0 to %c16 step %c1 iter_args(%a32 = %half, %a16 = %acc16) -> (f32, f16) {
            %x = memref.load %ha[%t, %i, %k] : memref<4x16x16xf16>
            %y = memref.load %hb[%c0, %k, %j] : memref<1x16x16xf16>
            %x32 = arith.extf %x : f16 to f32
            %y32 = arith.extf %y : f16 to f32
            %p32 = arith.mulf %x32, %y32 : f32
            %n32 = arith.addf %a32, %p32 : f32
            %p16 = arith.mulf %x, %y : f16
            %n16 = arith.addf %a16, %p16 : f16
            scf.yield %n32, %n16 : f32, f16
          }
          memref.store %s#0, %ref32[%t, %i, %j] : memref<4x16x16xf32>
          %e16 = arith.extf %s#1 : f16 to f32
          memref.store %e16, %ref16[%t, %i, %j] : memref<4x16x16xf32>
        }
      }
    }

    %da = gpu.alloc () : memref<4x16x16xf16>
    %db = gpu.alloc () : memref<1x16x16xf16>
    %dc = gpu.alloc () : memref<1x16x16xf16>
    %d32 = gpu.alloc () : memref<4x16x16xf32>
    %d16 = gpu.alloc () : memref<4x16x16xf16>
    gpu.memcpy %da, %ha : memref<4x16x16xf16>, memref<4x16x16xf16>
    gpu.memcpy %db, %hb : memref<1x16x16xf16>, memref<1x16x16xf16>
    gpu.memcpy %dc, %hc : memref<1x16x16xf16>, memref<1x16x16xf16>
    gpu.launch_func @guarded::@mixed blocks in (%c4, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%da : memref<4x16x16xf16>, %db : memref<1x16x16xf16>, %d32 : memref<4x16x16xf32>)
    gpu.launch_func @known::@half blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%da : memref<4x16x16xf16>, %db : memref<1x16x16xf16>, %dc : memref<1x16x16xf16>,
             %d16 : memref<4x16x16xf16>)
    %h32 = memref.alloc() : memref<4x16x16xf32>
    %h16 = memref.alloc() : memref<4x16x16xf16>
    gpu.memcpy %h32, %d32 : memref<4x16x16xf32>, memref<4x16x16xf32>
    gpu.memcpy %h16, %d16 : memref<4x16x16xf16>, memref<4x16x16xf16>
    %w16 = memref.alloc() : memref<4x16x16xf32>
    scf.for %t = %c0 to %c4 step %c1 {
      %v = vector.transfer_read %h16[%t, %c0, %c0], %z {in_bounds = [true, true]} : memref<4x16x16xf16>, vector<16x16xf16>
      %e = arith.extf %v : vector<16x16xf16> to vector<16x16xf32>
      vector.transfer_write %e, %w16[%t, %c0, %c0] {in_bounds = [true, true]} : vector<16x16xf32>, memref<4x16x16xf32>
    }
    call @compare(%h32, %ref32) : (memref<4x16x16xf32>, memref<4x16x16xf32>) -> ()
    call @compare(%w16, %ref16) : (memref<4x16x16xf32>, memref<4x16x16xf32>) -> ()
    return
  }
}
