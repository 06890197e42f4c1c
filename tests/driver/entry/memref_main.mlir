// A main taking a memref: its code would read argc and argv as one.
func.func @main(%m: memref<4xf32>) {
  return
}
