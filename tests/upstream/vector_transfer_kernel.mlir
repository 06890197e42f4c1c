// MODE: run
// Vector transfers inside kernels, the portable form of what upstream's
// ROCm test does with buffer loads: thread t reads vector<4xf32> at 4t of
// a 6-element buffer (elements 6 and 7 are past its end: the padding -1
// comes in instead), stores 2 v + 1 at 4t of an 8-element buffer. A second
// kernel writes vector<4xf32> (7, 8, 9, 10) at offset 3 of a 5-element
// buffer of zeros: the elements past the end are not written.

// CHECK: rank = 1 offset = 0 sizes = [8] strides = [1]
// CHECK-NEXT: [2, 4, 6, 8, 10, 12, -1, -1]
// CHECK: rank = 1 offset = 0 sizes = [5] strides = [1]
// CHECK-NEXT: [0, 0, 0, 7, 8]

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c6 = arith.constant 6 : index
  %c5 = arith.constant 5 : index
  %in = memref.alloc () : memref<6xf32>
  %out = memref.alloc () : memref<8xf32>
  %tail = memref.alloc () : memref<5xf32>
  %half = arith.constant 0.5 : f32
  %zero = arith.constant 0.0 : f32
  scf.for %i = %c0 to %c6 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %v = arith.addf %f, %half : f32
    memref.store %v, %in[%i] : memref<6xf32>
  }
  scf.for %i = %c0 to %c5 step %c1 {
    memref.store %zero, %tail[%i] : memref<5xf32>
  }
  %in_u = memref.cast %in : memref<6xf32> to memref<*xf32>
  %out_u = memref.cast %out : memref<8xf32> to memref<*xf32>
  %tail_u = memref.cast %tail : memref<5xf32> to memref<*xf32>
  gpu.host_register %in_u : memref<*xf32>
  gpu.host_register %out_u : memref<*xf32>
  gpu.host_register %tail_u : memref<*xf32>

  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c2, %sy = %c1, %sz = %c1) {
    %four = arith.constant 4 : index
    %at = arith.muli %tx, %four : index
    %pad = arith.constant -1.0 : f32
    %v = vector.transfer_read %in[%at], %pad : memref<6xf32>, vector<4xf32>
    %two = arith.constant dense<2.0> : vector<4xf32>
    %one = arith.constant dense<1.0> : vector<4xf32>
    %w = vector.fma %v, %two, %one : vector<4xf32>
    vector.transfer_write %w, %out[%at] {in_bounds = [true]} : vector<4xf32>, memref<8xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %three = arith.constant 3 : index
    %v = arith.constant dense<[7.0, 8.0, 9.0, 10.0]> : vector<4xf32>
    vector.transfer_write %v, %tail[%three] : vector<4xf32>, memref<5xf32>
    gpu.terminator
  }
  call @printMemrefF32(%out_u) : (memref<*xf32>) -> ()
  call @printMemrefF32(%tail_u) : (memref<*xf32>) -> ()
  return
}

func.func private @printMemrefF32(memref<*xf32>)
