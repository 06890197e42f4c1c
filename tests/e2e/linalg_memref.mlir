// linalg on memrefs in host code, as a linalg-based compiler leaves it once
// its tensors are bufferized: linalg.fill, a linalg.generic that builds A
// from its indices, linalg.matmul, an elementwise linalg.generic with a
// broadcast bias, and a row-sum reduction.
//   A(i,k) = 4i + k                      (3x4)
//   B      = 2                           (4x2)
//   C = A * B: C(i,j) = 2 * (16i + 6) = 32i + 12
//   D(i,j) = C(i,j) / 2 + bias(j), bias = [0, 1]
//   r(i)   = D(i,0) + D(i,1) = 32i + 13
#id = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (j)>
#row = affine_map<(i, j) -> (i)>
module {
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %zero = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %two = arith.constant 2.0 : f32
    %half = arith.constant 0.5 : f32
    %a = memref.alloc() : memref<3x4xf32>
    %b = memref.alloc() : memref<4x2xf32>
    %c = memref.alloc() : memref<3x2xf32>
    %d = memref.alloc() : memref<3x2xf32>
    %r = memref.alloc() : memref<3xf32>
    %bias = memref.alloc() : memref<2xf32>
    memref.store %zero, %bias[%c0] : memref<2xf32>
    memref.store %one, %bias[%c1] : memref<2xf32>
    linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
        outs(%a : memref<3x4xf32>) {
    ^bb0(%out: f32):
      %i = linalg.index 0 : index
      %k = linalg.index 1 : index
      %c4 = arith.constant 4 : index
      %i4 = arith.muli %i, %c4 : index
      %v = arith.addi %i4, %k : index
      %vi = arith.index_cast %v : index to i32
      %vf = arith.sitofp %vi : i32 to f32
      linalg.yield %vf : f32
    }
    linalg.fill ins(%two : f32) outs(%b : memref<4x2xf32>)
    linalg.fill ins(%zero : f32) outs(%c : memref<3x2xf32>)
    linalg.matmul ins(%a, %b : memref<3x4xf32>, memref<4x2xf32>) outs(%c : memref<3x2xf32>)
    linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
        ins(%c, %bias : memref<3x2xf32>, memref<2xf32>) outs(%d : memref<3x2xf32>) {
    ^bb0(%x: f32, %y: f32, %out: f32):
      %h = arith.mulf %x, %half : f32
      %s = arith.addf %h, %y : f32
      linalg.yield %s : f32
    }
    linalg.fill ins(%zero : f32) outs(%r : memref<3xf32>)
    linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
        ins(%d : memref<3x2xf32>) outs(%r : memref<3xf32>) {
    ^bb0(%x: f32, %acc: f32):
      %s = arith.addf %acc, %x : f32
      linalg.yield %s : f32
    }
    %ua = memref.cast %a : memref<3x4xf32> to memref<*xf32>
    %uc = memref.cast %c : memref<3x2xf32> to memref<*xf32>
    %ud = memref.cast %d : memref<3x2xf32> to memref<*xf32>
    %ur = memref.cast %r : memref<3xf32> to memref<*xf32>
    call @printMemrefF32(%ua) : (memref<*xf32>) -> ()
    call @printMemrefF32(%uc) : (memref<*xf32>) -> ()
    call @printMemrefF32(%ud) : (memref<*xf32>) -> ()
    call @printMemrefF32(%ur) : (memref<*xf32>) -> ()
    memref.dealloc %a : memref<3x4xf32>
    memref.dealloc %b : memref<4x2xf32>
    memref.dealloc %c : memref<3x2xf32>
    memref.dealloc %d : memref<3x2xf32>
    memref.dealloc %r : memref<3xf32>
    memref.dealloc %bias : memref<2xf32>
    return
  }
}
