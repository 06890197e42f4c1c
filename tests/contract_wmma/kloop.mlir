// A matmul's k-loop of warp-uniform contractions (issue 23): the
// accumulator is an scf.for iter_arg, so on NVIDIA it stays a wmma
// fragment across the iterations, stored once after the loop
// (device_contract_wmma_loop.c). On the host the per-thread code runs;
// main checks both kernels' tiles against the same sums in scalar host
// code (small integers: exact in any order).
// TARGETS: sm_75,sm_80,sm_90
// @f16: f16 x f16 -> f32, K = 64 in steps of 16, splat init, no
// known_block_size (activemask): mma in the loop (unrolled by LLVM),
// one store after it.
// PTX: f16 sm_75,sm_80,sm_90 some wmma\.mma\.sync\.aligned\.row\.row\.m16n16k16\.f32\.f32
// PTX: f16 sm_75,sm_80,sm_90 1 wmma\.store\.d\.sync\.aligned\.row\.m16n16k16\.global\.f32
// PTX: f16 sm_75,sm_80,sm_90 none wmma\.load\.c
// PTX: f16 sm_75,sm_80,sm_90 some activemask\.b32
// @s8: si8 x si8 -> i32, A stored (k, m) and read at k + 16, C read
// before the loop, 32-thread blocks promised.
// PTX: s8 sm_75,sm_80,sm_90 some wmma\.mma\.sync\.aligned\.col\.row\.m16n16k16\.s32\.s8\.s8\.s32
// PTX: s8 sm_75,sm_80,sm_90 some wmma\.load\.a\.sync\.aligned\.col\.m16n16k16\.global\.s8
// PTX: s8 sm_75,sm_80,sm_90 1 wmma\.load\.c\.sync\.aligned\.row\.m16n16k16\.global\.s32
// PTX: s8 sm_75,sm_80,sm_90 none activemask
// @staged: as @f16, each k-step's tiles first copied into workgroup
// memory by the lanes together, between barriers. (The warp's version
// runs where the workgroup buffers start on 32 bytes: on NVIDIA as ptxas
// places them; the host backend aligns them less, so there the rewritten
// program takes the per-thread branch.)
// PTX: staged sm_75,sm_80,sm_90 some wmma\.mma\.sync\.aligned\.row\.row\.m16n16k16\.f32\.f32
// PTX: staged sm_75,sm_80,sm_90 some wmma\.load\.a\.sync\.aligned\.row\.m16n16k16\.shared\.f16
// PTX: staged sm_75,sm_80,sm_90 1 wmma\.store\.d\.sync\.aligned\.row\.m16n16k16\.global\.f32
// @carried: the loop also counts its iterations: per thread.
// PTX: carried sm_75,sm_80,sm_90 none wmma
#mk = affine_map<(m, n, k) -> (m, k)>
#km = affine_map<(m, n, k) -> (k, m)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
module attributes {gpu.container_module} {
  // D = A (16x64) x B (64x16) + 1
  gpu.module @f16 {
    gpu.func @k(%a: memref<16x64xf16>, %b: memref<64x16xf16>, %d: memref<16x16xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %c64 = arith.constant 64 : index
      %z = arith.constant 0.0 : f16
      %init = arith.constant dense<1.0> : vector<16x16xf32>
      %r = scf.for %k = %c0 to %c64 step %c16 iter_args(%acc = %init) -> (vector<16x16xf32>) {
        %va = vector.transfer_read %a[%c0, %k], %z {in_bounds = [true, true]} : memref<16x64xf16>, vector<16x16xf16>
        %vb = vector.transfer_read %b[%k, %c0], %z {in_bounds = [true, true]} : memref<64x16xf16>, vector<16x16xf16>
        %p = vector.contract {indexing_maps = [#mk, #kn, #mn],
               iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>}
               %va, %vb, %acc : vector<16x16xf16>, vector<16x16xf16> into vector<16x16xf32>
        scf.yield %p : vector<16x16xf32>
      }
      vector.transfer_write %r, %d[%c0, %c0] {in_bounds = [true, true]} : vector<16x16xf32>, memref<16x16xf32>
      gpu.return
    }
  }
  // D = At[16..80) as (k, m), x B (64x16) + C
  gpu.module @s8 {
    gpu.func @k(%a: memref<80x16xi8>, %b: memref<64x16xi8>, %c: memref<16x16xi32>, %d: memref<16x16xi32>)
        kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %c64 = arith.constant 64 : index
      %z = arith.constant 0 : i8
      %z32 = arith.constant 0 : i32
      %init = vector.transfer_read %c[%c0, %c0], %z32 {in_bounds = [true, true]} : memref<16x16xi32>, vector<16x16xi32>
      %r = scf.for %k = %c0 to %c64 step %c16 iter_args(%acc = %init) -> (vector<16x16xi32>) {
        %ka = arith.addi %k, %c16 : index
        %va = vector.transfer_read %a[%ka, %c0], %z {in_bounds = [true, true]} : memref<80x16xi8>, vector<16x16xi8>
        %vb = vector.transfer_read %b[%k, %c0], %z {in_bounds = [true, true]} : memref<64x16xi8>, vector<16x16xi8>
        %ea = arith.extsi %va : vector<16x16xi8> to vector<16x16xi32>
        %eb = arith.extsi %vb : vector<16x16xi8> to vector<16x16xi32>
        %p = vector.contract {indexing_maps = [#km, #kn, #mn],
               iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>}
               %ea, %eb, %acc : vector<16x16xi32>, vector<16x16xi32> into vector<16x16xi32>
        scf.yield %p : vector<16x16xi32>
      }
      vector.transfer_write %r, %d[%c0, %c0] {in_bounds = [true, true]} : vector<16x16xi32>, memref<16x16xi32>
      gpu.return
    }
  }
  // As @f16, lanes 0-15 staging A's rows and 16-31 B's in workgroup memory
  gpu.module @staged {
    gpu.func @k(%a: memref<16x64xf16>, %b: memref<64x16xf16>, %d: memref<16x16xf32>)
        workgroup(%sa: memref<16x16xf16, #gpu.address_space<workgroup>>,
                  %sb: memref<16x16xf16, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %c64 = arith.constant 64 : index
      %z = arith.constant 0.0 : f16
      %l = gpu.thread_id x
      %low = arith.cmpi ult, %l, %c16 : index
      %init = arith.constant dense<1.0> : vector<16x16xf32>
      %r = scf.for %k = %c0 to %c64 step %c16 iter_args(%acc = %init) -> (vector<16x16xf32>) {
        scf.if %low {
          %row = vector.transfer_read %a[%l, %k], %z {in_bounds = [true]} : memref<16x64xf16>, vector<16xf16>
          vector.transfer_write %row, %sa[%l, %c0] {in_bounds = [true]}
              : vector<16xf16>, memref<16x16xf16, #gpu.address_space<workgroup>>
        } else {
          %lb = arith.subi %l, %c16 : index
          %kb = arith.addi %k, %lb : index
          %row = vector.transfer_read %b[%kb, %c0], %z {in_bounds = [true]} : memref<64x16xf16>, vector<16xf16>
          vector.transfer_write %row, %sb[%lb, %c0] {in_bounds = [true]}
              : vector<16xf16>, memref<16x16xf16, #gpu.address_space<workgroup>>
        }
        gpu.barrier
        %va = vector.transfer_read %sa[%c0, %c0], %z {in_bounds = [true, true]}
            : memref<16x16xf16, #gpu.address_space<workgroup>>, vector<16x16xf16>
        %vb = vector.transfer_read %sb[%c0, %c0], %z {in_bounds = [true, true]}
            : memref<16x16xf16, #gpu.address_space<workgroup>>, vector<16x16xf16>
        %p = vector.contract {indexing_maps = [#mk, #kn, #mn],
               iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>}
               %va, %vb, %acc : vector<16x16xf16>, vector<16x16xf16> into vector<16x16xf32>
        gpu.barrier
        scf.yield %p : vector<16x16xf32>
      }
      vector.transfer_write %r, %d[%c0, %c0] {in_bounds = [true, true]} : vector<16x16xf32>, memref<16x16xf32>
      gpu.return
    }
  }
  // As @f16, the loop carrying a second value.
  gpu.module @carried {
    gpu.func @k(%a: memref<16x64xf16>, %b: memref<64x16xf16>, %d: memref<16x16xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %c64 = arith.constant 64 : index
      %z = arith.constant 0.0 : f16
      %init = arith.constant dense<1.0> : vector<16x16xf32>
      %r:2 = scf.for %k = %c0 to %c64 step %c16 iter_args(%acc = %init, %n = %c0) -> (vector<16x16xf32>, index) {
        %va = vector.transfer_read %a[%c0, %k], %z {in_bounds = [true, true]} : memref<16x64xf16>, vector<16x16xf16>
        %vb = vector.transfer_read %b[%k, %c0], %z {in_bounds = [true, true]} : memref<64x16xf16>, vector<16x16xf16>
        %p = vector.contract {indexing_maps = [#mk, #kn, #mn],
               iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>}
               %va, %vb, %acc : vector<16x16xf16>, vector<16x16xf16> into vector<16x16xf32>
        %n1 = arith.addi %n, %c1 : index
        scf.yield %p, %n1 : vector<16x16xf32>, index
      }
      vector.transfer_write %r#0, %d[%c0, %c0] {in_bounds = [true, true]} : vector<16x16xf32>, memref<16x16xf32>
      gpu.return
    }
  }

  // Elements of x that differ from y, and the sum of x.
  func.func @compare(%x: memref<16x16xf32>, %y: memref<16x16xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %xf = memref.collapse_shape %x [[0, 1]] : memref<16x16xf32> into memref<256xf32>
    %yf = memref.collapse_shape %y [[0, 1]] : memref<16x16xf32> into memref<256xf32>
    %zero = arith.constant 0 : i64
    %fzero = arith.constant 0.0 : f32
    %r:2 = scf.for %e = %c0 to %c256 step %c1 iter_args(%bad0 = %zero, %sum0 = %fzero) -> (i64, f32) {
      %u = memref.load %xf[%e] : memref<256xf32>
      %v = memref.load %yf[%e] : memref<256xf32>
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
    %c3 = arith.constant 3 : index
    %c7 = arith.constant 7 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %c80 = arith.constant 80 : index
    // a[i][j] = ((3i + 5j) mod 7) - 3 in f16 and i8 (80 rows for the
    // i8 one: At[k][m]), b[i][j] = ((7i + j) mod 7) - 3
    %fa = memref.alloc() : memref<16x64xf16>
    %fb = memref.alloc() : memref<64x16xf16>
    %ia = memref.alloc() : memref<80x16xi8>
    %ib = memref.alloc() : memref<64x16xi8>
    %ic = memref.alloc() : memref<16x16xi32>
    scf.for %i = %c0 to %c80 step %c1 {
      scf.for %j = %c0 to %c64 step %c1 {
        %x = arith.muli %i, %c3 : index
        %y = arith.muli %j, %c7 : index
        %s = arith.addi %x, %y : index
        %r = arith.remui %s, %c7 : index
        %v = arith.subi %r, %c3 : index
        %v32 = arith.index_cast %v : index to i32
        %v8 = arith.trunci %v32 : i32 to i8
        %vf = arith.sitofp %v32 : i32 to f16
        %in16 = arith.cmpi ult, %i, %c16 : index
        scf.if %in16 {
          memref.store %vf, %fa[%i, %j] : memref<16x64xf16>
          %lowj = arith.cmpi ult, %j, %c16 : index
          scf.if %lowj {
            %w = arith.muli %v32, %v32 : i32
            memref.store %w, %ic[%i, %j] : memref<16x16xi32>
          }
        }
        %j16 = arith.cmpi ult, %j, %c16 : index
        scf.if %j16 {
          memref.store %v8, %ia[%i, %j] : memref<80x16xi8>
          %in64 = arith.cmpi ult, %i, %c64 : index
          scf.if %in64 {
            %u = arith.addi %v32, %v32 : i32
            %u8 = arith.trunci %u : i32 to i8
            %uf = arith.sitofp %u : i32 to f16
            memref.store %uf, %fb[%i, %j] : memref<64x16xf16>
            memref.store %u8, %ib[%i, %j] : memref<64x16xi8>
          }
        }
      }
    }
    // the same sums in scalar code, in f32 (exact) for both
    %rf = memref.alloc() : memref<16x16xf32>
    %rs = memref.alloc() : memref<16x16xf32>
    %one = arith.constant 1.0 : f32
    scf.for %i = %c0 to %c16 step %c1 {
      scf.for %j = %c0 to %c16 step %c1 {
        %ci = memref.load %ic[%i, %j] : memref<16x16xi32>
        %cf = arith.sitofp %ci : i32 to f32
        %s:2 = scf.for %k = %c0 to %c64 step %c1 iter_args(%sf = %one, %ss = %cf) -> (f32, f32) {
          %x = memref.load %fa[%i, %k] : memref<16x64xf16>
          %y = memref.load %fb[%k, %j] : memref<64x16xf16>
          %x32 = arith.extf %x : f16 to f32
          %y32 = arith.extf %y : f16 to f32
          %p = arith.mulf %x32, %y32 : f32
          %nf = arith.addf %sf, %p : f32
          %k16 = arith.addi %k, %c16 : index
          %xa = memref.load %ia[%k16, %i] : memref<80x16xi8>
          %yb = memref.load %ib[%k, %j] : memref<64x16xi8>
          %xa32 = arith.sitofp %xa : i8 to f32
          %yb32 = arith.sitofp %yb : i8 to f32
          %q = arith.mulf %xa32, %yb32 : f32
          %ns = arith.addf %ss, %q : f32
          scf.yield %nf, %ns : f32, f32
        }
        memref.store %s#0, %rf[%i, %j] : memref<16x16xf32>
        memref.store %s#1, %rs[%i, %j] : memref<16x16xf32>
      }
    }

    %dfa = gpu.alloc () : memref<16x64xf16>
    %dfb = gpu.alloc () : memref<64x16xf16>
    %dia = gpu.alloc () : memref<80x16xi8>
    %dib = gpu.alloc () : memref<64x16xi8>
    %dic = gpu.alloc () : memref<16x16xi32>
    %df = gpu.alloc () : memref<16x16xf32>
    %ds = gpu.alloc () : memref<16x16xi32>
    %dc = gpu.alloc () : memref<16x16xf32>
    %dg = gpu.alloc () : memref<16x16xf32>
    gpu.memcpy %dfa, %fa : memref<16x64xf16>, memref<16x64xf16>
    gpu.memcpy %dfb, %fb : memref<64x16xf16>, memref<64x16xf16>
    gpu.memcpy %dia, %ia : memref<80x16xi8>, memref<80x16xi8>
    gpu.memcpy %dib, %ib : memref<64x16xi8>, memref<64x16xi8>
    gpu.memcpy %dic, %ic : memref<16x16xi32>, memref<16x16xi32>
    gpu.launch_func @f16::@k blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%dfa : memref<16x64xf16>, %dfb : memref<64x16xf16>, %df : memref<16x16xf32>)
    gpu.launch_func @s8::@k blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%dia : memref<80x16xi8>, %dib : memref<64x16xi8>, %dic : memref<16x16xi32>, %ds : memref<16x16xi32>)
    gpu.launch_func @staged::@k blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%dfa : memref<16x64xf16>, %dfb : memref<64x16xf16>, %dg : memref<16x16xf32>)
    gpu.launch_func @carried::@k blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%dfa : memref<16x64xf16>, %dfb : memref<64x16xf16>, %dc : memref<16x16xf32>)
    %hf = memref.alloc() : memref<16x16xf32>
    %hs = memref.alloc() : memref<16x16xi32>
    %hc = memref.alloc() : memref<16x16xf32>
    %hg = memref.alloc() : memref<16x16xf32>
    gpu.memcpy %hg, %dg : memref<16x16xf32>, memref<16x16xf32>
    gpu.memcpy %hf, %df : memref<16x16xf32>, memref<16x16xf32>
    gpu.memcpy %hs, %ds : memref<16x16xi32>, memref<16x16xi32>
    gpu.memcpy %hc, %dc : memref<16x16xf32>, memref<16x16xf32>
    %hsf = memref.alloc() : memref<16x16xf32>
    scf.for %i = %c0 to %c16 step %c1 {
      scf.for %j = %c0 to %c16 step %c1 {
        %v = memref.load %hs[%i, %j] : memref<16x16xi32>
        %f = arith.sitofp %v : i32 to f32
        memref.store %f, %hsf[%i, %j] : memref<16x16xf32>
      }
    }
    call @compare(%hf, %rf) : (memref<16x16xf32>, memref<16x16xf32>) -> ()
    call @compare(%hsf, %rs) : (memref<16x16xf32>, memref<16x16xf32>) -> ()
    call @compare(%hg, %rf) : (memref<16x16xf32>, memref<16x16xf32>) -> ()
    call @compare(%hc, %rf) : (memref<16x16xf32>, memref<16x16xf32>) -> ()
    return
  }
}
