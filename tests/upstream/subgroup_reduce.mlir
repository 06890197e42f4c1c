// MODE: run
// gpu.subgroup_reduce, the reduction over one subgroup rather than the
// whole block: 64 threads are two subgroups of 32; thread t holds t, so
// subgroup 0 adds up to 496 and subgroup 1 to 1520, and their maxima are 31
// and 63. Every thread stores its subgroup's results at [row, t]; the
// output rows are printed as subgroup halves.

// CHECK: rank = 2 offset = 0 sizes = [4, 32] strides = [32, 1]
// CHECK-NEXT: [{{(496, ){31}496}}]
// CHECK-NEXT: [{{(1520, ){31}1520}}]
// CHECK-NEXT: [{{(31, ){31}31}}]
// CHECK-NEXT: [{{(63, ){31}63}}]

func.func @main() {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %out = memref.alloc () : memref<4x32xi32>
  %out_u = memref.cast %out : memref<4x32xi32> to memref<*xi32>
  gpu.host_register %out_u : memref<*xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %t = arith.index_cast %tx : index to i32
    %sum = gpu.subgroup_reduce add %t uniform : (i32) -> (i32)
    %max = gpu.subgroup_reduce maxsi %t uniform : (i32) -> (i32)
    %c32 = arith.constant 32 : index
    %c2 = arith.constant 2 : index
    %sg = arith.divui %tx, %c32 : index
    %lane = arith.remui %tx, %c32 : index
    %max_row = arith.addi %sg, %c2 : index
    memref.store %sum, %out[%sg, %lane] : memref<4x32xi32>
    memref.store %max, %out[%max_row, %lane] : memref<4x32xi32>
    gpu.terminator
  }
  call @printMemrefI32(%out_u) : (memref<*xi32>) -> ()
  return
}

func.func private @printMemrefI32(memref<*xi32>)
