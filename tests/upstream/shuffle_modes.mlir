// MODE: run
// gpu.shuffle in its four modes, and the validity flag: an invalid lane
// stores -1 instead of the value it got.
// Kernel 1: 32 threads, width 32, thread t holds 3t. Row 0: xor 5 (always
// valid); row 1: down 3 (lanes 29..31 have no source); row 2: up 2 (lanes
// 0 and 1 have none); row 3: idx 31 - t (reverses the subgroup).
// Kernel 2: 10 threads, width 10 (not a power of two), thread t holds
// t + 100; xor 2 reaches lanes 10 and 11 from lanes 8 and 9: invalid.

// CHECK: rank = 2 offset = 0 sizes = [4, 32] strides = [32, 1]
// CHECK-NEXT: [15, 12, 21, 18, 3, 0, 9, 6, 39, 36, 45, 42, 27, 24, 33, 30, 63, 60, 69, 66, 51, 48, 57, 54, 87, 84, 93, 90, 75, 72, 81, 78]
// CHECK-NEXT: [9, 12, 15, 18, 21, 24, 27, 30, 33, 36, 39, 42, 45, 48, 51, 54, 57, 60, 63, 66, 69, 72, 75, 78, 81, 84, 87, 90, 93, -1, -1, -1]
// CHECK-NEXT: [-1, -1, 0, 3, 6, 9, 12, 15, 18, 21, 24, 27, 30, 33, 36, 39, 42, 45, 48, 51, 54, 57, 60, 63, 66, 69, 72, 75, 78, 81, 84, 87]
// CHECK-NEXT: [93, 90, 87, 84, 81, 78, 75, 72, 69, 66, 63, 60, 57, 54, 51, 48, 45, 42, 39, 36, 33, 30, 27, 24, 21, 18, 15, 12, 9, 6, 3, 0]
// CHECK: rank = 1 offset = 0 sizes = [10] strides = [1]
// CHECK-NEXT: [102, 103, 100, 101, 106, 107, 104, 105, -1, -1]

module attributes {gpu.container_module} {
  gpu.module @lanes {
    // Stores %got, or -1 when %ok is false, at out[row, t].
    func.func @put(%out : memref<4x32xf32>, %row : index, %t : index, %got : f32, %ok : i1) {
      %none = arith.constant -1.0 : f32
      %v = arith.select %ok, %got, %none : f32
      memref.store %v, %out[%row, %t] : memref<4x32xf32>
      return
    }

    gpu.func @four_modes(%out : memref<4x32xf32>) kernel {
      %t = gpu.thread_id x
      %ti = arith.index_cast %t : index to i32
      %three = arith.constant 3 : i32
      %vi = arith.muli %ti, %three : i32
      %v = arith.sitofp %vi : i32 to f32
      %width = arith.constant 32 : i32
      %c5 = arith.constant 5 : i32
      %c3 = arith.constant 3 : i32
      %c2 = arith.constant 2 : i32
      %c31 = arith.constant 31 : i32
      %src = arith.subi %c31, %ti : i32
      %r0 = arith.constant 0 : index
      %r1 = arith.constant 1 : index
      %r2 = arith.constant 2 : index
      %r3 = arith.constant 3 : index
      %x, %xok = gpu.shuffle xor %v, %c5, %width : f32
      func.call @put(%out, %r0, %t, %x, %xok) : (memref<4x32xf32>, index, index, f32, i1) -> ()
      %d, %dok = gpu.shuffle down %v, %c3, %width : f32
      func.call @put(%out, %r1, %t, %d, %dok) : (memref<4x32xf32>, index, index, f32, i1) -> ()
      %u, %uok = gpu.shuffle up %v, %c2, %width : f32
      func.call @put(%out, %r2, %t, %u, %uok) : (memref<4x32xf32>, index, index, f32, i1) -> ()
      %i, %iok = gpu.shuffle idx %v, %src, %width : f32
      func.call @put(%out, %r3, %t, %i, %iok) : (memref<4x32xf32>, index, index, f32, i1) -> ()
      gpu.return
    }

    gpu.func @narrow(%out : memref<10xf32>) kernel {
      %t = gpu.thread_id x
      %ti = arith.index_cast %t : index to i32
      %hundred = arith.constant 100 : i32
      %vi = arith.addi %ti, %hundred : i32
      %v = arith.sitofp %vi : i32 to f32
      %width = arith.constant 10 : i32
      %c2 = arith.constant 2 : i32
      %x, %ok = gpu.shuffle xor %v, %c2, %width : f32
      %none = arith.constant -1.0 : f32
      %r = arith.select %ok, %x, %none : f32
      memref.store %r, %out[%t] : memref<10xf32>
      gpu.return
    }
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c10 = arith.constant 10 : index
    %c32 = arith.constant 32 : index
    %wide = memref.alloc() : memref<4x32xf32>
    %small = memref.alloc() : memref<10xf32>
    %wide_u = memref.cast %wide : memref<4x32xf32> to memref<*xf32>
    %small_u = memref.cast %small : memref<10xf32> to memref<*xf32>
    gpu.host_register %wide_u : memref<*xf32>
    gpu.host_register %small_u : memref<*xf32>
    gpu.launch_func @lanes::@four_modes blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%wide : memref<4x32xf32>)
    gpu.launch_func @lanes::@narrow blocks in (%c1, %c1, %c1) threads in (%c10, %c1, %c1)
        args(%small : memref<10xf32>)
    call @printMemrefF32(%wide_u) : (memref<*xf32>) -> ()
    call @printMemrefF32(%small_u) : (memref<*xf32>) -> ()
    return
  }

  func.func private @printMemrefF32(memref<*xf32>)
}
