// MODE: run
// GPUCC: --offload-arch=host -e entry --entry-point-result=i32
// Host-side async as upstream's Dialect/Async CPU tests write it (-e entry):
// async.execute regions that return values and depend on tokens, a group
// awaited as a whole, and an scf.parallel reduction beside them. The entry
// returns an i32, printed as mlir-runner prints it.

// CHECK: 10
// CHECK-NEXT: ( 0, 1, 4, 9 )
// CHECK-NEXT: 55
// CHECK-NEXT: 70

func.func @entry() -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c11 = arith.constant 11 : index
  %buf = memref.alloc() : memref<4xi32>

  // A value from one region, awaited by a second that depends on it.
  %t0, %v0 = async.execute () -> !async.value<i32> {
    %ten = arith.constant 10 : i32
    async.yield %ten : i32
  }
  %t1, %v1 = async.execute [%t0] (%v0 as %x : !async.value<i32>) -> !async.value<i32> {
    async.yield %x : i32
  }
  %r1 = async.await %v1 : !async.value<i32>
  vector.print %r1 : i32

  // Four regions in a group, each writing its own element.
  %g = async.create_group %c4 : !async.group
  scf.for %i = %c0 to %c4 step %c1 {
    %t = async.execute {
      %ii = arith.index_cast %i : index to i32
      %sq = arith.muli %ii, %ii : i32
      memref.store %sq, %buf[%i] : memref<4xi32>
      async.yield
    }
    %id = async.add_to_group %t, %g : !async.token
  }
  async.await_all %g
  %v = vector.transfer_read %buf[%c0], %r1 : memref<4xi32>, vector<4xi32>
  vector.print %v : vector<4xi32>

  // A parallel reduction: the sum of 1..10.
  %zero = arith.constant 0 : i32
  %sum = scf.parallel (%i) = (%c1) to (%c11) step (%c1) init (%zero) -> i32 {
    %ii = arith.index_cast %i : index to i32
    scf.reduce(%ii : i32) {
    ^bb0(%a: i32, %b: i32):
      %s = arith.addi %a, %b : i32
      scf.reduce.return %s : i32
    }
  }
  vector.print %sum : i32
  memref.dealloc %buf : memref<4xi32>
  %total = arith.addi %sum, %r1 : i32
  %five = arith.constant 5 : i32
  %ret = arith.addi %total, %five : i32
  return %ret : i32
}
