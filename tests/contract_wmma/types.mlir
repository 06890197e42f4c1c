// Warp-uniform contractions of 8-bit integers and of transposed operands
// (issue 23): on NVIDIA each is one wmma multiply (device_contract_wmma.c),
// signed or unsigned as the extension says, a transposed operand loaded
// column-major. On the host the per-thread code runs; main checks every
// kernel's tiles against the same sums in scalar host code (exact: integer
// sums, and small integers in f16 and f32).
// TARGETS: sm_75,sm_80,sm_90
// @s8: si8 x si8 -> i32 (arith.extsi), C read.
// PTX: s8 sm_75,sm_80,sm_90 1 wmma\.mma\.sync\.aligned\.row\.row\.m16n16k16\.s32\.s8\.s8\.s32
// PTX: s8 sm_75,sm_80,sm_90 1 wmma\.load\.a\.sync\.aligned\.row\.m16n16k16\.global\.s8
// PTX: s8 sm_75,sm_80,sm_90 1 wmma\.load\.c\.sync\.aligned\.row\.m16n16k16\.global\.s32
// PTX: s8 sm_75,sm_80,sm_90 1 wmma\.store\.d\.sync\.aligned\.row\.m16n16k16\.global\.s32
// @u8: ui8 x ui8 -> i32 (arith.extui), the accumulator a broadcast
// kernel argument.
// PTX: u8 sm_75,sm_80,sm_90 1 wmma\.mma\.sync\.aligned\.row\.row\.m16n16k16\.s32\.u8\.u8\.s32
// PTX: u8 sm_75,sm_80,sm_90 1 wmma\.load\.b\.sync\.aligned\.row\.m16n16k16\.global\.u8
// @mixed_sign: si8 x ui8: no wmma instruction takes it, per thread.
// PTX: mixed_sign sm_75,sm_80,sm_90 none wmma
// @bt: f16 x f16 -> f32, B stored (n, k): loaded column-major.
// PTX: bt sm_75,sm_80,sm_90 1 wmma\.mma\.sync\.aligned\.row\.col\.m16n16k16\.f32\.f32
// PTX: bt sm_75,sm_80,sm_90 1 wmma\.load\.b\.sync\.aligned\.col\.m16n16k16\.global\.f16
// @read_t: as @bt, B transposed by its read's permutation_map instead.
// PTX: read_t sm_75,sm_80,sm_90 1 wmma\.mma\.sync\.aligned\.row\.col\.m16n16k16\.f32\.f32
// PTX: read_t sm_75,sm_80,sm_90 1 wmma\.load\.b\.sync\.aligned\.col\.m16n16k16\.global\.f16
// @at: f16 x f16 -> f16, A stored (k, m).
// PTX: at sm_75,sm_80,sm_90 1 wmma\.mma\.sync\.aligned\.col\.row\.m16n16k16\.f16\.f16
// PTX: at sm_75,sm_80,sm_90 1 wmma\.load\.a\.sync\.aligned\.col\.m16n16k16\.global\.f16
#mk = affine_map<(m, n, k) -> (m, k)>
#km = affine_map<(m, n, k) -> (k, m)>
#kn = affine_map<(m, n, k) -> (k, n)>
#nk = affine_map<(m, n, k) -> (n, k)>
#mn = affine_map<(m, n, k) -> (m, n)>
module attributes {gpu.container_module} {
  // Block t: D[t] = A[t] x B + C, signed
  gpu.module @s8 {
    gpu.func @k(%a: memref<2x16x16xi8>, %b: memref<16x16xi8>, %c: memref<16x16xi32>, %d: memref<2x16x16xi32>)
        kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      %c0 = arith.constant 0 : index
      %t = gpu.block_id x
      %z = arith.constant 0 : i8
      %z32 = arith.constant 0 : i32
      %va = vector.transfer_read %a[%t, %c0, %c0], %z {in_bounds = [true, true]} : memref<2x16x16xi8>, vector<16x16xi8>
      %vb = vector.transfer_read %b[%c0, %c0], %z {in_bounds = [true, true]} : memref<16x16xi8>, vector<16x16xi8>
      %vc = vector.transfer_read %c[%c0, %c0], %z32 {in_bounds = [true, true]} : memref<16x16xi32>, vector<16x16xi32>
      %ea = arith.extsi %va : vector<16x16xi8> to vector<16x16xi32>
      %eb = arith.extsi %vb : vector<16x16xi8> to vector<16x16xi32>
      %r = vector.contract {indexing_maps = [#mk, #kn, #mn],
             iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>}
             %ea, %eb, %vc : vector<16x16xi32>, vector<16x16xi32> into vector<16x16xi32>
      vector.transfer_write %r, %d[%t, %c0, %c0] {in_bounds = [true, true]} : vector<16x16xi32>, memref<2x16x16xi32>
      gpu.return
    }
  }
  // Block t: D[t] = A[t] x B + c (7), unsigned
  gpu.module @u8 {
    gpu.func @k(%a: memref<2x16x16xi8>, %b: memref<16x16xi8>, %d: memref<2x16x16xi32>, %c: i32)
        kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      %c0 = arith.constant 0 : index
      %t = gpu.block_id x
      %z = arith.constant 0 : i8
      %va = vector.transfer_read %a[%t, %c0, %c0], %z {in_bounds = [true, true]} : memref<2x16x16xi8>, vector<16x16xi8>
      %vb = vector.transfer_read %b[%c0, %c0], %z {in_bounds = [true, true]} : memref<16x16xi8>, vector<16x16xi8>
      %ea = arith.extui %va : vector<16x16xi8> to vector<16x16xi32>
      %eb = arith.extui %vb : vector<16x16xi8> to vector<16x16xi32>
      %acc = vector.broadcast %c : i32 to vector<16x16xi32>
      %r = vector.contract {indexing_maps = [#mk, #kn, #mn],
             iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>}
             %ea, %eb, %acc : vector<16x16xi32>, vector<16x16xi32> into vector<16x16xi32>
      vector.transfer_write %r, %d[%t, %c0, %c0] {in_bounds = [true, true]} : vector<16x16xi32>, memref<2x16x16xi32>
      gpu.return
    }
  }
  // Block t: D[t] = signed A[t] x unsigned B
  gpu.module @mixed_sign {
    gpu.func @k(%a: memref<2x16x16xi8>, %b: memref<16x16xi8>, %d: memref<2x16x16xi32>)
        kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      %c0 = arith.constant 0 : index
      %t = gpu.block_id x
      %z = arith.constant 0 : i8
      %va = vector.transfer_read %a[%t, %c0, %c0], %z {in_bounds = [true, true]} : memref<2x16x16xi8>, vector<16x16xi8>
      %vb = vector.transfer_read %b[%c0, %c0], %z {in_bounds = [true, true]} : memref<16x16xi8>, vector<16x16xi8>
      %ea = arith.extsi %va : vector<16x16xi8> to vector<16x16xi32>
      %eb = arith.extui %vb : vector<16x16xi8> to vector<16x16xi32>
      %acc = arith.constant dense<0> : vector<16x16xi32>
      %r = vector.contract {indexing_maps = [#mk, #kn, #mn],
             iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>}
             %ea, %eb, %acc : vector<16x16xi32>, vector<16x16xi32> into vector<16x16xi32>
      vector.transfer_write %r, %d[%t, %c0, %c0] {in_bounds = [true, true]} : vector<16x16xi32>, memref<2x16x16xi32>
      gpu.return
    }
  }
  // Block t: D[t][m][n] = sum_k A[t][m][k] * Bt[n][k]
  gpu.module @bt {
    gpu.func @k(%a: memref<2x16x16xf16>, %b: memref<16x16xf16>, %d: memref<2x16x16xf32>) kernel {
      %c0 = arith.constant 0 : index
      %t = gpu.block_id x
      %z = arith.constant 0.0 : f16
      %va = vector.transfer_read %a[%t, %c0, %c0], %z {in_bounds = [true, true]} : memref<2x16x16xf16>, vector<16x16xf16>
      %vb = vector.transfer_read %b[%c0, %c0], %z {in_bounds = [true, true]} : memref<16x16xf16>, vector<16x16xf16>
      %acc = arith.constant dense<0.0> : vector<16x16xf32>
      %r = vector.contract {indexing_maps = [#mk, #nk, #mn],
             iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>}
             %va, %vb, %acc : vector<16x16xf16>, vector<16x16xf16> into vector<16x16xf32>
      vector.transfer_write %r, %d[%t, %c0, %c0] {in_bounds = [true, true]} : vector<16x16xf32>, memref<2x16x16xf32>
      gpu.return
    }
  }
  // As @bt, the transposition in B's read
  gpu.module @read_t {
    gpu.func @k(%a: memref<2x16x16xf16>, %b: memref<16x16xf16>, %d: memref<2x16x16xf32>) kernel {
      %c0 = arith.constant 0 : index
      %t = gpu.block_id x
      %z = arith.constant 0.0 : f16
      %va = vector.transfer_read %a[%t, %c0, %c0], %z {in_bounds = [true, true]} : memref<2x16x16xf16>, vector<16x16xf16>
      %vb = vector.transfer_read %b[%c0, %c0], %z
          {in_bounds = [true, true], permutation_map = affine_map<(d0, d1) -> (d1, d0)>}
          : memref<16x16xf16>, vector<16x16xf16>
      %acc = arith.constant dense<0.0> : vector<16x16xf32>
      %r = vector.contract {indexing_maps = [#mk, #kn, #mn],
             iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>}
             %va, %vb, %acc : vector<16x16xf16>, vector<16x16xf16> into vector<16x16xf32>
      vector.transfer_write %r, %d[%t, %c0, %c0] {in_bounds = [true, true]} : vector<16x16xf32>, memref<2x16x16xf32>
      gpu.return
    }
  }
  // Block t: D[t][m][n] = sum_k At[t][k][m] * B[k][n] + C[m][n], in f16
  gpu.module @at {
    gpu.func @k(%a: memref<2x16x16xf16>, %b: memref<16x16xf16>, %c: memref<16x16xf16>, %d: memref<2x16x16xf16>)
        kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      %c0 = arith.constant 0 : index
      %t = gpu.block_id x
      %z = arith.constant 0.0 : f16
      %va = vector.transfer_read %a[%t, %c0, %c0], %z {in_bounds = [true, true]} : memref<2x16x16xf16>, vector<16x16xf16>
      %vb = vector.transfer_read %b[%c0, %c0], %z {in_bounds = [true, true]} : memref<16x16xf16>, vector<16x16xf16>
      %vc = vector.transfer_read %c[%c0, %c0], %z {in_bounds = [true, true]} : memref<16x16xf16>, vector<16x16xf16>
      %r = vector.contract {indexing_maps = [#km, #kn, #mn],
             iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>}
             %va, %vb, %vc : vector<16x16xf16>, vector<16x16xf16> into vector<16x16xf16>
      vector.transfer_write %r, %d[%t, %c0, %c0] {in_bounds = [true, true]} : vector<16x16xf16>, memref<2x16x16xf16>
      gpu.return
    }
  }

  // m[t][i][j] = (t*mt + i*mi + j*mj) mod 256 as i8 (so half of them are
  // negative as signed)
  func.func @fill(%m: memref<?x16x16xi8>, %mt: index, %mi: index, %mj: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %c256 = arith.constant 256 : index
    %n = memref.dim %m, %c0 : memref<?x16x16xi8>
    scf.for %t = %c0 to %n step %c1 {
      scf.for %i = %c0 to %c16 step %c1 {
        scf.for %j = %c0 to %c16 step %c1 {
          %x = arith.muli %t, %mt : index
          %y = arith.muli %i, %mi : index
          %z = arith.muli %j, %mj : index
          %s = arith.addi %x, %y : index
          %s2 = arith.addi %s, %z : index
          %r = arith.remui %s2, %c256 : index
          %v = arith.index_cast %r : index to i8
          memref.store %v, %m[%t, %i, %j] : memref<?x16x16xi8>
        }
      }
    }
    return
  }

  // The i8 values as small floats: (v mod 7) - 3, exact in f16.
  func.func @small(%x: memref<?x16x16xi8>, %y: memref<?x16x16xf16>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %c7 = arith.constant 7 : i32
    %c3 = arith.constant 3 : i32
    %n = memref.dim %x, %c0 : memref<?x16x16xi8>
    scf.for %t = %c0 to %n step %c1 {
      scf.for %i = %c0 to %c16 step %c1 {
        scf.for %j = %c0 to %c16 step %c1 {
          %v = memref.load %x[%t, %i, %j] : memref<?x16x16xi8>
          %w = arith.extui %v : i8 to i32
          %r = arith.remui %w, %c7 : i32
          %s = arith.subi %r, %c3 : i32
          %f = arith.sitofp %s : i32 to f16
          memref.store %f, %y[%t, %i, %j] : memref<?x16x16xf16>
        }
      }
    }
    return
  }

  // ref[t][i][j] = sum_k ext(a[t][i][k]) * ext(b[k][j]) + c[i][j], ext
  // signed where sa (sb) says
  func.func @ref_i8(%a: memref<2x16x16xi8>, %b: memref<16x16xi8>, %c: memref<16x16xi32>, %sa: i1, %sb: i1,
                    %ref: memref<2x16x16xi32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c16 = arith.constant 16 : index
    scf.for %t = %c0 to %c2 step %c1 {
      scf.for %i = %c0 to %c16 step %c1 {
        scf.for %j = %c0 to %c16 step %c1 {
          %init = memref.load %c[%i, %j] : memref<16x16xi32>
          %s = scf.for %k = %c0 to %c16 step %c1 iter_args(%acc = %init) -> (i32) {
            %x = memref.load %a[%t, %i, %k] : memref<2x16x16xi8>
            %y = memref.load %b[%k, %j] : memref<16x16xi8>
            %xs = arith.extsi %x : i8 to i32
            %xu = arith.extui %x : i8 to i32
            %ys = arith.extsi %y : i8 to i32
            %yu = arith.extui %y : i8 to i32
            %x32 = arith.select %sa, %xs, %xu : i32
            %y32 = arith.select %sb, %ys, %yu : i32
            %p = arith.muli %x32, %y32 : i32
            %n = arith.addi %acc, %p : i32
            scf.yield %n : i32
          }
          memref.store %s, %ref[%t, %i, %j] : memref<2x16x16xi32>
        }
      }
    }
    return
  }

  // ref[t][i][j] = sum_k a(t, i, k) * b(k, j) + c[i][j] in f32, a and b
  // read transposed where ta (tb) says
  func.func @ref_f16(%a: memref<2x16x16xf16>, %b: memref<16x16xf16>, %c: memref<16x16xf16>, %ta: i1, %tb: i1,
                     %ref: memref<2x16x16xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c16 = arith.constant 16 : index
    scf.for %t = %c0 to %c2 step %c1 {
      scf.for %i = %c0 to %c16 step %c1 {
        scf.for %j = %c0 to %c16 step %c1 {
          %c16v = memref.load %c[%i, %j] : memref<16x16xf16>
          %init = arith.extf %c16v : f16 to f32
          %s = scf.for %k = %c0 to %c16 step %c1 iter_args(%acc = %init) -> (f32) {
            %ai = arith.select %ta, %k, %i : index
            %ak = arith.select %ta, %i, %k : index
            %bk = arith.select %tb, %j, %k : index
            %bj = arith.select %tb, %k, %j : index
            %x = memref.load %a[%t, %ai, %ak] : memref<2x16x16xf16>
            %y = memref.load %b[%bk, %bj] : memref<16x16xf16>
            %x32 = arith.extf %x : f16 to f32
            %y32 = arith.extf %y : f16 to f32
            %p = arith.mulf %x32, %y32 : f32
            %n = arith.addf %acc, %p : f32
            scf.yield %n : f32
          }
          memref.store %s, %ref[%t, %i, %j] : memref<2x16x16xf32>
        }
      }
    }
    return
  }

  // Elements of x that differ from y, and the sum of x.
  func.func @compare_i32(%x: memref<2x16x16xi32>, %y: memref<2x16x16xi32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c512 = arith.constant 512 : index
    %xf = memref.collapse_shape %x [[0, 1, 2]] : memref<2x16x16xi32> into memref<512xi32>
    %yf = memref.collapse_shape %y [[0, 1, 2]] : memref<2x16x16xi32> into memref<512xi32>
    %zero = arith.constant 0 : i64
    %r:2 = scf.for %e = %c0 to %c512 step %c1 iter_args(%bad0 = %zero, %sum0 = %zero) -> (i64, i64) {
      %u = memref.load %xf[%e] : memref<512xi32>
      %v = memref.load %yf[%e] : memref<512xi32>
      %ne = arith.cmpi ne, %u, %v : i32
      %one = arith.extui %ne : i1 to i64
      %bad = arith.addi %bad0, %one : i64
      %u64 = arith.extsi %u : i32 to i64
      %sum = arith.addi %sum0, %u64 : i64
      scf.yield %bad, %sum : i64, i64
    }
    vector.print %r#0 : i64
    vector.print %r#1 : i64
    return
  }

  func.func @compare_f32(%x: memref<2x16x16xf32>, %y: memref<2x16x16xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c512 = arith.constant 512 : index
    %xf = memref.collapse_shape %x [[0, 1, 2]] : memref<2x16x16xf32> into memref<512xf32>
    %yf = memref.collapse_shape %y [[0, 1, 2]] : memref<2x16x16xf32> into memref<512xf32>
    %zero = arith.constant 0 : i64
    %fzero = arith.constant 0.0 : f32
    %r:2 = scf.for %e = %c0 to %c512 step %c1 iter_args(%bad0 = %zero, %sum0 = %fzero) -> (i64, f32) {
      %u = memref.load %xf[%e] : memref<512xf32>
      %v = memref.load %yf[%e] : memref<512xf32>
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
    %c11 = arith.constant 11 : index
    %c13 = arith.constant 13 : index
    %c37 = arith.constant 37 : index
    %c64 = arith.constant 64 : index
    %true = arith.constant true
    %false = arith.constant false
    %ha = memref.alloc() : memref<2x16x16xi8>
    %hb = memref.alloc() : memref<1x16x16xi8>
    %hc8 = memref.alloc() : memref<1x16x16xi8>
    %ha_ = memref.cast %ha : memref<2x16x16xi8> to memref<?x16x16xi8>
    %hb_ = memref.cast %hb : memref<1x16x16xi8> to memref<?x16x16xi8>
    %hc8_ = memref.cast %hc8 : memref<1x16x16xi8> to memref<?x16x16xi8>
    call @fill(%ha_, %c37, %c13, %c7) : (memref<?x16x16xi8>, index, index, index) -> ()
    call @fill(%hb_, %c0, %c11, %c5) : (memref<?x16x16xi8>, index, index, index) -> ()
    call @fill(%hc8_, %c0, %c3, %c64) : (memref<?x16x16xi8>, index, index, index) -> ()
    %hb2 = memref.collapse_shape %hb [[0, 1], [2]] : memref<1x16x16xi8> into memref<16x16xi8>
    // C as i32: the i8 fill times 3, minus 300
    %hc = memref.alloc() : memref<16x16xi32>
    %hc7 = memref.alloc() : memref<16x16xi32>
    %c16 = arith.constant 16 : index
    %m300 = arith.constant -300 : i32
    %i3 = arith.constant 3 : i32
    %i7 = arith.constant 7 : i32
    scf.for %i = %c0 to %c16 step %c1 {
      scf.for %j = %c0 to %c16 step %c1 {
        %v = memref.load %hc8[%c0, %i, %j] : memref<1x16x16xi8>
        %w = arith.extui %v : i8 to i32
        %x = arith.muli %w, %i3 : i32
        %y = arith.addi %x, %m300 : i32
        memref.store %y, %hc[%i, %j] : memref<16x16xi32>
        memref.store %i7, %hc7[%i, %j] : memref<16x16xi32>
      }
    }
    // f16 tiles: small integers from the same bytes
    %fa = memref.alloc() : memref<2x16x16xf16>
    %fb = memref.alloc() : memref<1x16x16xf16>
    %fc = memref.alloc() : memref<1x16x16xf16>
    %fa_ = memref.cast %fa : memref<2x16x16xf16> to memref<?x16x16xf16>
    %fb_ = memref.cast %fb : memref<1x16x16xf16> to memref<?x16x16xf16>
    %fc_ = memref.cast %fc : memref<1x16x16xf16> to memref<?x16x16xf16>
    call @small(%ha_, %fa_) : (memref<?x16x16xi8>, memref<?x16x16xf16>) -> ()
    call @small(%hb_, %fb_) : (memref<?x16x16xi8>, memref<?x16x16xf16>) -> ()
    call @small(%hc8_, %fc_) : (memref<?x16x16xi8>, memref<?x16x16xf16>) -> ()
    %fb2 = memref.collapse_shape %fb [[0, 1], [2]] : memref<1x16x16xf16> into memref<16x16xf16>
    %fc2 = memref.collapse_shape %fc [[0, 1], [2]] : memref<1x16x16xf16> into memref<16x16xf16>
    %fz = memref.alloc() : memref<16x16xf16>
    %zh = arith.constant 0.0 : f16
    linalg.fill ins(%zh : f16) outs(%fz : memref<16x16xf16>)

    %rs = memref.alloc() : memref<2x16x16xi32>
    %ru = memref.alloc() : memref<2x16x16xi32>
    %rm = memref.alloc() : memref<2x16x16xi32>
    %rbt = memref.alloc() : memref<2x16x16xf32>
    %rat = memref.alloc() : memref<2x16x16xf32>
    call @ref_i8(%ha, %hb2, %hc, %true, %true, %rs)
        : (memref<2x16x16xi8>, memref<16x16xi8>, memref<16x16xi32>, i1, i1, memref<2x16x16xi32>) -> ()
    call @ref_i8(%ha, %hb2, %hc7, %false, %false, %ru)
        : (memref<2x16x16xi8>, memref<16x16xi8>, memref<16x16xi32>, i1, i1, memref<2x16x16xi32>) -> ()
    %hz = memref.alloc() : memref<16x16xi32>
    %i0 = arith.constant 0 : i32
    linalg.fill ins(%i0 : i32) outs(%hz : memref<16x16xi32>)
    call @ref_i8(%ha, %hb2, %hz, %true, %false, %rm)
        : (memref<2x16x16xi8>, memref<16x16xi8>, memref<16x16xi32>, i1, i1, memref<2x16x16xi32>) -> ()
    call @ref_f16(%fa, %fb2, %fz, %false, %true, %rbt)
        : (memref<2x16x16xf16>, memref<16x16xf16>, memref<16x16xf16>, i1, i1, memref<2x16x16xf32>) -> ()
    call @ref_f16(%fa, %fb2, %fc2, %true, %false, %rat)
        : (memref<2x16x16xf16>, memref<16x16xf16>, memref<16x16xf16>, i1, i1, memref<2x16x16xf32>) -> ()

    %da = gpu.alloc () : memref<2x16x16xi8>
    %db = gpu.alloc () : memref<16x16xi8>
    %dc = gpu.alloc () : memref<16x16xi32>
    %ds = gpu.alloc () : memref<2x16x16xi32>
    %du = gpu.alloc () : memref<2x16x16xi32>
    %dm = gpu.alloc () : memref<2x16x16xi32>
    %dfa = gpu.alloc () : memref<2x16x16xf16>
    %dfb = gpu.alloc () : memref<16x16xf16>
    %dfc = gpu.alloc () : memref<16x16xf16>
    %dbt = gpu.alloc () : memref<2x16x16xf32>
    %dat = gpu.alloc () : memref<2x16x16xf16>
    %drt = gpu.alloc () : memref<2x16x16xf32>
    gpu.memcpy %da, %ha : memref<2x16x16xi8>, memref<2x16x16xi8>
    gpu.memcpy %db, %hb2 : memref<16x16xi8>, memref<16x16xi8>
    gpu.memcpy %dc, %hc : memref<16x16xi32>, memref<16x16xi32>
    gpu.memcpy %dfa, %fa : memref<2x16x16xf16>, memref<2x16x16xf16>
    gpu.memcpy %dfb, %fb2 : memref<16x16xf16>, memref<16x16xf16>
    gpu.memcpy %dfc, %fc2 : memref<16x16xf16>, memref<16x16xf16>
    %c32 = arith.constant 32 : index
    gpu.launch_func @s8::@k blocks in (%c2, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%da : memref<2x16x16xi8>, %db : memref<16x16xi8>, %dc : memref<16x16xi32>, %ds : memref<2x16x16xi32>)
    gpu.launch_func @u8::@k blocks in (%c2, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%da : memref<2x16x16xi8>, %db : memref<16x16xi8>, %du : memref<2x16x16xi32>, %i7 : i32)
    gpu.launch_func @mixed_sign::@k blocks in (%c2, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%da : memref<2x16x16xi8>, %db : memref<16x16xi8>, %dm : memref<2x16x16xi32>)
    gpu.launch_func @bt::@k blocks in (%c2, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%dfa : memref<2x16x16xf16>, %dfb : memref<16x16xf16>, %dbt : memref<2x16x16xf32>)
    gpu.launch_func @read_t::@k blocks in (%c2, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%dfa : memref<2x16x16xf16>, %dfb : memref<16x16xf16>, %drt : memref<2x16x16xf32>)
    gpu.launch_func @at::@k blocks in (%c2, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%dfa : memref<2x16x16xf16>, %dfb : memref<16x16xf16>, %dfc : memref<16x16xf16>,
             %dat : memref<2x16x16xf16>)
    %gs = memref.alloc() : memref<2x16x16xi32>
    %gu = memref.alloc() : memref<2x16x16xi32>
    %gm = memref.alloc() : memref<2x16x16xi32>
    %gbt = memref.alloc() : memref<2x16x16xf32>
    %gat16 = memref.alloc() : memref<2x16x16xf16>
    %grt = memref.alloc() : memref<2x16x16xf32>
    gpu.memcpy %grt, %drt : memref<2x16x16xf32>, memref<2x16x16xf32>
    gpu.memcpy %gs, %ds : memref<2x16x16xi32>, memref<2x16x16xi32>
    gpu.memcpy %gu, %du : memref<2x16x16xi32>, memref<2x16x16xi32>
    gpu.memcpy %gm, %dm : memref<2x16x16xi32>, memref<2x16x16xi32>
    gpu.memcpy %gbt, %dbt : memref<2x16x16xf32>, memref<2x16x16xf32>
    gpu.memcpy %gat16, %dat : memref<2x16x16xf16>, memref<2x16x16xf16>
    %gat = memref.alloc() : memref<2x16x16xf32>
    scf.for %t = %c0 to %c2 step %c1 {
      %v = vector.transfer_read %gat16[%t, %c0, %c0], %zh {in_bounds = [true, true]} : memref<2x16x16xf16>, vector<16x16xf16>
      %e = arith.extf %v : vector<16x16xf16> to vector<16x16xf32>
      vector.transfer_write %e, %gat[%t, %c0, %c0] {in_bounds = [true, true]} : vector<16x16xf32>, memref<2x16x16xf32>
    }
    call @compare_i32(%gs, %rs) : (memref<2x16x16xi32>, memref<2x16x16xi32>) -> ()
    call @compare_i32(%gu, %ru) : (memref<2x16x16xi32>, memref<2x16x16xi32>) -> ()
    call @compare_i32(%gm, %rm) : (memref<2x16x16xi32>, memref<2x16x16xi32>) -> ()
    call @compare_f32(%gbt, %rbt) : (memref<2x16x16xf32>, memref<2x16x16xf32>) -> ()
    call @compare_f32(%grt, %rbt) : (memref<2x16x16xf32>, memref<2x16x16xf32>) -> ()
    call @compare_f32(%gat, %rat) : (memref<2x16x16xf32>, memref<2x16x16xf32>) -> ()
    return
  }
}
