// %d of an index: printed whole as %lld, with one -Wformat warning per
// format (an error under -Werror).
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f() kernel {
      %t = gpu.thread_id x
      %l = arith.constant 7 : i64
      %i = arith.constant 7 : i32
      gpu.printf "%d %x %d\n", %t, %l, %i : index, i64, i32
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
}
