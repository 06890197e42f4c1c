// Block and subgroup collectives: gpu.all_reduce (or, and one with its own
// region: a sum of squares), gpu.shuffle up, down and idx with their
// validity flags, and gpu.lane_id (gpu.subgroup_reduce and the subgroup
// ids: subgroup_reduce). 2 blocks of 64 threads, two 32-lane subgroups
// each; t = thread id, l = lane, w = t / 32. Each thread writes one row;
// the host prints the rows of global ids 0, 1, 31, 32, 63, 94:
//   block or of 1 << (t mod 32) = -1      block sum of t^2 = 85344
//   shuffle up 1: t - 1, or -1 at lane 0  down 2: t + 2, or -1 past lane 29
//   idx 31 - l: 32 w + 31 - l             lane id: l
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @collectives(%out: memref<128x6xi32>) kernel {
      %t = gpu.thread_id x
      %g = gpu.global_id x
      %lane = gpu.lane_id
      %ti = arith.index_cast %t : index to i32
      %li = arith.index_cast %lane : index to i32
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %c5 = arith.constant 5 : index
      %i1 = arith.constant 1 : i32
      %i2 = arith.constant 2 : i32
      %i31 = arith.constant 31 : i32
      %i32 = arith.constant 32 : i32
      %m1 = arith.constant -1 : i32
      %sh = arith.remui %ti, %i32 : i32
      %bit = arith.shli %i1, %sh : i32
      %or = gpu.all_reduce or %bit uniform {} : (i32) -> i32
      memref.store %or, %out[%g, %c0] : memref<128x6xi32>
      %sq = arith.muli %ti, %ti : i32
      %ss = gpu.all_reduce %sq uniform {
      ^bb0(%a: i32, %b: i32):
        %s = arith.addi %a, %b : i32
        gpu.yield %s : i32
      } : (i32) -> i32
      memref.store %ss, %out[%g, %c1] : memref<128x6xi32>
      %up, %upv = gpu.shuffle up %ti, %i1, %i32 : i32
      %ups = arith.select %upv, %up, %m1 : i32
      memref.store %ups, %out[%g, %c2] : memref<128x6xi32>
      %dn, %dnv = gpu.shuffle down %ti, %i2, %i32 : i32
      %dns = arith.select %dnv, %dn, %m1 : i32
      memref.store %dns, %out[%g, %c3] : memref<128x6xi32>
      %src = arith.subi %i31, %li : i32
      %ix, %ixv = gpu.shuffle idx %ti, %src, %i32 : i32
      memref.store %ix, %out[%g, %c4] : memref<128x6xi32>
      memref.store %li, %out[%g, %c5] : memref<128x6xi32>
      gpu.return
    }
  }
  memref.global "private" constant @rows : memref<6xindex> = dense<[0, 1, 31, 32, 63, 94]>
  func.func private @printMemrefI32(memref<*xi32>)
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c6 = arith.constant 6 : index
    %c64 = arith.constant 64 : index
    %d = gpu.alloc () : memref<128x6xi32>
    gpu.launch_func @kernels::@collectives blocks in (%c2, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%d : memref<128x6xi32>)
    %h = memref.alloc() : memref<128x6xi32>
    gpu.memcpy %h, %d : memref<128x6xi32>, memref<128x6xi32>
    gpu.dealloc %d : memref<128x6xi32>
    %rows = memref.get_global @rows : memref<6xindex>
    %sel = memref.alloc() : memref<6x6xi32>
    scf.for %r = %c0 to %c6 step %c1 {
      %g = memref.load %rows[%r] : memref<6xindex>
      scf.for %k = %c0 to %c6 step %c1 {
        %v = memref.load %h[%g, %k] : memref<128x6xi32>
        memref.store %v, %sel[%r, %k] : memref<6x6xi32>
      }
    }
    %u = memref.cast %sel : memref<6x6xi32> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    return
  }
}
