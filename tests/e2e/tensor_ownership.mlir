// Who frees what, when tensor code meets hand-managed memory and GPU calls
// (programs that used to be refused or to crash):
//   @id returns its tensor argument: the deallocation inserts a
//     bufferization.clone, which must be lowered (it was not);
//   @on_gpu calls the GPU and returns its argument, a constant: its caller
//     must not free what it gets back (it freed the constant's placeholder
//     address and crashed);
//   @manual mixes tensor ops with memref.alloc/memref.dealloc by hand,
//     which the deallocation refuses ("memory free side-effect").
// Output: ( 5, 6 ), ( 1, 2, 3, 4 ), 3
module attributes {gpu.container_module} {
  func.func @id(%t: tensor<2xf32>) -> tensor<2xf32> {
    return %t : tensor<2xf32>
  }
  func.func @on_gpu(%t: tensor<4xf32>) -> tensor<4xf32> {
    %w = gpu.wait async
    gpu.wait [%w]
    return %t : tensor<4xf32>
  }
  func.func @manual(%x: f32) -> f32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %h = memref.alloc() : memref<2xf32>
    memref.store %x, %h[%c0] : memref<2xf32>
    %y = memref.load %h[%c0] : memref<2xf32>
    memref.dealloc %h : memref<2xf32>
    %t = tensor.from_elements %x, %y : tensor<2xf32>
    %a = tensor.extract %t[%c0] : tensor<2xf32>
    %b = tensor.extract %t[%c1] : tensor<2xf32>
    %s = arith.addf %a, %b : f32
    return %s : f32
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %z = arith.constant 0.0 : f32
    %c = arith.constant dense<[5.0, 6.0]> : tensor<2xf32>
    %r = call @id(%c) : (tensor<2xf32>) -> tensor<2xf32>
    %v = vector.transfer_read %r[%c0], %z : tensor<2xf32>, vector<2xf32>
    vector.print %v : vector<2xf32>
    %k = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
    %g = call @on_gpu(%k) : (tensor<4xf32>) -> tensor<4xf32>
    %w = vector.transfer_read %g[%c0], %z : tensor<4xf32>, vector<4xf32>
    vector.print %w : vector<4xf32>
    %half = arith.constant 1.5 : f32
    %m = call @manual(%half) : (f32) -> f32
    vector.print %m : f32
    return
  }
}
