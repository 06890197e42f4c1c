// Host ops that need an upstream pass gpucc's pipeline did not run:
// vector.mask around transfers (on a memref and on a tensor),
// vector.multi_reduction, memref.realloc, async.func with async.call.
//   masked read of 3 of 4 lanes from [1..6] at 2: ( 3, 4, 5, -1 )
//   the same from a tensor at 3:                  ( 4, 5, 6, -1 )
//   column sums of [[1,2,3],[4,5,6]] plus [1,2,3]: ( 6, 9, 12 )
//   [7, 8] grown to 4 elements, then [2] = 9, [3] = 10: ( 7, 8, 9, 10 )
//   async.func squaring 7: 49
module {
  memref.global "private" @six : memref<6xf32> = dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]>
  async.func @square(%x: i64) -> !async.value<i64> {
    %y = arith.muli %x, %x : i64
    async.return %y : i64
  }
  func.func @grow(%r: memref<2xf32>) -> memref<4xf32> {
    %g = memref.realloc %r : memref<2xf32> to memref<4xf32>
    return %g : memref<4xf32>
  }
  func.func @main() {
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %pad = arith.constant -1.0 : f32
    %m = memref.get_global @six : memref<6xf32>
    %mask = vector.create_mask %c3 : vector<4xi1>
    %v = vector.mask %mask { vector.transfer_read %m[%c2], %pad : memref<6xf32>, vector<4xf32> } : vector<4xi1> -> vector<4xf32>
    vector.print %v : vector<4xf32>
    %t = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]> : tensor<6xf32>
    %w = vector.mask %mask { vector.transfer_read %t[%c3], %pad : tensor<6xf32>, vector<4xf32> } : vector<4xi1> -> vector<4xf32>
    vector.print %w : vector<4xf32>
    %A = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : vector<2x3xf32>
    %x = arith.constant dense<[1.0, 2.0, 3.0]> : vector<3xf32>
    %mr = vector.multi_reduction <add>, %A, %x [0] : vector<2x3xf32> to vector<3xf32>
    vector.print %mr : vector<3xf32>
    %small = memref.alloc() : memref<2xf32>
    %seven = arith.constant 7.0 : f32
    %eight = arith.constant 8.0 : f32
    %nine = arith.constant 9.0 : f32
    %ten = arith.constant 10.0 : f32
    memref.store %seven, %small[%c0] : memref<2xf32>
    memref.store %eight, %small[%c1] : memref<2xf32>
    %big = call @grow(%small) : (memref<2xf32>) -> memref<4xf32>
    memref.store %nine, %big[%c2] : memref<4xf32>
    memref.store %ten, %big[%c3] : memref<4xf32>
    %bv = vector.transfer_read %big[%c0], %pad : memref<4xf32>, vector<4xf32>
    vector.print %bv : vector<4xf32>
    memref.dealloc %big : memref<4xf32>
    %s = arith.constant 7 : i64
    %r = async.call @square(%s) : (i64) -> !async.value<i64>
    %rv = async.await %r : !async.value<i64>
    vector.print %rv : i64
    return
  }
}
