// linalg on tensors in host code, as a frontend emits it before
// bufferization: tensor.empty, a dense constant, linalg.fill, linalg.generic
// and linalg.matmul on tensors, a helper function that takes and returns a
// tensor, bufferization.to_tensor to bring a host buffer in and
// bufferization.to_buffer to hand results to the printer. gpucc has to run
// one-shot bufferization (across function boundaries).
//   A(i,k) = 3i + k + 1 = [[1, 2, 3], [4, 5, 6]]
//   B      = [[1, 0], [0, 1], [1, 1]]
//   C = A * B = [[4, 5], [10, 11]]
//   E = relu(C * C - 50) = [[0, 0], [50, 71]]
//   s = sum of E = 121
//   F = E + bias (broadcast over rows), bias = [100, 200] from a memref
//     = [[100, 200], [150, 271]]
#id = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (j)>
#all = affine_map<(i, j) -> ()>
module {
  func.func private @printMemrefF32(memref<*xf32>)
  func.func private @printF32(f32)
  func.func private @printNewline()

  func.func @square_minus_relu(%t: tensor<2x2xf32>, %bias: f32) -> tensor<2x2xf32> {
    %zero = arith.constant 0.0 : f32
    %init = tensor.empty() : tensor<2x2xf32>
    %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%t : tensor<2x2xf32>) outs(%init : tensor<2x2xf32>) {
    ^bb0(%x: f32, %out: f32):
      %sq = arith.mulf %x, %x : f32
      %d = arith.subf %sq, %bias : f32
      %m = arith.maxnumf %d, %zero : f32
      linalg.yield %m : f32
    } -> tensor<2x2xf32>
    return %r : tensor<2x2xf32>
  }

  func.func @main() {
    %zero = arith.constant 0.0 : f32
    %fifty = arith.constant 50.0 : f32
    %b = arith.constant dense<[[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]> : tensor<3x2xf32>
    %ea = tensor.empty() : tensor<2x3xf32>
    %a = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
        outs(%ea : tensor<2x3xf32>) {
    ^bb0(%out: f32):
      %i = linalg.index 0 : index
      %k = linalg.index 1 : index
      %c3 = arith.constant 3 : index
      %c1 = arith.constant 1 : index
      %i3 = arith.muli %i, %c3 : index
      %s = arith.addi %i3, %k : index
      %v = arith.addi %s, %c1 : index
      %vi = arith.index_cast %v : index to i64
      %vf = arith.sitofp %vi : i64 to f32
      linalg.yield %vf : f32
    } -> tensor<2x3xf32>
    %ec = tensor.empty() : tensor<2x2xf32>
    %cz = linalg.fill ins(%zero : f32) outs(%ec : tensor<2x2xf32>) -> tensor<2x2xf32>
    %c = linalg.matmul ins(%a, %b : tensor<2x3xf32>, tensor<3x2xf32>)
                       outs(%cz : tensor<2x2xf32>) -> tensor<2x2xf32>
    %e = call @square_minus_relu(%c, %fifty) : (tensor<2x2xf32>, f32) -> tensor<2x2xf32>
    %es = tensor.empty() : tensor<f32>
    %sz = linalg.fill ins(%zero : f32) outs(%es : tensor<f32>) -> tensor<f32>
    %sum = linalg.generic {indexing_maps = [#id, #all], iterator_types = ["reduction", "reduction"]}
        ins(%e : tensor<2x2xf32>) outs(%sz : tensor<f32>) {
    ^bb0(%x: f32, %acc: f32):
      %s = arith.addf %acc, %x : f32
      linalg.yield %s : f32
    } -> tensor<f32>
    %hb = memref.alloc() : memref<2xf32>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %b100 = arith.constant 100.0 : f32
    %b200 = arith.constant 200.0 : f32
    memref.store %b100, %hb[%c0] : memref<2xf32>
    memref.store %b200, %hb[%c1] : memref<2xf32>
    %bias = bufferization.to_tensor %hb restrict : memref<2xf32> to tensor<2xf32>
    %ef = tensor.empty() : tensor<2x2xf32>
    %f = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
        ins(%e, %bias : tensor<2x2xf32>, tensor<2xf32>) outs(%ef : tensor<2x2xf32>) {
    ^bb0(%x: f32, %y: f32, %out: f32):
      %s = arith.addf %x, %y : f32
      linalg.yield %s : f32
    } -> tensor<2x2xf32>
    %ma = bufferization.to_buffer %a : tensor<2x3xf32> to memref<2x3xf32>
    %mc = bufferization.to_buffer %c : tensor<2x2xf32> to memref<2x2xf32>
    %me = bufferization.to_buffer %e : tensor<2x2xf32> to memref<2x2xf32>
    %ua = memref.cast %ma : memref<2x3xf32> to memref<*xf32>
    %uc = memref.cast %mc : memref<2x2xf32> to memref<*xf32>
    %ue = memref.cast %me : memref<2x2xf32> to memref<*xf32>
    call @printMemrefF32(%ua) : (memref<*xf32>) -> ()
    call @printMemrefF32(%uc) : (memref<*xf32>) -> ()
    call @printMemrefF32(%ue) : (memref<*xf32>) -> ()
    %mf = bufferization.to_buffer %f : tensor<2x2xf32> to memref<2x2xf32>
    %uf = memref.cast %mf : memref<2x2xf32> to memref<*xf32>
    call @printMemrefF32(%uf) : (memref<*xf32>) -> ()
    %s = tensor.extract %sum[] : tensor<f32>
    call @printF32(%s) : (f32) -> ()
    call @printNewline() : () -> ()
    return
  }
}
