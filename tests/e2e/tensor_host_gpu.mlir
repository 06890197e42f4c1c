// Tensor code and GPU calls in one host function, as a compiler emits them:
// a linalg result on tensors goes to the device, a kernel (launch_func) and
// a gpu.launch body change it, and it comes back. The deallocation pipeline
// cannot process such a function (it refuses gpu.launch_func and
// gpu.dealloc), so gpucc leaves it out; the tensor helper @square still
// gets its buffers freed.
//   x = [1, 2, 3, 4]; square three times in a loop: x^8 = [1, 256, 6561, 65536]
//   launch_func doubles, gpu.launch adds 1: [3, 513, 13123, 131073]
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
  func.func @square(%t: tensor<4xf32>) -> tensor<4xf32> {
    %e = tensor.empty() : tensor<4xf32>
    %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
        ins(%t : tensor<4xf32>) outs(%e : tensor<4xf32>) {
    ^bb0(%x: f32, %o: f32):
      %y = arith.mulf %x, %x : f32
      linalg.yield %y : f32
    } -> tensor<4xf32>
    return %r : tensor<4xf32>
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %init = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
    %p = scf.for %i = %c0 to %c3 step %c1 iter_args(%t = %init) -> (tensor<4xf32>) {
      %s = func.call @square(%t) : (tensor<4xf32>) -> tensor<4xf32>
      scf.yield %s : tensor<4xf32>
    }
    %m = bufferization.to_buffer %p : tensor<4xf32> to memref<4xf32>
    %h = memref.alloc() : memref<4xf32>
    memref.copy %m, %h : memref<4xf32> to memref<4xf32>
    %d = gpu.alloc () : memref<4xf32>
    gpu.memcpy %d, %h : memref<4xf32>, memref<4xf32>
    gpu.launch_func @k::@double blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%d : memref<4xf32>)
    gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1)
               threads(%tx, %ty, %tz) in (%q = %c4, %r = %c1, %s = %c1) {
      %v = memref.load %d[%tx] : memref<4xf32>
      %one = arith.constant 1.0 : f32
      %w = arith.addf %v, %one : f32
      memref.store %w, %d[%tx] : memref<4xf32>
      gpu.terminator
    }
    gpu.memcpy %h, %d : memref<4xf32>, memref<4xf32>
    gpu.dealloc %d : memref<4xf32>
    %u = memref.cast %h : memref<4xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    memref.dealloc %h : memref<4xf32>
    return
  }
}
