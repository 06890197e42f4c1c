// MODE: run
// Two kernels on two streams that can only finish together: @waiter spins
// until a host_shared flag is set, @setter (launched after it, on another
// stream) sets it and records that it ran. On a GPU both run at once; a
// backend that runs a launch to completion before it returns never gets to
// @setter (it hangs; check.sh stops it after 30 s). Printed: whether the
// setter ran, and the flag value the waiter saw.

// CHECK: rank = 1 offset = 0 sizes = [2] strides = [1]
// CHECK-NEXT: [1, 1]

module attributes {gpu.container_module} {
  gpu.module @pair {
    gpu.func @waiter(%flag : memref<i32>, %seen : memref<i32>) kernel {
      %zero = arith.constant 0 : i32
      %last = scf.while (%v = %zero) : (i32) -> i32 {
        %now = memref.atomic_rmw addi %zero, %flag[] : (i32, memref<i32>) -> i32
        %unset = arith.cmpi eq, %now, %zero : i32
        scf.condition(%unset) %now : i32
      } do {
      ^bb0(%v : i32):
        scf.yield %v : i32
      }
      memref.store %last, %seen[] : memref<i32>
      gpu.return
    }
    gpu.func @setter(%flag : memref<i32>, %ran : memref<i32>) kernel {
      %one = arith.constant 1 : i32
      %old = memref.atomic_rmw assign %one, %flag[] : (i32, memref<i32>) -> i32
      memref.store %one, %ran[] : memref<i32>
      gpu.return
    }
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %zero = arith.constant 0 : i32
    %flag = gpu.alloc host_shared () : memref<i32>
    %seen = gpu.alloc host_shared () : memref<i32>
    %ran = gpu.alloc host_shared () : memref<i32>
    memref.store %zero, %flag[] : memref<i32>
    memref.store %zero, %seen[] : memref<i32>
    memref.store %zero, %ran[] : memref<i32>
    %s0 = gpu.wait async
    %s1 = gpu.wait async
    %k0 = gpu.launch_func async [%s0] @pair::@waiter blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%flag : memref<i32>, %seen : memref<i32>)
    %k1 = gpu.launch_func async [%s1] @pair::@setter blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%flag : memref<i32>, %ran : memref<i32>)
    gpu.wait [%k0, %k1]
    %c0 = arith.constant 0 : index
    %out = memref.alloc () : memref<2xi32>
    %r = memref.load %ran[] : memref<i32>
    %s = memref.load %seen[] : memref<i32>
    memref.store %r, %out[%c0] : memref<2xi32>
    memref.store %s, %out[%c1] : memref<2xi32>
    %out_u = memref.cast %out : memref<2xi32> to memref<*xi32>
    call @printMemrefI32(%out_u) : (memref<*xi32>) -> ()
    return
  }

  func.func private @printMemrefI32(memref<*xi32>)
}
