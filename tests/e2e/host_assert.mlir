// A cf.assert in host code that fails after the program printed a line.
// Expected (host_assert.sh): exit status 134 (abort), "before" on stdout,
// "host_assert.mlir:15: Assertion failed: a must exceed b" on stderr, and
// no "after". The assertion before it holds and prints nothing.
module {
  func.func @main() {
    %a = arith.constant 1 : index
    %b = arith.constant 2 : index
    %lt = arith.cmpi slt, %a, %b : index
    cf.assert %lt, "a below b holds"
    vector.print str "before\n"
    %gt = arith.cmpi sgt, %a, %b : index
    scf.if %lt {
      // the assertion inside a region
      cf.assert %gt, "a must exceed b"
    }
    vector.print str "after\n"
    return
  }
}
