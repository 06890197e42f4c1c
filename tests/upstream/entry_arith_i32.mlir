// MODE: run
// GPUCC: --offload-arch=host -e entry --entry-point-result=i32
// Host-side arith as upstream's Dialect/Arith integration tests run it
// (mlir-runner -e entry -entry-point-result=i32): the entry's i32 result is
// printed on a line of its own and the exit status is 0. Rounding divisions
// of negative numbers, shifts and an overflowing multiply, folded into one
// result: ceildivsi(-7, 2) = -3, floordivsi(-7, 2) = -4, remsi(-7, 2) = -1,
// shrsi(-16, 2) = -4, 2^31 * 2 wraps to 0 in i32;
// -3*1000 + -4*100 + -1*10 + -4 + 0 = -3414.

// CHECK: -3414
// CHECK-NOT: {{.}}

func.func @entry() -> i32 {
  %m7 = arith.constant -7 : i32
  %c2 = arith.constant 2 : i32
  %m16 = arith.constant -16 : i32
  %big = arith.constant 2147483647 : i32
  %c1 = arith.constant 1 : i32
  %ceil = arith.ceildivsi %m7, %c2 : i32
  %floor = arith.floordivsi %m7, %c2 : i32
  %rem = arith.remsi %m7, %c2 : i32
  %shr = arith.shrsi %m16, %c2 : i32
  %p = arith.addi %big, %c1 : i32
  %wrap = arith.muli %p, %c2 : i32
  %k1000 = arith.constant 1000 : i32
  %k100 = arith.constant 100 : i32
  %k10 = arith.constant 10 : i32
  %a = arith.muli %ceil, %k1000 : i32
  %b = arith.muli %floor, %k100 : i32
  %c = arith.muli %rem, %k10 : i32
  %s1 = arith.addi %a, %b : i32
  %s2 = arith.addi %s1, %c : i32
  %s3 = arith.addi %s2, %shr : i32
  %s4 = arith.addi %s3, %wrap : i32
  return %s4 : i32
}
