// MODE: run
// gpu.alloc host_shared: memory both the host and the kernels read and write
// without copies. The host writes 1000 i + 7 into six i64; a kernel turns
// each into 2 v + i (2001 i + 14); the host reads them back. A rank-0
// host_shared i32 counts, with atomic adds, the threads of a 4 x 8 grid.

// CHECK: rank = 1 offset = 0 sizes = [6] strides = [1]
// CHECK-NEXT: [14, 2015, 4016, 6017, 8018, 10019]
// CHECK-NEXT: 10019
// CHECK-NEXT: 32

module attributes {gpu.container_module} {
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c5 = arith.constant 5 : index
    %c6 = arith.constant 6 : index
    %c8 = arith.constant 8 : index
    %buf = gpu.alloc host_shared () : memref<6xi64>
    %count = gpu.alloc host_shared () : memref<i32>
    %thousand = arith.constant 1000 : i64
    %seven = arith.constant 7 : i64
    scf.for %i = %c0 to %c6 step %c1 {
      %ii = arith.index_cast %i : index to i64
      %k = arith.muli %ii, %thousand : i64
      %v = arith.addi %k, %seven : i64
      memref.store %v, %buf[%i] : memref<6xi64>
    }
    %zero = arith.constant 0 : i32
    memref.store %zero, %count[] : memref<i32>

    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c6, %sy = %c1, %sz = %c1) {
      %v = memref.load %buf[%tx] : memref<6xi64>
      %ti = arith.index_cast %tx : index to i64
      %d = arith.addi %v, %v : i64
      %w = arith.addi %d, %ti : i64
      memref.store %w, %buf[%tx] : memref<6xi64>
      gpu.terminator
    }
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
      %one = arith.constant 1 : i32
      %old = memref.atomic_rmw addi %one, %count[] : (i32, memref<i32>) -> i32
      gpu.terminator
    }

    %buf_u = memref.cast %buf : memref<6xi64> to memref<*xi64>
    call @printMemrefI64(%buf_u) : (memref<*xi64>) -> ()
    %last = memref.load %buf[%c5] : memref<6xi64>
    vector.print %last : i64
    %n = memref.load %count[] : memref<i32>
    vector.print %n : i32
    gpu.dealloc %buf : memref<6xi64>
    gpu.dealloc %count : memref<i32>
    return
  }

  func.func private @printMemrefI64(memref<*xi64>)
}
