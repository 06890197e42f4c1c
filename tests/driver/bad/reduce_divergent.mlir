// A subgroup reduction under a condition on the thread id: not every lane
// of the subgroup reaches it, and gpucc says so.
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%m: memref<64xi32>) kernel {
      %t = gpu.thread_id x
      %c8 = arith.constant 8 : index
      %lt = arith.cmpi ult, %t, %c8 : index
      scf.if %lt {
        %ti = arith.index_cast %t : index to i32
        %s = gpu.subgroup_reduce add %ti : (i32) -> i32
        memref.store %s, %m[%t] : memref<64xi32>
      }
      gpu.return
    }
  }
}
