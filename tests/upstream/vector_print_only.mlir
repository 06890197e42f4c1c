// MODE: run
// vector.print on the host, in a program that declares no runner utility
// itself: the lowering calls printI64, printF32, printNewline, printOpen,
// printComma, printClose, which the link must provide all the same. A
// kernel on host_shared memory computes what is printed.

// CHECK: 42
// CHECK-NEXT: 2.5
// CHECK-NEXT: ( 6, 7, 8 )

module attributes {gpu.container_module} {
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %m = gpu.alloc host_shared () : memref<3xi32>
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c3, %sy = %c1, %sz = %c1) {
      %t = arith.index_cast %tx : index to i32
      %six = arith.constant 6 : i32
      %v = arith.addi %t, %six : i32
      memref.store %v, %m[%tx] : memref<3xi32>
      gpu.terminator
    }
    %a = memref.load %m[%c0] : memref<3xi32>
    %b = memref.load %m[%c1] : memref<3xi32>
    %ab = arith.muli %a, %b : i32
    vector.print %ab : i32
    %half = arith.constant 2.5 : f32
    vector.print %half : f32
    %pad = arith.constant 0 : i32
    %vec = vector.transfer_read %m[%c0], %pad : memref<3xi32>, vector<3xi32>
    vector.print %vec : vector<3xi32>
    gpu.dealloc %m : memref<3xi32>
    return
  }
}
