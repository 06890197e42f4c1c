// A plain async.await of a token in error aborts the program: the lowering
// follows mlirAsyncRuntimeAwaitToken with mlirAsyncRuntimeIsTokenError and
// a failing cf.assert, which prints its message and aborts. Expected: "1",
// the message, then SIGABRT (status 134); "2" never comes.
func.func private @asyncTestPrintI64(i64)

func.func @main() -> i32 {
  %false = arith.constant false
  %t = async.execute {
    cf.assert %false, "fails on purpose"
    async.yield
  }
  %c1 = arith.constant 1 : i64
  func.call @asyncTestPrintI64(%c1) : (i64) -> ()
  async.await %t : !async.token
  %c2 = arith.constant 2 : i64
  func.call @asyncTestPrintI64(%c2) : (i64) -> ()
  %zero = arith.constant 0 : i32
  return %zero : i32
}
