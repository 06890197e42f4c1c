module {
  func.func @main() -> i32 {
    return
  }
}
