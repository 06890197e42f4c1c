module {
  func.func @main() {
    gpu.frobnicate
    return
  }
}
