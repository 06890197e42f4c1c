// What nvcc and hipcc give device code by default, gpucc too:
// - workgroup arrays start on 16 bytes (more for wider vector elements), so
//   the 16-byte shared loads LLVM forms from a tile's row are aligned: a
//   3-float pad before the tile must not leave it on 12 bytes (four such
//   loads in @tile, two in @wide, whose vector<8xf32> array is 32-aligned);
// - multiply-add contracts into fma, and no add or mul keeps the `.rn` that
//   would forbid ptxas to fuse it (-ffp-contract=fast);
// - shared memory is addressed with 32-bit registers (nvptx-short-ptr);
// - known_block_size is .reqntid (PTX allows it or .maxntid, not both), and
//   AMD kernels are compiled for 1024 threads per block (LLVM's default is
//   256) or exactly their known block.
// TARGETS: sm_90
// PTX: k sm_90 none \.shared \.align (1|2|4|8)[[:space:]]
// PTX: k sm_90 3 \.shared \.align 16[[:space:]]
// PTX: k sm_90 1 \.shared \.align 32 \.b8 __wg_wide_0
// PTX: k sm_90 6 ld\.shared\.v4\.b32
// PTX: k sm_90 17 fma\.rn\.f32
// PTX: k sm_90 none (add|sub|mul)\.rn\.f32
// PTX: k sm_90 none (ld|st)\.shared\.[^ ]+[[:space:]]+.*\[%rd
// PTX: k sm_90 1 ^\.reqntid 128, 1, 1$
// PTX: k sm_90 none maxntid
// AMD-TARGETS: gfx942
// AMD: k gfx942 2 \.max_flat_workgroup_size: 1024
// AMD: k gfx942 1 \.max_flat_workgroup_size: 128
// AMD: k gfx942 some v_(fmac|fma)_f32
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @tile(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>, %n: index)
        workgroup(%pad: memref<3xf32, #gpu.address_space<workgroup>>,
                  %as: memref<16x16xf32, #gpu.address_space<workgroup>>,
                  %bs: memref<16x16xf32, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %zero = arith.constant 0.0 : f32
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %r0 = arith.muli %by, %c16 : index
      %row = arith.addi %r0, %ty : index
      %q0 = arith.muli %bx, %c16 : index
      %col = arith.addi %q0, %tx : index
      memref.store %zero, %pad[%tx] : memref<3xf32, #gpu.address_space<workgroup>>
      %sum = scf.for %t = %c0 to %n step %c16 iter_args(%acc = %zero) -> f32 {
        %ac = arith.addi %t, %tx : index
        %x = memref.load %a[%row, %ac] : memref<?x?xf32>
        memref.store %x, %as[%ty, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
        %br = arith.addi %t, %ty : index
        %y = memref.load %b[%br, %col] : memref<?x?xf32>
        memref.store %y, %bs[%ty, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
        gpu.barrier
        %part = scf.for %k = %c0 to %c16 step %c1 iter_args(%s = %acc) -> f32 {
          %u = memref.load %as[%ty, %k] : memref<16x16xf32, #gpu.address_space<workgroup>>
          %v = memref.load %bs[%k, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
          %p = arith.mulf %u, %v : f32
          %s2 = arith.addf %s, %p : f32
          scf.yield %s2 : f32
        }
        gpu.barrier
        scf.yield %part : f32
      }
      %bias = memref.load %pad[%c1] : memref<3xf32, #gpu.address_space<workgroup>>
      %out = arith.addf %sum, %bias : f32
      memref.store %out, %c[%row, %col] : memref<?x?xf32>
      gpu.return
    }
    gpu.func @wide(%o: memref<?xvector<8xf32>>)
        workgroup(%w: memref<32xvector<8xf32>, #gpu.address_space<workgroup>>) kernel {
      %t = gpu.thread_id x
      %v = memref.load %o[%t] : memref<?xvector<8xf32>>
      memref.store %v, %w[%t] : memref<32xvector<8xf32>, #gpu.address_space<workgroup>>
      gpu.barrier
      %c31 = arith.constant 31 : index
      %i = arith.subi %c31, %t : index
      %u = memref.load %w[%i] : memref<32xvector<8xf32>, #gpu.address_space<workgroup>>
      memref.store %u, %o[%t] : memref<?xvector<8xf32>>
      gpu.return
    }
    gpu.func @bounded(%o: memref<?xf32>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %t = gpu.thread_id x
      %v = memref.load %o[%t] : memref<?xf32>
      %w = arith.mulf %v, %v : f32
      %x = arith.addf %w, %v : f32
      memref.store %x, %o[%t] : memref<?xf32>
      gpu.return
    }
  }
}
