// llvm.intr.matrix.transpose and llvm.intr.matrix.multiply in host code, as
// upstream's matrix tests write them (column-major, mlir-runner's default
// layout). LLVM's code generators cannot take them; gpucc expanded nothing
// and died inside LLVM ("Do not know how to widen this operator").
//   transpose of the 3x2 matrix [0 3; 1 4; 2 5]:   ( 0, 3, 1, 4, 2, 5 )
//   [0 2 4; 1 3 5] x [0 3; 1 4; 2 5]:              [10 28; 13 40]
//   the same in i32, and a 4x4 transpose of ints.
func.func @main() {
  %c = arith.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0]> : vector<6xf32>
  %t = llvm.intr.matrix.transpose %c {rows = 3 : i32, columns = 2 : i32} : vector<6xf32> into vector<6xf32>
  vector.print %t : vector<6xf32>
  %m = llvm.intr.matrix.multiply %c, %c {lhs_rows = 2 : i32, lhs_columns = 3 : i32, rhs_columns = 2 : i32}
      : (vector<6xf32>, vector<6xf32>) -> vector<4xf32>
  vector.print %m : vector<4xf32>
  %ci = arith.constant dense<[0, 1, 2, 3, 4, 5]> : vector<6xi32>
  %mi = llvm.intr.matrix.multiply %ci, %ci {lhs_rows = 2 : i32, lhs_columns = 3 : i32, rhs_columns = 2 : i32}
      : (vector<6xi32>, vector<6xi32>) -> vector<4xi32>
  vector.print %mi : vector<4xi32>
  %sq = arith.constant dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]> : vector<16xi32>
  %st = llvm.intr.matrix.transpose %sq {rows = 4 : i32, columns = 4 : i32} : vector<16xi32> into vector<16xi32>
  vector.print %st : vector<16xi32>
  return
}
