// -fsanitize=bounds on tensor ops, checked as written (before
// bufferization): tensor.extract at an index past the end.
func.func @main() {
  %t = arith.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %c0 = arith.constant 0 : index
  %i = arith.constant 7 : index
  %x = tensor.extract %t[%c0] : tensor<3xf32>
  vector.print %x : f32
  %y = tensor.extract %t[%i] : tensor<3xf32>
  vector.print %y : f32
  return
}
