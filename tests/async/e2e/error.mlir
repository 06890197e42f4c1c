// Errors: a body whose cf.assert fails sets its token and value in error
// (async-to-async-runtime turns the assert into set_error); a body that
// awaits them is in error too without running; a group holding the failed
// token is in error, a group without it is not. Main checks with the
// runtime ops (a plain async.await of an error token would abort).
func.func private @asyncTestPrintI64(i64)

func.func @print_bool(%b: i1) {
  %x = arith.extui %b : i1 to i64
  func.call @asyncTestPrintI64(%x) : (i64) -> ()
  return
}

func.func @main() -> i32 {
  %false = arith.constant false
  %true = arith.constant true
  %one = arith.constant 1.0 : f32
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index

  %bad, %badv = async.execute -> !async.value<f32> {
    cf.assert %false, "fails on purpose"
    async.yield %one : f32
  }
  %good = async.execute {
    cf.assert %true, "holds"
    async.yield
  }
  %after = async.execute [%bad] {
    async.yield
  }
  %afterv, %afterv_v = async.execute (%badv as %x : !async.value<f32>) -> !async.value<f32> {
    async.yield %x : f32
  }

  async.runtime.await %bad : !async.token
  async.runtime.await %badv : !async.value<f32>
  async.runtime.await %good : !async.token
  async.runtime.await %after : !async.token
  async.runtime.await %afterv_v : !async.value<f32>
  %e1 = async.runtime.is_error %bad : !async.token
  %e2 = async.runtime.is_error %badv : !async.value<f32>
  %e3 = async.runtime.is_error %good : !async.token
  %e4 = async.runtime.is_error %after : !async.token
  %e5 = async.runtime.is_error %afterv_v : !async.value<f32>
  func.call @print_bool(%e1) : (i1) -> ()
  func.call @print_bool(%e2) : (i1) -> ()
  func.call @print_bool(%e3) : (i1) -> ()
  func.call @print_bool(%e4) : (i1) -> ()
  func.call @print_bool(%e5) : (i1) -> ()

  %g1 = async.create_group %c2 : !async.group
  %r0 = async.add_to_group %good, %g1 : !async.token
  %r1 = async.add_to_group %bad, %g1 : !async.token
  async.runtime.await %g1 : !async.group
  %e6 = async.runtime.is_error %g1 : !async.group
  func.call @print_bool(%e6) : (i1) -> ()

  %g2 = async.create_group %c1 : !async.group
  %r2 = async.add_to_group %good, %g2 : !async.token
  async.runtime.await %g2 : !async.group
  %e7 = async.runtime.is_error %g2 : !async.group
  func.call @print_bool(%e7) : (i1) -> ()

  %zero = arith.constant 0 : i32
  return %zero : i32
}
