// MODE: run
// gpu.all_reduce with the reduction given as a region instead of an
// operation keyword, over one block of 40 threads (a full and a partial
// subgroup). Region 1 adds tx*tx: 0 + 1 + 4 + ... + 39*39 = 20540. Region 2
// keeps the larger of (13 * tx) mod 40, which takes every value 0..39
// (13 and 40 are coprime): 39. Row 0 of the output holds each thread's
// first result, row 1 its second.

// CHECK: rank = 2 offset = 0 sizes = [2, 40] strides = [40, 1]
// CHECK-NEXT: [{{(20540, ){39}20540}}]
// CHECK-NEXT: [{{(39, ){39}39}}]

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c40 = arith.constant 40 : index
  %out = memref.alloc() : memref<2x40xi32>
  %out_u = memref.cast %out : memref<2x40xi32> to memref<*xi32>
  gpu.host_register %out_u : memref<*xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c40, %sy = %c1, %sz = %c1) {
    %t = arith.index_cast %tx : index to i32
    %sq = arith.muli %t, %t : i32
    %squares = gpu.all_reduce %sq uniform {
    ^bb0(%a : i32, %b : i32):
      %s = arith.addi %a, %b : i32
      gpu.yield %s : i32
    } : (i32) -> (i32)
    %k13 = arith.constant 13 : i32
    %k40 = arith.constant 40 : i32
    %m = arith.muli %t, %k13 : i32
    %r = arith.remsi %m, %k40 : i32
    %largest = gpu.all_reduce %r uniform {
    ^bb0(%a : i32, %b : i32):
      %s = arith.maxsi %a, %b : i32
      gpu.yield %s : i32
    } : (i32) -> (i32)
    %i0 = arith.constant 0 : index
    %i1 = arith.constant 1 : index
    memref.store %squares, %out[%i0, %tx] : memref<2x40xi32>
    memref.store %largest, %out[%i1, %tx] : memref<2x40xi32>
    gpu.terminator
  }
  call @printMemrefI32(%out_u) : (memref<*xi32>) -> ()
  return
}

func.func private @printMemrefI32(memref<*xi32>)
