// MODE: run
// Several reductions in one kernel, with stores and a barrier between them:
// 3 blocks of 4 threads; thread t of block b holds (t + 1) * (b + 2) - 5,
// i.e. block 0: -3 -1 1 3, block 1: -2 1 4 7, block 2: -1 3 7 11.
// Rows: add, mul, maxnumf, minnumf (f32), and the thread count (an i32
// add of 1, converted to f32); columns: blocks.

// CHECK: rank = 2 offset = 0 sizes = [5, 3] strides = [3, 1]
// CHECK-NEXT: [0, 10, 20]
// CHECK-NEXT: [9, -56, -231]
// CHECK-NEXT: [3, 7, 11]
// CHECK-NEXT: [-3, -2, -1]
// CHECK-NEXT: [4, 4, 4]

func.func @main() {
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %out = memref.alloc() : memref<5x3xf32>
  %out_u = memref.cast %out : memref<5x3xf32> to memref<*xf32>
  gpu.host_register %out_u : memref<*xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c3, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %one = arith.constant 1 : index
    %two = arith.constant 2 : index
    %five = arith.constant 5 : index
    %t1 = arith.addi %tx, %one : index
    %b2 = arith.addi %bx, %two : index
    %p = arith.muli %t1, %b2 : index
    %q = arith.subi %p, %five : index
    %qi = arith.index_cast %q : index to i32
    %v = arith.sitofp %qi : i32 to f32
    %i0 = arith.constant 0 : index
    %i1 = arith.constant 1 : index
    %i2 = arith.constant 2 : index
    %i3 = arith.constant 3 : index
    %i4 = arith.constant 4 : index
    %sum = gpu.all_reduce add %v uniform {} : (f32) -> (f32)
    memref.store %sum, %out[%i0, %bx] : memref<5x3xf32>
    %prod = gpu.all_reduce mul %v uniform {} : (f32) -> (f32)
    memref.store %prod, %out[%i1, %bx] : memref<5x3xf32>
    gpu.barrier
    %hi = gpu.all_reduce maxnumf %v uniform {} : (f32) -> (f32)
    memref.store %hi, %out[%i2, %bx] : memref<5x3xf32>
    %lo = gpu.all_reduce minnumf %v uniform {} : (f32) -> (f32)
    memref.store %lo, %out[%i3, %bx] : memref<5x3xf32>
    %unit = arith.constant 1 : i32
    %n = gpu.all_reduce add %unit uniform {} : (i32) -> (i32)
    %nf = arith.sitofp %n : i32 to f32
    memref.store %nf, %out[%i4, %bx] : memref<5x3xf32>
    gpu.terminator
  }
  call @printMemrefF32(%out_u) : (memref<*xf32>) -> ()
  return
}

func.func private @printMemrefF32(memref<*xf32>)
