// MODE: run
// gpu.all_reduce without the `uniform` keyword, as older upstream tests
// wrote it: the reduction is not promised to be reached by every thread of
// the block together. Here all of them do reach it (no divergence), so the
// results are those of a uniform reduction: 2 blocks of 6 threads, thread
// t of block b holds (t + 1) << b; xor and add per block.

// CHECK: rank = 2 offset = 0 sizes = [2, 2] strides = [2, 1]
// CHECK-NEXT: [7, 14]
// CHECK-NEXT: [21, 42]

func.func @main() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c6 = arith.constant 6 : index
  %out = memref.alloc () : memref<2x2xi32>
  %out_u = memref.cast %out : memref<2x2xi32> to memref<*xi32>
  gpu.host_register %out_u : memref<*xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c6, %sy = %c1, %sz = %c1) {
    %one = arith.constant 1 : index
    %t1 = arith.addi %tx, %one : index
    %ti = arith.index_cast %t1 : index to i32
    %bi = arith.index_cast %bx : index to i32
    %v = arith.shli %ti, %bi : i32
    %x = gpu.all_reduce xor %v {} : (i32) -> (i32)
    %s = gpu.all_reduce add %v {} : (i32) -> (i32)
    %i0 = arith.constant 0 : index
    %i1 = arith.constant 1 : index
    memref.store %x, %out[%i0, %bx] : memref<2x2xi32>
    memref.store %s, %out[%i1, %bx] : memref<2x2xi32>
    gpu.terminator
  }
  call @printMemrefI32(%out_u) : (memref<*xi32>) -> ()
  return
}

func.func private @printMemrefI32(memref<*xi32>)
