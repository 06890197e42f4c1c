// !shape.shape values have no LLVM type: the conversion leaves casts.
func.func @rank(%s: !shape.shape) -> index {
  %r = shape.rank %s : !shape.shape -> !shape.size
  %i = shape.size_to_index %r : !shape.size
  return %i : index
}
func.func @main() {
  return
}
