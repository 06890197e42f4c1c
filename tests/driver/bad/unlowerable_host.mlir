// gpu.thread_id means nothing outside a kernel: no host lowering exists.
func.func @main() {
  %t = gpu.thread_id x
  vector.print %t : index
  return
}
