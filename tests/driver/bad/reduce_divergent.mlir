// A subgroup reduction of a vector under a condition on the thread id:
// gpucc lowers divergent reductions of scalars (the lanes that reach them
// take part), not of vectors, and says so.
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%m: memref<64xvector<2xf32>>) kernel {
      %t = gpu.thread_id x
      %c8 = arith.constant 8 : index
      %lt = arith.cmpi ult, %t, %c8 : index
      scf.if %lt {
        %v = memref.load %m[%t] : memref<64xvector<2xf32>>
        %s = gpu.subgroup_reduce add %v : (vector<2xf32>) -> vector<2xf32>
        memref.store %s, %m[%t] : memref<64xvector<2xf32>>
      }
      gpu.return
    }
  }
}
