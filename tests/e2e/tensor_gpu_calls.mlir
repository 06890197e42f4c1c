// Host functions that take and return tensors and call the GPU inside:
// @on_gpu copies its tensor to the device, doubles it there and returns a
// new tensor; @same hands its argument back. main squares a constant and
// passes it through both three times: [1, 4, 9, 16] * 8 = [8, 32, 72, 128].
// Both callees are left out of buffer deallocation (they hold gpu ops) and
// main, which has none, gets it: main must free what it owns and nothing
// a callee returned as an alias of its argument twice.
#id = affine_map<(i) -> (i)>
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @double(%a: memref<4xf32>) kernel {
      %t = gpu.thread_id x
      %x = memref.load %a[%t] : memref<4xf32>
      %y = arith.addf %x, %x : f32
      memref.store %y, %a[%t] : memref<4xf32>
      gpu.return
    }
  }
  func.func @on_gpu(%t: tensor<4xf32>) -> tensor<4xf32> {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %m = bufferization.to_buffer %t : tensor<4xf32> to memref<4xf32>
    %d = gpu.alloc () : memref<4xf32>
    gpu.memcpy %d, %m : memref<4xf32>, memref<4xf32>
    gpu.launch_func @k::@double blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%d : memref<4xf32>)
    %h = memref.alloc() : memref<4xf32>
    gpu.memcpy %h, %d : memref<4xf32>, memref<4xf32>
    gpu.dealloc %d : memref<4xf32>
    %r = bufferization.to_tensor %h restrict : memref<4xf32> to tensor<4xf32>
    return %r : tensor<4xf32>
  }
  func.func @same(%t: tensor<4xf32>) -> tensor<4xf32> {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %m = bufferization.to_buffer %t : tensor<4xf32> to memref<4xf32>
    %d = gpu.alloc () : memref<4xf32>
    gpu.memcpy %d, %m : memref<4xf32>, memref<4xf32>
    gpu.dealloc %d : memref<4xf32>
    return %t : tensor<4xf32>
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %init = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
    %e = tensor.empty() : tensor<4xf32>
    %sq = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%init : tensor<4xf32>) outs(%e : tensor<4xf32>) {
    ^bb0(%x: f32, %o: f32):
      %y = arith.mulf %x, %x : f32
      linalg.yield %y : f32
    } -> tensor<4xf32>
    %p = scf.for %i = %c0 to %c3 step %c1 iter_args(%t = %sq) -> (tensor<4xf32>) {
      %s = func.call @on_gpu(%t) : (tensor<4xf32>) -> tensor<4xf32>
      %s2 = func.call @same(%s) : (tensor<4xf32>) -> tensor<4xf32>
      scf.yield %s2 : tensor<4xf32>
    }
    %m = bufferization.to_buffer %p : tensor<4xf32> to memref<4xf32>
    %u = memref.cast %m : memref<4xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
}
