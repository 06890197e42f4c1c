// async.create_group, async.add_to_group in a loop, async.await_all: 16
// bodies each store i*i into a shared buffer; main prints the buffer once
// all are done, and the ranks add_to_group returned (their sum: 0+...+15).
func.func private @asyncTestPrintI64(i64)

func.func @main() -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 16 : index
  %buf = memref.alloc() : memref<16xi64>
  %g = async.create_group %n : !async.group
  %ranks = scf.for %i = %c0 to %n step %c1 iter_args(%sum = %c0) -> (index) {
    %t = async.execute {
      %ii = arith.index_cast %i : index to i64
      %sq = arith.muli %ii, %ii : i64
      memref.store %sq, %buf[%i] : memref<16xi64>
      async.yield
    }
    %rank = async.add_to_group %t, %g : !async.token
    %next = arith.addi %sum, %rank : index
    scf.yield %next : index
  }
  async.await_all %g
  scf.for %i = %c0 to %n step %c1 {
    %x = memref.load %buf[%i] : memref<16xi64>
    func.call @asyncTestPrintI64(%x) : (i64) -> ()
  }
  %r = arith.index_cast %ranks : index to i64
  func.call @asyncTestPrintI64(%r) : (i64) -> ()
  memref.dealloc %buf : memref<16xi64>
  %zero = arith.constant 0 : i32
  return %zero : i32
}
