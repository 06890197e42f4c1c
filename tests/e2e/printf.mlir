// gpu.printf from 4 threads; each prints its id.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @hello() kernel {
      %t = gpu.thread_id x
      %ti = arith.index_cast %t : index to i32
      gpu.printf "hello from thread %d\n", %ti : i32
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    gpu.launch_func @kernels::@hello blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1)
    return
  }
}
