// MODE: compile
// GPUCC: --offload-arch=sm_90 -Xptxas -v
// NEEDS: ptxas
// What ptxas prints when asked (-Xptxas -v, its resource report, as
// upstream's compiler-log test collects it) reaches gpucc's stderr, one
// report per kernel of the gpu.module.

// CHECK-DAG: ptxas info {{.*}}Compiling entry function 'first' for 'sm_90'
// CHECK-DAG: ptxas info {{.*}}Compiling entry function 'second' for 'sm_90'
// CHECK: Used {{[0-9]+}} registers

module attributes {gpu.container_module} {
  gpu.module @report {
    gpu.func @first(%out : memref<8xf32>) kernel {
      %t = gpu.thread_id x
      %ti = arith.index_cast %t : index to i32
      %v = arith.sitofp %ti : i32 to f32
      memref.store %v, %out[%t] : memref<8xf32>
      gpu.return
    }
    gpu.func @second(%out : memref<8xi32>) kernel {
      %t = gpu.thread_id x
      %ti = arith.index_cast %t : index to i32
      memref.store %ti, %out[%t] : memref<8xi32>
      gpu.return
    }
  }
}
