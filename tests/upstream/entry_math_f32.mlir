// MODE: run
// GPUCC: --offload-arch=host -e entry --entry-point-result=f32
// math ops in host code with an f32 entry result, printed as mlir-runner
// prints one ("%e"): exp(0) + log(e^2) + sqrt(16) + 2^3 (math.powf) +
// fma(1.5, 2, 0.25) = 1 + 2 + 4 + 8 + 3.25 = 18.25.

// CHECK: 1.825000e+01

func.func @entry() -> f32 {
  %z = arith.constant 0.0 : f32
  %e2 = arith.constant 7.389056 : f32
  %c16 = arith.constant 16.0 : f32
  %two = arith.constant 2.0 : f32
  %three = arith.constant 3.0 : f32
  %a15 = arith.constant 1.5 : f32
  %q = arith.constant 0.25 : f32
  %exp = math.exp %z : f32
  %log = math.log %e2 : f32
  %sqrt = math.sqrt %c16 : f32
  %pow = math.powf %two, %three : f32
  %fma = math.fma %a15, %two, %q : f32
  %s1 = arith.addf %exp, %log : f32
  %s2 = arith.addf %s1, %sqrt : f32
  %s3 = arith.addf %s2, %pow : f32
  %s4 = arith.addf %s3, %fma : f32
  // log(7.389056) is 2 to within f32's precision; round to 1/4 so that the
  // printed value does not depend on the last ulp.
  %four = arith.constant 4.0 : f32
  %m = arith.mulf %s4, %four : f32
  %r = math.round %m : f32
  %d = arith.divf %r, %four : f32
  return %d : f32
}
