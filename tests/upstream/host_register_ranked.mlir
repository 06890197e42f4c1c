// MODE: run
// gpu.host_register and gpu.host_unregister applied to ranked memrefs
// directly, without a cast to an unranked memref first (upstream accepts
// this after LLVM 22). A kernel writes 10 r + c into the registered 3x4
// buffer through the ranked value.

// CHECK: rank = 2 offset = 0 sizes = [3, 4] strides = [4, 1]
// CHECK-NEXT: [0, 1, 2, 3]
// CHECK-NEXT: [10, 11, 12, 13]
// CHECK-NEXT: [20, 21, 22, 23]

module attributes {gpu.container_module} {
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %m = memref.alloc () : memref<3x4xi32>
    gpu.host_register %m : memref<3x4xi32>
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c3, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
      %ten = arith.constant 10 : index
      %r = arith.muli %bx, %ten : index
      %v = arith.addi %r, %tx : index
      %vi = arith.index_cast %v : index to i32
      memref.store %vi, %m[%bx, %tx] : memref<3x4xi32>
      gpu.terminator
    }
    gpu.host_unregister %m : memref<3x4xi32>
    %u = memref.cast %m : memref<3x4xi32> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    memref.dealloc %m : memref<3x4xi32>
    return
  }

  func.func private @printMemrefI32(memref<*xi32>)
}
