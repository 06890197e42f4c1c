// A plain (blocking) async.await on a worker thread. @wait_for is no
// coroutine, so its await blocks the worker that runs the first body; the
// token it waits for is made available by the second body, queued behind
// the first. Run with GPUCC_ASYNC_THREADS=1: a pool that did not replace
// its blocked worker would never run the second body (the test would time
// out).
func.func private @asyncTestPrintI64(i64)

func.func @wait_for(%t: !async.token) {
  async.await %t : !async.token
  return
}

func.func @main() -> i32 {
  %gate = async.runtime.create : !async.token
  %first = async.execute {
    func.call @wait_for(%gate) : (!async.token) -> ()
    %c1 = arith.constant 1 : i64
    func.call @asyncTestPrintI64(%c1) : (i64) -> ()
    async.yield
  }
  %second = async.execute {
    async.runtime.set_available %gate : !async.token
    async.yield
  }
  async.await %first : !async.token
  async.await %second : !async.token
  %c2 = arith.constant 2 : i64
  func.call @asyncTestPrintI64(%c2) : (i64) -> ()
  %zero = arith.constant 0 : i32
  return %zero : i32
}
