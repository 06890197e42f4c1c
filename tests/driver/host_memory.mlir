// Launches passing host memory: a memref.alloc and a memref.get_global are
// warned about when a GPU target is asked for; a gpu.alloc and a registered
// (gpu.host_register) memref.alloc are not.
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%o: memref<4xf32>, %p: memref<4xf32>) kernel {
      gpu.return
    }
  }
  memref.global "private" @g : memref<4xf32> = dense<0.0>
  func.func @main() {
    %c1 = arith.constant 1 : index
    %h = memref.alloc () : memref<4xf32>
    %r = memref.alloc () : memref<4xf32>
    %u = memref.cast %r : memref<4xf32> to memref<*xf32>
    gpu.host_register %u : memref<*xf32>
    %d = gpu.alloc () : memref<4xf32>
    %g = memref.get_global @g : memref<4xf32>
    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%h : memref<4xf32>, %d : memref<4xf32>)
    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%r : memref<4xf32>, %g : memref<4xf32>)
    return
  }
}
