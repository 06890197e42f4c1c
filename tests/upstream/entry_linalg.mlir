// MODE: run
// GPUCC: --offload-arch=host -e entry --entry-point-result=void
// Host-side linalg as upstream's Dialect/Linalg CPU tests write it (-e
// entry, void result, results printed by the runner utilities): a matmul
// on tensors (bufferized by gpucc), a fill, an elementwise generic and a
// reduction over memrefs.

// CHECK: Unranked Memref base@ = {{.*}} rank = 2 offset = 0 sizes = [2, 3] strides = [3, 1] data =
// CHECK-NEXT: [
// CHECK-SAME: [24,   30,   36],
// CHECK-NEXT: [54,   69,   84]
// CHECK: Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [3] strides = [1] data =
// CHECK-NEXT: [5,  7,  7]
// CHECK: Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [2] strides = [1] data =
// CHECK-NEXT: [6,  15]

func.func private @printMemrefF32(memref<*xf32>)

#id = affine_map<(i) -> (i)>
#rows = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>

func.func @entry() {
  %a = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %b = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [5.0, 6.0, 7.0]]> : tensor<3x3xf32>
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<2x3xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<2x3xf32>) -> tensor<2x3xf32>
  %c = linalg.matmul ins(%a, %b : tensor<2x3xf32>, tensor<3x3xf32>) outs(%init : tensor<2x3xf32>) -> tensor<2x3xf32>
  %cm = bufferization.to_buffer %c : tensor<2x3xf32> to memref<2x3xf32>
  %cu = memref.cast %cm : memref<2x3xf32> to memref<*xf32>
  call @printMemrefF32(%cu) : (memref<*xf32>) -> ()

  %x = memref.alloc() : memref<3xf32>
  %y = memref.alloc() : memref<3xf32>
  %s = memref.alloc() : memref<3xf32>
  %one = arith.constant 1.0 : f32
  %four = arith.constant 4.0 : f32
  linalg.fill ins(%one : f32) outs(%x : memref<3xf32>)
  linalg.fill ins(%four : f32) outs(%y : memref<3xf32>)
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %two = arith.constant 2.0 : f32
  %three = arith.constant 3.0 : f32
  memref.store %two, %x[%c1] : memref<3xf32>
  memref.store %three, %x[%c2] : memref<3xf32>
  %five = arith.constant 5.0 : f32
  memref.store %five, %y[%c1] : memref<3xf32>
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%x, %y : memref<3xf32>, memref<3xf32>) outs(%s : memref<3xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %r = arith.addf %p, %q : f32
    linalg.yield %r : f32
  }
  %su = memref.cast %s : memref<3xf32> to memref<*xf32>
  call @printMemrefF32(%su) : (memref<*xf32>) -> ()

  %m = memref.alloc() : memref<2x3xf32>
  %am = bufferization.to_buffer %a : tensor<2x3xf32> to memref<2x3xf32>
  memref.copy %am, %m : memref<2x3xf32> to memref<2x3xf32>
  %sums = memref.alloc() : memref<2xf32>
  linalg.fill ins(%zero : f32) outs(%sums : memref<2xf32>)
  linalg.generic {indexing_maps = [#rows, #row], iterator_types = ["parallel", "reduction"]}
      ins(%m : memref<2x3xf32>) outs(%sums : memref<2xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %t = arith.addf %v, %acc : f32
    linalg.yield %t : f32
  }
  %sumsu = memref.cast %sums : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%sumsu) : (memref<*xf32>) -> ()
  memref.dealloc %x : memref<3xf32>
  memref.dealloc %y : memref<3xf32>
  memref.dealloc %s : memref<3xf32>
  memref.dealloc %m : memref<2x3xf32>
  memref.dealloc %sums : memref<2xf32>
  return
}
