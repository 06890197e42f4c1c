// MODE: run
// gpu.all_reduce add on f32 over a 3-D block of 8x3x2 = 48 threads (more
// than one 32-lane subgroup, the second one partial), in a grid of two
// blocks. Thread (x, y, z) of block b contributes 0.5 * (x + 8y + 24z) + b,
// so block 0 sums to 0.5 * (0 + ... + 47) = 564 and block 1 to 564 + 48 =
// 612. Every thread stores the sum at its own (b, z, y, x).

// CHECK: rank = 4 offset = 0 sizes = [2, 2, 3, 8] strides = [48, 24, 8, 1]
// CHECK-COUNT-6: [564, 564, 564, 564, 564, 564, 564, 564]
// CHECK-COUNT-6: [612, 612, 612, 612, 612, 612, 612, 612]

func.func @main() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : index
  %half = arith.constant 0.5 : f32
  %out = memref.alloc() : memref<2x2x3x8xf32>
  %out_u = memref.cast %out : memref<2x2x3x8xf32> to memref<*xf32>
  gpu.host_register %out_u : memref<*xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c3, %sz = %c2) {
    %row = arith.muli %tz, %sy : index
    %plane = arith.addi %row, %ty : index
    %lin0 = arith.muli %plane, %sx : index
    %lin = arith.addi %lin0, %tx : index
    %lin_i = arith.index_cast %lin : index to i32
    %lin_f = arith.sitofp %lin_i : i32 to f32
    %b_i = arith.index_cast %bx : index to i32
    %b_f = arith.sitofp %b_i : i32 to f32
    %scaled = arith.mulf %lin_f, %half : f32
    %v = arith.addf %scaled, %b_f : f32
    %sum = gpu.all_reduce add %v uniform {} : (f32) -> (f32)
    memref.store %sum, %out[%bx, %tz, %ty, %tx] : memref<2x2x3x8xf32>
    gpu.terminator
  }
  call @printMemrefF32(%out_u) : (memref<*xf32>) -> ()
  return
}

func.func private @printMemrefF32(memref<*xf32>)
