// vector.print in host code, the way vector-level test programs print their
// results: scalars of every printable type (i1 as 0/1, signed integers
// sign-extended, index unsigned, f16/bf16), float special values (printed
// as C's %g does: inf, nan, -0, 1e-07), 1-D and 2-D vectors, strings (no
// newline added) and punctuation control. Lowered to the runner's
// printI64/printU64/printF16/printBF16/printF32/printF64/printString/
// printOpen/printComma/printClose/printNewline.
module {
  func.func @main() {
    %t = arith.constant true
    %f = arith.constant false
    %i8 = arith.constant -5 : i8
    %i32 = arith.constant -7 : i32
    %i64 = arith.constant 9000000000 : i64
    %f32 = arith.constant 1.5 : f32
    %f64 = arith.constant -0.25 : f64
    %idx = arith.constant 42 : index
    vector.print str "scalars:\n"
    vector.print %t : i1
    vector.print %f : i1
    vector.print %i8 : i8
    vector.print %i32 : i32
    vector.print %i64 : i64
    vector.print %f32 : f32
    vector.print %f64 : f64
    vector.print %idx : index
    %h = arith.constant 1.5 : f16
    %bf = arith.constant -2.25 : bf16
    %u = arith.constant -1 : index
    vector.print %h : f16
    vector.print %bf : bf16
    vector.print %u : index
    vector.print str "special values:\n"
    %inf = arith.constant 0x7F800000 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %nan = arith.constant 0x7FC00000 : f32
    %nnan = arith.constant 0xFFC00000 : f32
    %nzero = arith.constant -0.0 : f32
    %tiny = arith.constant 1.0e-7 : f32
    %big = arith.constant 123456789.0 : f32
    %third = arith.constant 0.333333343 : f32
    %dnan = arith.constant 0x7FF8000000000000 : f64
    %dbig = arith.constant 1.0e300 : f64
    %dnzero = arith.constant -0.0 : f64
    vector.print %inf : f32
    vector.print %ninf : f32
    vector.print %nan : f32
    vector.print %nnan : f32
    vector.print %nzero : f32
    vector.print %tiny : f32
    vector.print %big : f32
    vector.print %third : f32
    vector.print %dnan : f64
    vector.print %dbig : f64
    vector.print %dnzero : f64
    vector.print str "vectors:\n"
    %v1 = arith.constant dense<[1, -2, 3, -4]> : vector<4xi32>
    vector.print %v1 : vector<4xi32>
    %v2 = arith.constant dense<[[0.5, 1.0, 1.5], [2.0, 2.5, 3.0]]> : vector<2x3xf32>
    vector.print %v2 : vector<2x3xf32>
    %m = arith.constant dense<[true, false, true]> : vector<3xi1>
    vector.print %m : vector<3xi1>
    // computed vectors: a splat, an add, a step and a reduction
    %s = vector.broadcast %f32 : f32 to vector<3xf32>
    %v3 = arith.constant dense<[1.0, 2.0, 3.0]> : vector<3xf32>
    %sum = arith.addf %s, %v3 : vector<3xf32>
    vector.print %sum : vector<3xf32>
    %st = vector.step : vector<5xindex>
    vector.print %st : vector<5xindex>
    %red = vector.reduction <add>, %v1 : vector<4xi32> into i32
    vector.print %red : i32
    %d = arith.constant dense<[0.125, 1.0e10]> : vector<2xf64>
    vector.print %d : vector<2xf64>
    // punctuation: three values on one line (a string gets no newline)
    vector.print %i32 : i32 punctuation <comma>
    vector.print %idx : index punctuation <comma>
    vector.print %f32 : f32 punctuation <no_punctuation>
    vector.print punctuation <newline>
    vector.print str "done\n"
    return
  }
}
