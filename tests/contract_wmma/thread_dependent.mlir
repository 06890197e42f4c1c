// Contractions that must stay per thread on NVIDIA (device_contract_wmma.c
// cannot prove that every lane of a warp computes the same tile, or that
// every lane gets there): no wmma in their PTX. On the host, main checks
// that each thread computed its own tile.
// TARGETS: sm_80,sm_90
// @by_thread: each thread its own tile (index = thread id).
// PTX: by_thread sm_80,sm_90 none wmma
// @divergent: uniform tiles, but only lanes 0-15 of each warp compute.
// PTX: divergent sm_80,sm_90 none wmma
// @loaded: the tile index is loaded from memory (uniform here, but not
// provably so); @lane: from the lane id; @other_use: the result is also
// read per thread; @private: tiles in private memory (per thread).
// PTX: loaded sm_80,sm_90 none wmma
// PTX: lane sm_80,sm_90 none wmma
// PTX: other_use sm_80,sm_90 none wmma
// PTX: private sm_80,sm_90 none wmma
// The rewrite is NVIDIA's alone: AMD keeps the per-thread code.
// AMD-TARGETS: gfx942
// AMD: by_thread gfx942 none v_mfma
#mk = affine_map<(m, n, k) -> (m, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
module attributes {gpu.container_module} {
  gpu.module @by_thread {
    // Thread t: D[t] = A[t] x B
    gpu.func @k(%a: memref<4x16x16xf16>, %b: memref<16x16xf16>, %d: memref<4x16x16xf32>) kernel {
      %c0 = arith.constant 0 : index
      %t = gpu.thread_id x
      %z = arith.constant 0.0 : f16
      %va = vector.transfer_read %a[%t, %c0, %c0], %z {in_bounds = [true, true]} : memref<4x16x16xf16>, vector<16x16xf16>
      %vb = vector.transfer_read %b[%c0, %c0], %z {in_bounds = [true, true]} : memref<16x16xf16>, vector<16x16xf16>
      %acc = arith.constant dense<0.0> : vector<16x16xf32>
      %r = vector.contract {indexing_maps = [#mk, #kn, #mn],
             iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>}
             %va, %vb, %acc : vector<16x16xf16>, vector<16x16xf16> into vector<16x16xf32>
      vector.transfer_write %r, %d[%t, %c0, %c0] {in_bounds = [true, true]} : vector<16x16xf32>, memref<4x16x16xf32>
      gpu.return
    }
  }
  gpu.module @divergent {
    // Block t, lanes 0-15: D[t] = A[t] x B
    gpu.func @k(%a: memref<4x16x16xf16>, %b: memref<16x16xf16>, %d: memref<4x16x16xf32>) kernel
        attributes {known_block_size = array<i32: 32, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %t = gpu.block_id x
      %l = gpu.thread_id x
      %z = arith.constant 0.0 : f16
      %low = arith.cmpi ult, %l, %c16 : index
      scf.if %low {
        %va = vector.transfer_read %a[%t, %c0, %c0], %z {in_bounds = [true, true]} : memref<4x16x16xf16>, vector<16x16xf16>
        %vb = vector.transfer_read %b[%c0, %c0], %z {in_bounds = [true, true]} : memref<16x16xf16>, vector<16x16xf16>
        %acc = arith.constant dense<0.0> : vector<16x16xf32>
        %r = vector.contract {indexing_maps = [#mk, #kn, #mn],
               iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>}
               %va, %vb, %acc : vector<16x16xf16>, vector<16x16xf16> into vector<16x16xf32>
        vector.transfer_write %r, %d[%t, %c0, %c0] {in_bounds = [true, true]} : vector<16x16xf32>, memref<4x16x16xf32>
      }
      gpu.return
    }
  }
  gpu.module @loaded {
    gpu.func @k(%a: memref<4x16x16xf16>, %b: memref<16x16xf16>, %d: memref<4x16x16xf32>,
                %which: memref<1xindex>) kernel {
      %c0 = arith.constant 0 : index
      %t = memref.load %which[%c0] : memref<1xindex>
      %z = arith.constant 0.0 : f16
      %va = vector.transfer_read %a[%t, %c0, %c0], %z {in_bounds = [true, true]} : memref<4x16x16xf16>, vector<16x16xf16>
      %vb = vector.transfer_read %b[%c0, %c0], %z {in_bounds = [true, true]} : memref<16x16xf16>, vector<16x16xf16>
      %acc = arith.constant dense<0.0> : vector<16x16xf32>
      %r = vector.contract {indexing_maps = [#mk, #kn, #mn],
             iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>}
             %va, %vb, %acc : vector<16x16xf16>, vector<16x16xf16> into vector<16x16xf32>
      vector.transfer_write %r, %d[%t, %c0, %c0] {in_bounds = [true, true]} : vector<16x16xf32>, memref<4x16x16xf32>
      gpu.return
    }
  }
  gpu.module @lane {
    gpu.func @k(%a: memref<32x16x16xf16>, %b: memref<16x16xf16>, %d: memref<32x16x16xf32>) kernel {
      %c0 = arith.constant 0 : index
      %t = gpu.lane_id
      %z = arith.constant 0.0 : f16
      %va = vector.transfer_read %a[%t, %c0, %c0], %z {in_bounds = [true, true]} : memref<32x16x16xf16>, vector<16x16xf16>
      %vb = vector.transfer_read %b[%c0, %c0], %z {in_bounds = [true, true]} : memref<16x16xf16>, vector<16x16xf16>
      %acc = arith.constant dense<0.0> : vector<16x16xf32>
      %r = vector.contract {indexing_maps = [#mk, #kn, #mn],
             iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>}
             %va, %vb, %acc : vector<16x16xf16>, vector<16x16xf16> into vector<16x16xf32>
      vector.transfer_write %r, %d[%t, %c0, %c0] {in_bounds = [true, true]} : vector<16x16xf32>, memref<32x16x16xf32>
      gpu.return
    }
  }
  gpu.module @other_use {
    gpu.func @k(%a: memref<16x16xf16>, %b: memref<16x16xf16>, %d: memref<16x16xf32>, %e: memref<32xf32>) kernel {
      %c0 = arith.constant 0 : index
      %t = gpu.thread_id x
      %z = arith.constant 0.0 : f16
      %va = vector.transfer_read %a[%c0, %c0], %z {in_bounds = [true, true]} : memref<16x16xf16>, vector<16x16xf16>
      %vb = vector.transfer_read %b[%c0, %c0], %z {in_bounds = [true, true]} : memref<16x16xf16>, vector<16x16xf16>
      %acc = arith.constant dense<0.0> : vector<16x16xf32>
      %r = vector.contract {indexing_maps = [#mk, #kn, #mn],
             iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>}
             %va, %vb, %acc : vector<16x16xf16>, vector<16x16xf16> into vector<16x16xf32>
      vector.transfer_write %r, %d[%c0, %c0] {in_bounds = [true, true]} : vector<16x16xf32>, memref<16x16xf32>
      %x = vector.extract %r[0, 0] : f32 from vector<16x16xf32>
      memref.store %x, %e[%t] : memref<32xf32>
      gpu.return
    }
  }
  gpu.module @private {
    gpu.func @k(%a: memref<16x16xf16>, %d: memref<32xf32>) private(%p: memref<16x16xf16, #gpu.address_space<private>>) kernel {
      %c0 = arith.constant 0 : index
      %t = gpu.thread_id x
      %z = arith.constant 0.0 : f16
      %va = vector.transfer_read %a[%c0, %c0], %z {in_bounds = [true, true]} : memref<16x16xf16>, vector<16x16xf16>
      vector.transfer_write %va, %p[%c0, %c0] {in_bounds = [true, true]} : vector<16x16xf16>, memref<16x16xf16, #gpu.address_space<private>>
      %vb = vector.transfer_read %p[%c0, %c0], %z {in_bounds = [true, true]} : memref<16x16xf16, #gpu.address_space<private>>, vector<16x16xf16>
      %vc = vector.transfer_read %p[%c0, %c0], %z {in_bounds = [true, true]} : memref<16x16xf16, #gpu.address_space<private>>, vector<16x16xf16>
      %r = vector.contract {indexing_maps = [#mk, #kn, #mn],
             iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>}
             %vb, %vb, %vc : vector<16x16xf16>, vector<16x16xf16> into vector<16x16xf16>
      vector.transfer_write %r, %p[%c0, %c0] {in_bounds = [true, true]} : vector<16x16xf16>, memref<16x16xf16, #gpu.address_space<private>>
      %x = memref.load %p[%c0, %c0] : memref<16x16xf16, #gpu.address_space<private>>
      %y = arith.extf %x : f16 to f32
      memref.store %y, %d[%t] : memref<32xf32>
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
    %z = arith.constant 0.0 : f16
    %ha = memref.alloc() : memref<4x16x16xf16>
    %hb = memref.alloc() : memref<1x16x16xf16>
    %ha_ = memref.cast %ha : memref<4x16x16xf16> to memref<?x16x16xf16>
    %hb_ = memref.cast %hb : memref<1x16x16xf16> to memref<?x16x16xf16>
    call @fill(%ha_, %c1, %c2, %c3) : (memref<?x16x16xf16>, index, index, index) -> ()
    call @fill(%hb_, %c0, %c3, %c5) : (memref<?x16x16xf16>, index, index, index) -> ()
    %hb2 = memref.collapse_shape %hb [[0, 1], [2]] : memref<1x16x16xf16> into memref<16x16xf16>

    %ref = memref.alloc() : memref<4x16x16xf32>
    %vb = vector.transfer_read %hb2[%c0, %c0], %z {in_bounds = [true, true]} : memref<16x16xf16>, vector<16x16xf16>
    %zero = arith.constant dense<0.0> : vector<16x16xf32>
    scf.for %t = %c0 to %c4 step %c1 {
      %va = vector.transfer_read %ha[%t, %c0, %c0], %z {in_bounds = [true, true]} : memref<4x16x16xf16>, vector<16x16xf16>
      %r = vector.contract {indexing_maps = [#mk, #kn, #mn],
             iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>}
             %va, %vb, %zero : vector<16x16xf16>, vector<16x16xf16> into vector<16x16xf32>
      vector.transfer_write %r, %ref[%t, %c0, %c0] {in_bounds = [true, true]} : vector<16x16xf32>, memref<4x16x16xf32>
    }

    %da = gpu.alloc () : memref<4x16x16xf16>
    %db = gpu.alloc () : memref<16x16xf16>
    %d1 = gpu.alloc () : memref<4x16x16xf32>
    %d2 = gpu.alloc () : memref<4x16x16xf32>
    gpu.memcpy %da, %ha : memref<4x16x16xf16>, memref<4x16x16xf16>
    gpu.memcpy %db, %hb2 : memref<16x16xf16>, memref<16x16xf16>
    gpu.launch_func @by_thread::@k blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1)
        args(%da : memref<4x16x16xf16>, %db : memref<16x16xf16>, %d1 : memref<4x16x16xf32>)
    gpu.launch_func @divergent::@k blocks in (%c4, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%da : memref<4x16x16xf16>, %db : memref<16x16xf16>, %d2 : memref<4x16x16xf32>)
    %h1 = memref.alloc() : memref<4x16x16xf32>
    %h2 = memref.alloc() : memref<4x16x16xf32>
    gpu.memcpy %h1, %d1 : memref<4x16x16xf32>, memref<4x16x16xf32>
    gpu.memcpy %h2, %d2 : memref<4x16x16xf32>, memref<4x16x16xf32>
    call @compare(%h1, %ref) : (memref<4x16x16xf32>, memref<4x16x16xf32>) -> ()
    call @compare(%h2, %ref) : (memref<4x16x16xf32>, memref<4x16x16xf32>) -> ()
    return
  }
}
