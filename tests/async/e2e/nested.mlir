// Coroutine awaits of all three kinds inside async.execute bodies
// (AwaitAllInGroupAndExecute, AwaitTokenAndExecute, AwaitValueAndExecute),
// with async.execute nested in async.execute: the outer body starts four
// inner ones, groups them and awaits the group, then awaits a value made by
// a sibling and yields the sum. (Bodies are straight-line code:
// async-to-async-runtime takes no scf loops and no blocks inside them.)
func.func private @asyncTestPrintI64(i64)

func.func @main() -> i32 {
  %c4 = arith.constant 4 : index
  %a = arith.constant 1 : i64
  %b = arith.constant 20 : i64
  %c = arith.constant 300 : i64
  %d = arith.constant 4000 : i64
  %buf = memref.alloc() : memref<4xi64>

  %ts, %vs = async.execute -> !async.value<i64> {
    %k = arith.constant 50000 : i64
    async.yield %k : i64
  }
  %to, %vo = async.execute -> !async.value<i64> {
    %i0 = arith.constant 0 : index
    %i1 = arith.constant 1 : index
    %i2 = arith.constant 2 : index
    %i3 = arith.constant 3 : index
    %g = async.create_group %c4 : !async.group
    %t0 = async.execute {
      memref.store %a, %buf[%i0] : memref<4xi64>
      async.yield
    }
    %t1 = async.execute {
      memref.store %b, %buf[%i1] : memref<4xi64>
      async.yield
    }
    %t2 = async.execute {
      memref.store %c, %buf[%i2] : memref<4xi64>
      async.yield
    }
    %t3 = async.execute {
      memref.store %d, %buf[%i3] : memref<4xi64>
      async.yield
    }
    %r0 = async.add_to_group %t0, %g : !async.token
    %r1 = async.add_to_group %t1, %g : !async.token
    %r2 = async.add_to_group %t2, %g : !async.token
    %r3 = async.add_to_group %t3, %g : !async.token
    async.await_all %g
    %x0 = memref.load %buf[%i0] : memref<4xi64>
    %x1 = memref.load %buf[%i1] : memref<4xi64>
    %x2 = memref.load %buf[%i2] : memref<4xi64>
    %x3 = memref.load %buf[%i3] : memref<4xi64>
    %s01 = arith.addi %x0, %x1 : i64
    %s23 = arith.addi %x2, %x3 : i64
    %sum = arith.addi %s01, %s23 : i64
    async.await %ts : !async.token
    %k = async.await %vs : !async.value<i64>
    %total = arith.addi %sum, %k : i64
    async.yield %total : i64
  }
  %r = async.await %vo : !async.value<i64>
  func.call @asyncTestPrintI64(%r) : (i64) -> ()
  memref.dealloc %buf : memref<4xi64>
  %ret = arith.constant 0 : i32
  return %ret : i32
}
