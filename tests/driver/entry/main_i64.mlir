// -e main --entry-point-result=i64: the program's own main is the entry.
func.func @main() -> i64 {
  %c = arith.constant 123456789012 : i64
  return %c : i64
}
