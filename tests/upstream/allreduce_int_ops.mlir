// MODE: run
// Every integer gpu.all_reduce operation (and, or, xor, maxsi, minsi, maxui,
// minui, add, mul) over one uniform reduction per block: 3 blocks of 5
// threads, each thread contributing one element of a constant table (row =
// block). Negative elements make the signed and unsigned min/max differ.
// Results land in results[op][block]; thread 0 of each block stores them.

// CHECK: rank = 2 offset = 0 sizes = [9, 3] strides = [3, 1]
// CHECK-NEXT: [8, 2, 0]
// CHECK-NEXT: [-1, 31, -1]
// CHECK-NEXT: [-49, 27, 119]
// CHECK-NEXT: [42, 22, 33]
// CHECK-NEXT: [-7, 3, -65]
// CHECK-NEXT: [-7, 22, -20]
// CHECK-NEXT: [12, 3, 2]
// CHECK-NEXT: [89, 53, -43]
// CHECK-NEXT: [-1330056, 41580, 600600]

module {
  memref.global "private" constant @table : memref<3x5xi32> =
      dense<[[13, 42, -7, 12, 29], [6, 7, 15, 22, 3], [-20, 33, -65, 7, 2]]>

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c5 = arith.constant 5 : index
    %table = memref.get_global @table : memref<3x5xi32>
    %in = memref.alloc() : memref<3x5xi32>
    %res = memref.alloc() : memref<9x3xi32>
    %in_u = memref.cast %in : memref<3x5xi32> to memref<*xi32>
    %res_u = memref.cast %res : memref<9x3xi32> to memref<*xi32>
    gpu.host_register %in_u : memref<*xi32>
    gpu.host_register %res_u : memref<*xi32>
    scf.for %b = %c0 to %c3 step %c1 {
      scf.for %t = %c0 to %c5 step %c1 {
        %v = memref.load %table[%b, %t] : memref<3x5xi32>
        memref.store %v, %in[%b, %t] : memref<3x5xi32>
      }
    }

    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c3, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c5, %sy = %c1, %sz = %c1) {
      %v = memref.load %in[%bx, %tx] : memref<3x5xi32>
      %r0 = gpu.all_reduce and %v uniform {} : (i32) -> (i32)
      %r1 = gpu.all_reduce or %v uniform {} : (i32) -> (i32)
      %r2 = gpu.all_reduce xor %v uniform {} : (i32) -> (i32)
      %r3 = gpu.all_reduce maxsi %v uniform {} : (i32) -> (i32)
      %r4 = gpu.all_reduce minsi %v uniform {} : (i32) -> (i32)
      %r5 = gpu.all_reduce maxui %v uniform {} : (i32) -> (i32)
      %r6 = gpu.all_reduce minui %v uniform {} : (i32) -> (i32)
      %r7 = gpu.all_reduce add %v uniform {} : (i32) -> (i32)
      %r8 = gpu.all_reduce mul %v uniform {} : (i32) -> (i32)
      %first = arith.cmpi eq, %tx, %c0 : index
      scf.if %first {
        %i0 = arith.constant 0 : index
        %i1 = arith.constant 1 : index
        %i2 = arith.constant 2 : index
        %i3 = arith.constant 3 : index
        %i4 = arith.constant 4 : index
        %i5 = arith.constant 5 : index
        %i6 = arith.constant 6 : index
        %i7 = arith.constant 7 : index
        %i8 = arith.constant 8 : index
        memref.store %r0, %res[%i0, %bx] : memref<9x3xi32>
        memref.store %r1, %res[%i1, %bx] : memref<9x3xi32>
        memref.store %r2, %res[%i2, %bx] : memref<9x3xi32>
        memref.store %r3, %res[%i3, %bx] : memref<9x3xi32>
        memref.store %r4, %res[%i4, %bx] : memref<9x3xi32>
        memref.store %r5, %res[%i5, %bx] : memref<9x3xi32>
        memref.store %r6, %res[%i6, %bx] : memref<9x3xi32>
        memref.store %r7, %res[%i7, %bx] : memref<9x3xi32>
        memref.store %r8, %res[%i8, %bx] : memref<9x3xi32>
      }
      gpu.terminator
    }

    call @printMemrefI32(%res_u) : (memref<*xi32>) -> ()
    return
  }

  func.func private @printMemrefI32(memref<*xi32>)
}
