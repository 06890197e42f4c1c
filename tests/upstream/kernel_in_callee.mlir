// MODE: run
// gpu.launch inside ordinary host functions that take the buffer and the
// values as arguments, the block size coming from memref.dim: @ramp writes
// x + t, @scale multiplies in place; main calls both on a host-registered
// buffer of 6, then reads 3 elements from index 4 with a vector transfer
// on the host (the last one past the end: padding 0) and prints them.

// CHECK: rank = 1 offset = 0 sizes = [6] strides = [1]
// CHECK-NEXT: [10, 14, 18, 22, 26, 30]
// CHECK-NEXT: ( 26, 30, 0 )

func.func @ramp(%x : f32, %buf : memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %buf, %c0 : memref<?xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %n, %sy = %c1, %sz = %c1) {
    %ti = arith.index_cast %tx : index to i32
    %tf = arith.sitofp %ti : i32 to f32
    %v = arith.addf %x, %tf : f32
    memref.store %v, %buf[%tx] : memref<?xf32>
    gpu.terminator
  }
  return
}

func.func @scale(%buf : memref<?xf32>, %k : f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %buf, %c0 : memref<?xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %v = memref.load %buf[%bx] : memref<?xf32>
    %w = arith.mulf %v, %k : f32
    memref.store %w, %buf[%bx] : memref<?xf32>
    gpu.terminator
  }
  return
}

func.func @main() {
  %c4 = arith.constant 4 : index
  %m = memref.alloc () : memref<6xf32>
  %d = memref.cast %m : memref<6xf32> to memref<?xf32>
  %u = memref.cast %d : memref<?xf32> to memref<*xf32>
  gpu.host_register %u : memref<*xf32>
  %start = arith.constant 2.5 : f32
  %four = arith.constant 4.0 : f32
  call @ramp(%start, %d) : (f32, memref<?xf32>) -> ()
  call @scale(%d, %four) : (memref<?xf32>, f32) -> ()
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  %pad = arith.constant 0.0 : f32
  %v = vector.transfer_read %m[%c4], %pad : memref<6xf32>, vector<3xf32>
  vector.print %v : vector<3xf32>
  return
}

func.func private @printMemrefF32(memref<*xf32>)
