// Elementwise arith and math ops on tensors in host code (arith.addf,
// arith.mulf, math.exp, arith.cmpf on tensor<3xf32>): they become
// linalg.generic before bufferization; before, 'op was not bufferized'.
func.func @main() {
  %a = arith.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %b = arith.constant dense<[0.5, 0.25, 4.0]> : tensor<3xf32>
  %s = arith.addf %a, %b : tensor<3xf32>
  %p = arith.mulf %s, %a : tensor<3xf32>
  %e = math.exp %b : tensor<3xf32>
  %c = arith.cmpf olt, %p, %e : tensor<3xf32>
  %u = tensor.cast %p : tensor<3xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  %c0 = arith.constant 0 : index
  %x = tensor.extract %c[%c0] : tensor<3xi1>
  vector.print %x : i1
  return
}
func.func private @printMemrefF32(tensor<*xf32>)
