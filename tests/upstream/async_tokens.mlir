// MODE: run
// Asynchronous gpu ops chained by tokens, without the async dialect: two
// independent chains (each: gpu.alloc async, a kernel, gpu.memcpy async back
// to the host), joined by one blocking gpu.wait. Both chains also add
// their thread counts to one host_shared counter with atomics, as two
// kernels in flight at once would: 3 x 4 + 2 x 5 = 22.

// CHECK: rank = 1 offset = 0 sizes = [12] strides = [1]
// CHECK-NEXT: [0, 7, 14, 21, 28, 35, 42, 49, 56, 63, 70, 77]
// CHECK: rank = 1 offset = 0 sizes = [10] strides = [1]
// CHECK-NEXT: [-1, -2, -3, -4, -5, -6, -7, -8, -9, -10]
// CHECK-NEXT: 22

module attributes {gpu.container_module} {
  gpu.module @work {
    gpu.func @scale(%out : memref<?xi32>, %k : i32, %count : memref<i32>) kernel {
      %b = gpu.block_id x
      %t = gpu.thread_id x
      %n = gpu.block_dim x
      %bn = arith.muli %b, %n : index
      %i = arith.addi %bn, %t : index
      %ii = arith.index_cast %i : index to i32
      %v = arith.muli %ii, %k : i32
      memref.store %v, %out[%i] : memref<?xi32>
      %one = arith.constant 1 : i32
      %old = memref.atomic_rmw addi %one, %count[] : (i32, memref<i32>) -> i32
      gpu.return
    }
    gpu.func @negate_next(%out : memref<?xi32>, %count : memref<i32>) kernel {
      %b = gpu.block_id x
      %t = gpu.thread_id x
      %n = gpu.block_dim x
      %bn = arith.muli %b, %n : index
      %i = arith.addi %bn, %t : index
      %ii = arith.index_cast %i : index to i32
      %minus_one = arith.constant -1 : i32
      %v = arith.subi %minus_one, %ii : i32
      memref.store %v, %out[%i] : memref<?xi32>
      %one = arith.constant 1 : i32
      %old = memref.atomic_rmw addi %one, %count[] : (i32, memref<i32>) -> i32
      gpu.return
    }
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c5 = arith.constant 5 : index
    %c10 = arith.constant 10 : index
    %c12 = arith.constant 12 : index
    %seven = arith.constant 7 : i32
    %count = gpu.alloc host_shared () : memref<i32>
    %zero = arith.constant 0 : i32
    memref.store %zero, %count[] : memref<i32>
    %ha = memref.alloc (%c12) : memref<?xi32>
    %hb = memref.alloc (%c10) : memref<?xi32>

    %s0 = gpu.wait async
    %a, %ta = gpu.alloc async [%s0] (%c12) : memref<?xi32>
    %ka = gpu.launch_func async [%ta] @work::@scale blocks in (%c3, %c1, %c1) threads in (%c4, %c1, %c1)
        args(%a : memref<?xi32>, %seven : i32, %count : memref<i32>)
    %ca = gpu.memcpy async [%ka] %ha, %a : memref<?xi32>, memref<?xi32>

    %s1 = gpu.wait async
    %b, %tb = gpu.alloc async [%s1] (%c10) : memref<?xi32>
    %kb = gpu.launch_func async [%tb] @work::@negate_next blocks in (%c2, %c1, %c1) threads in (%c5, %c1, %c1)
        args(%b : memref<?xi32>, %count : memref<i32>)
    %cb = gpu.memcpy async [%kb] %hb, %b : memref<?xi32>, memref<?xi32>

    gpu.wait [%ca, %cb]
    gpu.dealloc %a : memref<?xi32>
    gpu.dealloc %b : memref<?xi32>

    %ha_u = memref.cast %ha : memref<?xi32> to memref<*xi32>
    %hb_u = memref.cast %hb : memref<?xi32> to memref<*xi32>
    call @printMemrefI32(%ha_u) : (memref<*xi32>) -> ()
    call @printMemrefI32(%hb_u) : (memref<*xi32>) -> ()
    %n = memref.load %count[] : memref<i32>
    vector.print %n : i32
    gpu.dealloc %count : memref<i32>
    return
  }

  func.func private @printMemrefI32(memref<*xi32>)
}
