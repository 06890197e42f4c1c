// Vector-level code in host code, as vectorization leaves it before LLVM:
// vector.contract (a 2x3 by 3x2 matmul), transpose, shape_cast,
// outerproduct, extract/insert, fma, broadcast, reductions,
// extract_strided_slice, shuffle, from_elements, interleave, bitcast,
// gather with a mask, create_mask and constant_mask, printed with
// vector.print.
//   a = [[1, 2, 3], [4, 5, 6]]   b = [[1, 0], [0, 1], [2, 2]]
#mk = affine_map<(i, j, k) -> (i, k)>
#kn = affine_map<(i, j, k) -> (k, j)>
#mn = affine_map<(i, j, k) -> (i, j)>
module {
  func.func @main() {
    %a = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : vector<2x3xf32>
    %b = arith.constant dense<[[1.0, 0.0], [0.0, 1.0], [2.0, 2.0]]> : vector<3x2xf32>
    %z = arith.constant dense<0.0> : vector<2x2xf32>
    %c = vector.contract {indexing_maps = [#mk, #kn, #mn],
                          iterator_types = ["parallel", "parallel", "reduction"],
                          kind = #vector.kind<add>} %a, %b, %z
        : vector<2x3xf32>, vector<3x2xf32> into vector<2x2xf32>
    vector.print %c : vector<2x2xf32>
    %t = vector.transpose %a, [1, 0] : vector<2x3xf32> to vector<3x2xf32>
    vector.print %t : vector<3x2xf32>
    %flat = vector.shape_cast %a : vector<2x3xf32> to vector<6xf32>
    vector.print %flat : vector<6xf32>
    %u = arith.constant dense<[1.0, 2.0]> : vector<2xf32>
    %v = arith.constant dense<[3.0, 4.0, 5.0]> : vector<3xf32>
    %o = vector.outerproduct %u, %v : vector<2xf32>, vector<3xf32>
    vector.print %o : vector<2x3xf32>
    %row = vector.extract %a[1] : vector<3xf32> from vector<2x3xf32>
    vector.print %row : vector<3xf32>
    %e = vector.extract %a[0, 2] : f32 from vector<2x3xf32>
    vector.print %e : f32
    %nine = arith.constant 9.0 : f32
    %ins = vector.insert %nine, %a[1, 1] : f32 into vector<2x3xf32>
    vector.print %ins : vector<2x3xf32>
    %x = arith.constant dense<[1.0, 2.0, 3.0]> : vector<3xf32>
    %y = arith.constant dense<2.0> : vector<3xf32>
    %h = arith.constant dense<0.5> : vector<3xf32>
    %f = vector.fma %x, %y, %h : vector<3xf32>
    vector.print %f : vector<3xf32>
    %seven = arith.constant 7.0 : f32
    %bs = vector.broadcast %seven : f32 to vector<2x2xf32>
    vector.print %bs : vector<2x2xf32>
    %bv = vector.broadcast %x : vector<3xf32> to vector<2x3xf32>
    vector.print %bv : vector<2x3xf32>
    %iv = arith.constant dense<[3, -9, 12, 5]> : vector<4xi32>
    %mx = vector.reduction <maxsi>, %iv : vector<4xi32> into i32
    vector.print %mx : i32
    %pr = vector.reduction <mul>, %x : vector<3xf32> into f32
    vector.print %pr : f32
    %sl = vector.extract_strided_slice %flat {offsets = [1], sizes = [3], strides = [1]}
        : vector<6xf32> to vector<3xf32>
    vector.print %sl : vector<3xf32>
    %s = vector.shuffle %x, %u [4, 0, 3, 2] : vector<3xf32>, vector<2xf32>
    vector.print %s : vector<4xf32>
    %i10 = arith.constant 10 : i64
    %i20 = arith.constant 20 : i64
    %fe = vector.from_elements %i10, %i20 : vector<2xi64>
    vector.print %fe : vector<2xi64>
    %p = arith.constant dense<[1, 2]> : vector<2xi32>
    %q = arith.constant dense<[3, 4]> : vector<2xi32>
    %il = vector.interleave %p, %q : vector<2xi32> -> vector<4xi32>
    vector.print %il : vector<4xi32>
    %bc = vector.bitcast %p : vector<2xi32> to vector<1xi64>
    vector.print %bc : vector<1xi64>
    %mem = memref.alloc() : memref<8xf32>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    scf.for %i = %c0 to %c8 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %fi = arith.sitofp %ii : i32 to f32
      %ten = arith.constant 10.0 : f32
      %tf = arith.mulf %fi, %ten : f32
      memref.store %tf, %mem[%i] : memref<8xf32>
    }
    %idx = arith.constant dense<[7, 0, 3, 3]> : vector<4xi32>
    %gm = arith.constant dense<[true, true, false, true]> : vector<4xi1>
    %pass = arith.constant dense<-1.0> : vector<4xf32>
    %g = vector.gather %mem[%c0] [%idx], %gm, %pass
        : memref<8xf32>, vector<4xi32>, vector<4xi1>, vector<4xf32> into vector<4xf32>
    vector.print %g : vector<4xf32>
    %c3 = arith.constant 3 : index
    %cm = vector.create_mask %c3 : vector<5xi1>
    vector.print %cm : vector<5xi1>
    %km = vector.constant_mask [2, 1] : vector<3x2xi1>
    vector.print %km : vector<3x2xi1>
    memref.dealloc %mem : memref<8xf32>
    return
  }
}
