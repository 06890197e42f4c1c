// -fsanitize=bounds: a memref.cast to a static shape the dynamic
// memref does not have (3 elements cast to 4).
func.func @main() {
  %c3 = arith.constant 3 : index
  %m = memref.alloc(%c3) : memref<?xf32>
  %f = arith.constant 2.0 : f32
  vector.print %f : f32
  %s = memref.cast %m : memref<?xf32> to memref<4xf32>
  %c0 = arith.constant 0 : index
  memref.store %f, %s[%c0] : memref<4xf32>
  return
}
