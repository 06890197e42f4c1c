// gpu.subgroup_reduce (add, minsi on i32, maxnumf on f32) and the subgroup
// ids (gpu.subgroup_id, gpu.num_subgroups, gpu.subgroup_size), as
// distributed vector reductions leave them. 2 blocks of 64 threads, two
// 32-lane subgroups each; t = thread id, w = t / 32. Each thread writes one
// row; the host prints the rows of global ids 0, 31, 32, 63, 64, 127:
//   subgroup sum of t: 496 (w = 0) or 1520 (w = 1)
//   subgroup min of 100 - t: 69 or 37
//   2 * subgroup max of t / 2: 31 or 63
//   subgroup_id w, num_subgroups 2, subgroup_size 32
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @reduce(%out: memref<128x6xi32>) kernel {
      %t = gpu.thread_id x
      %g = gpu.global_id x
      %ti = arith.index_cast %t : index to i32
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %c5 = arith.constant 5 : index
      %i100 = arith.constant 100 : i32
      %half = arith.constant 0.5 : f32
      %two = arith.constant 2.0 : f32
      %sum = gpu.subgroup_reduce add %ti : (i32) -> i32
      memref.store %sum, %out[%g, %c0] : memref<128x6xi32>
      %neg = arith.subi %i100, %ti : i32
      %mn = gpu.subgroup_reduce minsi %neg : (i32) -> i32
      memref.store %mn, %out[%g, %c1] : memref<128x6xi32>
      %tf = arith.sitofp %ti : i32 to f32
      %h = arith.mulf %tf, %half : f32
      %mx = gpu.subgroup_reduce maxnumf %h : (f32) -> f32
      %mx2 = arith.mulf %mx, %two : f32
      %mxi = arith.fptosi %mx2 : f32 to i32
      memref.store %mxi, %out[%g, %c2] : memref<128x6xi32>
      %sgid = gpu.subgroup_id : index
      %nsg = gpu.num_subgroups : index
      %sgsz = gpu.subgroup_size : index
      %w = arith.index_cast %sgid : index to i32
      %n = arith.index_cast %nsg : index to i32
      %z = arith.index_cast %sgsz : index to i32
      memref.store %w, %out[%g, %c3] : memref<128x6xi32>
      memref.store %n, %out[%g, %c4] : memref<128x6xi32>
      memref.store %z, %out[%g, %c5] : memref<128x6xi32>
      gpu.return
    }
  }
  memref.global "private" constant @rows : memref<6xindex> = dense<[0, 31, 32, 63, 64, 127]>
  func.func private @printMemrefI32(memref<*xi32>)
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c6 = arith.constant 6 : index
    %c64 = arith.constant 64 : index
    %d = gpu.alloc () : memref<128x6xi32>
    gpu.launch_func @kernels::@reduce blocks in (%c2, %c1, %c1) threads in (%c64, %c1, %c1)
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
