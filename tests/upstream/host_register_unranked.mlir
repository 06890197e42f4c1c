// MODE: run
// gpu.host_register / gpu.host_unregister of host memory of rank 1, 2 and 3
// (cast to unranked memrefs, the form LLVM 22 accepts), written by kernels
// through the original ranked values, in 1-, 2- and 3-D grids, and read by
// the host after unregistering.

// CHECK: rank = 1 offset = 0 sizes = [5] strides = [1]
// CHECK-NEXT: [5, 4, 3, 2, 1]
// CHECK: rank = 2 offset = 0 sizes = [2, 3] strides = [3, 1]
// CHECK-NEXT: [0, 1, 2]
// CHECK-NEXT: [100, 101, 102]
// CHECK: rank = 3 offset = 0 sizes = [2, 2, 2] strides = [4, 2, 1]
// CHECK-NEXT: [0, 1]
// CHECK-NEXT: [10, 11]
// CHECK: [100, 101]
// CHECK-NEXT: [110, 111]

module attributes {gpu.container_module} {
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c5 = arith.constant 5 : index
    %a = memref.alloc () : memref<5xi32>
    %b = memref.alloc () : memref<2x3xi32>
    %c = memref.alloc () : memref<2x2x2xi32>
    %au = memref.cast %a : memref<5xi32> to memref<*xi32>
    %bu = memref.cast %b : memref<2x3xi32> to memref<*xi32>
    %cu = memref.cast %c : memref<2x2x2xi32> to memref<*xi32>
    gpu.host_register %au : memref<*xi32>
    gpu.host_register %bu : memref<*xi32>
    gpu.host_register %cu : memref<*xi32>
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c5, %sy = %c1, %sz = %c1) {
      %five = arith.constant 5 : index
      %v = arith.subi %five, %tx : index
      %vi = arith.index_cast %v : index to i32
      memref.store %vi, %a[%tx] : memref<5xi32>
      gpu.terminator
    }
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c3, %sy = %c1, %sz = %c1) {
      %hundred = arith.constant 100 : index
      %r = arith.muli %bx, %hundred : index
      %v = arith.addi %r, %tx : index
      %vi = arith.index_cast %v : index to i32
      memref.store %vi, %b[%bx, %tx] : memref<2x3xi32>
      gpu.terminator
    }
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c2, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c2, %sy = %c1, %sz = %c1) {
      %hundred = arith.constant 100 : index
      %ten = arith.constant 10 : index
      %p = arith.muli %bx, %hundred : index
      %q = arith.muli %by, %ten : index
      %pq = arith.addi %p, %q : index
      %v = arith.addi %pq, %tx : index
      %vi = arith.index_cast %v : index to i32
      memref.store %vi, %c[%bx, %by, %tx] : memref<2x2x2xi32>
      gpu.terminator
    }
    gpu.host_unregister %au : memref<*xi32>
    gpu.host_unregister %bu : memref<*xi32>
    gpu.host_unregister %cu : memref<*xi32>
    call @printMemrefI32(%au) : (memref<*xi32>) -> ()
    call @printMemrefI32(%bu) : (memref<*xi32>) -> ()
    call @printMemrefI32(%cu) : (memref<*xi32>) -> ()
    return
  }

  func.func private @printMemrefI32(memref<*xi32>)
}
