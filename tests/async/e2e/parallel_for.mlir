// scf.parallel through -async-parallel-for{num-workers=-1}: the loop is
// split in blocks by the pool's size (mlirAsyncRuntimGetNumWorkerThreads),
// dispatched recursively with async.execute and joined with a group.
func.func private @asyncTestPrintI64(i64)

func.func @main() -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 1000 : index
  %buf = memref.alloc() : memref<1000xi64>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %ii = arith.index_cast %i : index to i64
    %x = arith.muli %ii, %ii : i64
    memref.store %x, %buf[%i] : memref<1000xi64>
    scf.reduce
  }
  %zero = arith.constant 0 : i64
  %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (i64) {
    %x = memref.load %buf[%i] : memref<1000xi64>
    %s = arith.addi %acc, %x : i64
    scf.yield %s : i64
  }
  func.call @asyncTestPrintI64(%sum) : (i64) -> ()
  memref.dealloc %buf : memref<1000xi64>
  %ret = arith.constant 0 : i32
  return %ret : i32
}
