// async.execute with !async.value results, chained: the second body awaits
// the first one's value (a coroutine await: AwaitValueAndExecute), main
// awaits both (blocking: AwaitValue, AwaitToken).
func.func private @asyncTestPrintF32(f32)
func.func private @asyncTestPrintI64(i64)

func.func @main() -> i32 {
  %a = arith.constant 1.5 : f32
  %b = arith.constant 2.0 : f32
  %t1, %v1 = async.execute -> !async.value<f32> {
    %x = arith.mulf %a, %b : f32
    async.yield %x : f32
  }
  %t2, %v2, %v3 = async.execute [%t1] (%v1 as %x : !async.value<f32>)
      -> (!async.value<f32>, !async.value<i64>) {
    %y = arith.addf %x, %b : f32
    %i = arith.fptosi %y : f32 to i64
    async.yield %y, %i : f32, i64
  }
  async.await %t2 : !async.token
  %r1 = async.await %v1 : !async.value<f32>
  %r2 = async.await %v2 : !async.value<f32>
  %r3 = async.await %v3 : !async.value<i64>
  func.call @asyncTestPrintF32(%r1) : (f32) -> ()
  func.call @asyncTestPrintF32(%r2) : (f32) -> ()
  func.call @asyncTestPrintI64(%r3) : (i64) -> ()
  %zero = arith.constant 0 : i32
  return %zero : i32
}
