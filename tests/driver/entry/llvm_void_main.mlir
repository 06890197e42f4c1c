// An llvm.func main without a result: the exit status must be 0, not what
// a register held.
llvm.func @main() {
  %c = llvm.mlir.constant(7 : i64) : i64
  llvm.return
}
