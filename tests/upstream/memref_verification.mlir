// MODE: run
// GPUCC: --offload-arch=host -fsanitize=bounds -e entry --entry-point-result=void
// STDERR: yes
// EXIT: nonzero
// Upstream's memref runtime-verification tests build with
// -generate-runtime-verification and expect its report; gpucc's
// -fsanitize=bounds gives the same text. In-bounds accesses pass; a load
// one past the end of a dynamically sized memref is reported with the op,
// what failed and the op's location, and the program stops there.

// CHECK: in bounds: 7
// CHECK: ERROR: Runtime op verification failed
// CHECK-NEXT: memref.load
// CHECK-NEXT: ^ out-of-bounds access
// CHECK-NEXT: Location: loc({{.*}}memref_verification.mlir":19:8)
// CHECK-NOT: never printed

func.func @load_at(%m: memref<?xi32>, %i: index) -> i32 {
  %v = memref.load %m[%i] : memref<?xi32>
  return %v : i32
}

func.func @entry() {
  %c3 = arith.constant 3 : index
  %c2 = arith.constant 2 : index
  %m = memref.alloc(%c3) : memref<?xi32>
  %seven = arith.constant 7 : i32
  memref.store %seven, %m[%c2] : memref<?xi32>
  %ok = call @load_at(%m, %c2) : (memref<?xi32>, index) -> i32
  vector.print str "in bounds: "
  vector.print %ok : i32
  %bad = call @load_at(%m, %c3) : (memref<?xi32>, index) -> i32
  vector.print str "never printed"
  vector.print %bad : i32
  return
}
