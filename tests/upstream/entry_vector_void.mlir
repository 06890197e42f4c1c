// MODE: run
// GPUCC: --offload-arch=host -e entry --entry-point-result=void
// Host-side vector ops as upstream's Dialect/Vector CPU tests write them
// (-e entry, void result, vector.print): a mixed-precision contraction
// (f16 x f16 into f32), reductions, a shuffle and an outer product.

// CHECK: ( ( 19, 22 ), ( 43, 50 ) )
// CHECK-NEXT: 10
// CHECK-NEXT: 4
// CHECK-NEXT: ( 4, 1, 3, 2 )
// CHECK-NEXT: ( ( 3, 4 ), ( 6, 8 ) )

#mk = affine_map<(m, n, k) -> (m, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
func.func @entry() {
  %a = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : vector<2x2xf16>
  %b = arith.constant dense<[[5.0, 6.0], [7.0, 8.0]]> : vector<2x2xf16>
  %z = arith.constant dense<0.0> : vector<2x2xf32>
  %c = vector.contract {indexing_maps = [#mk, #kn, #mn],
         iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>}
         %a, %b, %z : vector<2x2xf16>, vector<2x2xf16> into vector<2x2xf32>
  vector.print %c : vector<2x2xf32>
  %v = arith.constant dense<[1, 2, 3, 4]> : vector<4xi32>
  %sum = vector.reduction <add>, %v : vector<4xi32> into i32
  vector.print %sum : i32
  %max = vector.reduction <maxsi>, %v : vector<4xi32> into i32
  vector.print %max : i32
  %s = vector.shuffle %v, %v [3, 0, 2, 1] : vector<4xi32>, vector<4xi32>
  vector.print %s : vector<4xi32>
  %x = arith.constant dense<[1.0, 2.0]> : vector<2xf32>
  %y = arith.constant dense<[3.0, 4.0]> : vector<2xf32>
  %o = vector.outerproduct %x, %y : vector<2xf32>, vector<2xf32>
  vector.print %o : vector<2x2xf32>
  return
}
