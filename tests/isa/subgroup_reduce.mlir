// gpu.subgroup_reduce on NVIDIA. Module @redux holds only what LLVM 22
// turns into one redux.sync on sm_80 and newer: uniform, full-warp i32
// add/and/or/xor/minsi/maxsi (cluster(size = 32) is the whole warp) in a
// kernel whose known_block_size is a whole number of warps. Module @tree
// (known_block_size too) holds what stays a butterfly of shfl.sync.bfly on every chip: f32, i64
// and f64 (two 32-bit halves), f16 and i8 (widened to 32 bits), the kinds
// redux lacks (maxui, mul) and partial clusters. Module @partial has no
// known_block_size: a block of, say, 40 threads ends in a warp of 8 lanes,
// which takes the active-lane path (activemask, redux.sync with that mask)
// while full warps take the plain redux.sync.
// TARGETS: sm_75,sm_80,sm_90,sm_90a
// PTX: redux sm_80,sm_90,sm_90a 1 redux\.sync\.add\.s32
// PTX: redux sm_80,sm_90,sm_90a 1 redux\.sync\.and\.b32
// PTX: redux sm_80,sm_90,sm_90a 1 redux\.sync\.or\.b32
// PTX: redux sm_80,sm_90,sm_90a 1 redux\.sync\.xor\.b32
// PTX: redux sm_80,sm_90,sm_90a 1 redux\.sync\.min\.s32
// PTX: redux sm_80,sm_90,sm_90a 1 redux\.sync\.max\.s32
// PTX: redux sm_80,sm_90,sm_90a none shfl\.sync
// PTX: redux sm_75 none redux\.sync
// PTX: redux sm_75 30 shfl\.sync\.bfly\.b32
// PTX: redux sm_80,sm_90 none activemask
// PTX: partial sm_80,sm_90 2 redux\.sync\.add\.s32
// PTX: partial sm_80,sm_90 1 activemask
// PTX: partial sm_75 5 shfl\.sync\.bfly\.b32
// PTX: partial sm_75 1 shfl\.sync\.idx\.b32
// f32 5 steps, i64 and f64 2 x 5, f16 5, i8 5, maxui 5, cluster of 8: 3.
// PTX: tree sm_75,sm_80,sm_90a 43 shfl\.sync\.bfly\.b32
// PTX: tree sm_75,sm_80,sm_90a none redux\.sync
// Each step combines in the value's own type: i64 mul, f64 compare, f16
// minimum with NaN and signed zeros (minimumf: min.NaN), u32 max, f32 add.
// PTX: tree sm_80 5 mul\.lo\.s64
// PTX: tree sm_80 some setp\.[a-z]+\.f64
// PTX: tree sm_80 5 min\.NaN\.f16
// PTX: tree sm_80 5 max\.u32
// PTX: tree sm_80 5 add\.f32
// Contracted by default (-ffp-contract=fast): no rounding mode pins them.
// PTX: tree sm_80 none add\.rn\.f32
module attributes {gpu.container_module} {
  gpu.module @redux {
    gpu.func @ints(%out: memref<32x6xi32>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      %t = gpu.thread_id x
      %x = arith.index_cast %t : index to i32
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %c5 = arith.constant 5 : index
      %add = gpu.subgroup_reduce add %x uniform : (i32) -> i32
      %and = gpu.subgroup_reduce and %x uniform : (i32) -> i32
      %or = gpu.subgroup_reduce or %x uniform : (i32) -> i32
      %xor = gpu.subgroup_reduce xor %x uniform cluster(size = 32) : (i32) -> i32
      %min = gpu.subgroup_reduce minsi %x uniform : (i32) -> i32
      %max = gpu.subgroup_reduce maxsi %x uniform : (i32) -> i32
      memref.store %add, %out[%t, %c0] : memref<32x6xi32>
      memref.store %and, %out[%t, %c1] : memref<32x6xi32>
      memref.store %or, %out[%t, %c2] : memref<32x6xi32>
      memref.store %xor, %out[%t, %c3] : memref<32x6xi32>
      memref.store %min, %out[%t, %c4] : memref<32x6xi32>
      memref.store %max, %out[%t, %c5] : memref<32x6xi32>
      gpu.return
    }
  }
  gpu.module @partial {
    gpu.func @sum(%out: memref<?xi32>) kernel {
      %t = gpu.thread_id x
      %x = arith.index_cast %t : index to i32
      %s = gpu.subgroup_reduce add %x uniform : (i32) -> i32
      memref.store %s, %out[%t] : memref<?xi32>
      gpu.return
    }
  }
  gpu.module @tree {
    gpu.func @others(%f: memref<32xf32>, %l: memref<32xi64>, %d: memref<32xf64>,
                     %h: memref<32xf16>, %b: memref<32xi8>, %u: memref<32xi32>) kernel
        attributes {known_block_size = array<i32: 32, 1, 1>} {
      %t = gpu.thread_id x
      %x = arith.index_cast %t : index to i32
      %xf = arith.sitofp %x : i32 to f32
      %sf = gpu.subgroup_reduce add %xf uniform : (f32) -> f32
      memref.store %sf, %f[%t] : memref<32xf32>
      %xl = arith.extsi %x : i32 to i64
      %sl = gpu.subgroup_reduce mul %xl uniform : (i64) -> i64
      memref.store %sl, %l[%t] : memref<32xi64>
      %xd = arith.sitofp %x : i32 to f64
      %sd = gpu.subgroup_reduce maxnumf %xd uniform : (f64) -> f64
      memref.store %sd, %d[%t] : memref<32xf64>
      %xh = arith.sitofp %x : i32 to f16
      %sh = gpu.subgroup_reduce minimumf %xh uniform : (f16) -> f16
      memref.store %sh, %h[%t] : memref<32xf16>
      %xb = arith.trunci %x : i32 to i8
      %sb = gpu.subgroup_reduce add %xb uniform : (i8) -> i8
      memref.store %sb, %b[%t] : memref<32xi8>
      %su = gpu.subgroup_reduce maxui %x uniform : (i32) -> i32
      %sc = gpu.subgroup_reduce add %su uniform cluster(size = 8, stride = 2) : (i32) -> i32
      memref.store %sc, %u[%t] : memref<32xi32>
      gpu.return
    }
  }
}
