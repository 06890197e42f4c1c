// A launch that passes an index for a memref, inside a loop, where MLIR
// 22's verifier does not look (launch_arity.mlir's sibling).
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @add_one(%a: memref<?xf32>, %n: index) kernel {
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %r = %c0 to %c1 step %c1 {
      gpu.launch_func @kernels::@add_one blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%c1 : index, %c1 : index)
    }
    return
  }
}
