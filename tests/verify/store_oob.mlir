// -fsanitize=bounds: a store past the end of a host memref is reported
// (op, what is wrong, location) and the program aborts, after what it printed.
func.func @main() {
  %m = memref.alloc() : memref<4xf32>
  %c5 = arith.constant 5 : index
  %f = arith.constant 1.0 : f32
  vector.print %f : f32
  memref.store %f, %m[%c5] : memref<4xf32>
  vector.print %f : f32
  return
}
