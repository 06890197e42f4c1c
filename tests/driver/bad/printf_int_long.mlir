// %hd of an i64: C only warns, but the next argument would be read 4 bytes off.
// (%d of an i64 or index prints it whole: printf_index in tests/e2e.)
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f() kernel {
      %i = arith.constant 7 : i32
      %l = arith.constant 7 : i64
      %x = arith.constant 1.5 : f32
      %d = arith.constant 2.5 : f64
      gpu.printf "%hd then %d\n", %l, %i : i64, i32
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
}
