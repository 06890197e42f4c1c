// MODE: run
// async.execute regions that run gpu work, ordered by tokens and passing
// values: %init allocates and fills a device buffer (gpu.memset), two
// regions depending on it fill its halves with kernels (a fork), and a
// last region, joining both, copies it to the host and yields the sum of
// its elements as an !async.value<i32>, which main awaits and prints.
// Lower half: 5 i + 1 for i in 0..3; upper half: 100 - i for i in 4..7.

// CHECK: rank = 1 offset = 0 sizes = [8] strides = [1]
// CHECK-NEXT: [1, 6, 11, 16, 96, 95, 94, 93]
// CHECK-NEXT: 412

module attributes {gpu.container_module} {
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %host = memref.alloc () : memref<8xi32>

    %t0, %v0 = async.execute () -> !async.value<memref<8xi32>> {
      %dev = gpu.alloc () : memref<8xi32>
      %junk = arith.constant -5 : i32
      gpu.memset %dev, %junk : memref<8xi32>, i32
      async.yield %dev : memref<8xi32>
    }

    %t1 = async.execute [%t0] (%v0 as %dev : !async.value<memref<8xi32>>) {
      gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
                 threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
        %i = arith.index_cast %tx : index to i32
        %five = arith.constant 5 : i32
        %one = arith.constant 1 : i32
        %m = arith.muli %i, %five : i32
        %v = arith.addi %m, %one : i32
        memref.store %v, %dev[%tx] : memref<8xi32>
        gpu.terminator
      }
      async.yield
    }

    %t2 = async.execute [%t0] (%v0 as %dev : !async.value<memref<8xi32>>) {
      gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
                 threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
        %four = arith.constant 4 : index
        %j = arith.addi %tx, %four : index
        %ji = arith.index_cast %j : index to i32
        %hundred = arith.constant 100 : i32
        %v = arith.subi %hundred, %ji : i32
        memref.store %v, %dev[%j] : memref<8xi32>
        gpu.terminator
      }
      async.yield
    }

    %t3, %v3 = async.execute [%t1, %t2] (%v0 as %dev : !async.value<memref<8xi32>>)
        -> !async.value<i32> {
      gpu.memcpy %host, %dev : memref<8xi32>, memref<8xi32>
      gpu.dealloc %dev : memref<8xi32>
      %z = arith.constant 0 : i32
      %sum = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %z) -> (i32) {
        %e = memref.load %host[%i] : memref<8xi32>
        %n = arith.addi %acc, %e : i32
        scf.yield %n : i32
      }
      async.yield %sum : i32
    }

    %total = async.await %v3 : !async.value<i32>
    %host_u = memref.cast %host : memref<8xi32> to memref<*xi32>
    call @printMemrefI32(%host_u) : (memref<*xi32>) -> ()
    vector.print %total : i32
    return
  }

  func.func private @printMemrefI32(memref<*xi32>)
}
