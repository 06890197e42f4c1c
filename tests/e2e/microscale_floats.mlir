// The microscaling formats' conversions in host code: f32 to f4E2M1FN and
// back (saturating at 6), and f8E8M0FNU (a power of two, the scale of a
// block) to f32 and back. Before, gpucc had no lowering for either. The
// expected values are what upstream's arith-expand (include-f4e2m1,
// include-f8e8m0) gives under mlir-runner, its rounding included: 2.5 goes
// to 3 in f4E2M1FN (not to the even 2), 3.0 to 2 in f8E8M0FNU.
func.func @main() {
  %v = arith.constant dense<[0.5, 1.0, 1.7, -3.0, 6.0, 100.0, 0.2, 2.5]> : vector<8xf32>
  %t = arith.truncf %v : vector<8xf32> to vector<8xf4E2M1FN>
  %e = arith.extf %t : vector<8xf4E2M1FN> to vector<8xf32>
  vector.print %e : vector<8xf32>
  %s = arith.constant dense<[1.0, 0.25, 1024.0, 3.0]> : vector<4xf32>
  %s8 = arith.truncf %s : vector<4xf32> to vector<4xf8E8M0FNU>
  %se = arith.extf %s8 : vector<4xf8E8M0FNU> to vector<4xf32>
  vector.print %se : vector<4xf32>
  return
}
