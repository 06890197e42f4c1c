// Functions of a gpu.module are internal to it: only kernels are entry
// points. The helper @scale is inlined and gone; the doubly recursive @depth
// (a Fibonacci-shaped count LLVM cannot turn into a loop) stays
// as a plain .func (neither .visible nor with a _mlir_ciface_ twin, which
// LLVM's GPU conversions ask for on every function).
// TARGETS: sm_80,sm_90
// PTX: kernels sm_80,sm_90 1 ^\.visible \.entry run\(
// PTX: kernels sm_80,sm_90 none _mlir_ciface_
// PTX: kernels sm_80,sm_90 none \.visible \.func
// PTX: kernels sm_80,sm_90 none scale
// PTX: kernels sm_80,sm_90 1 ^\.func .*depth\(
module attributes {gpu.container_module} {
  gpu.module @kernels {
    func.func @scale(%x: f32, %k: f32) -> f32 {
      %y = arith.mulf %x, %k : f32
      return %y : f32
    }
    func.func @depth(%n: i32) -> i32 {
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %done = arith.cmpi sle, %n, %c0 : i32
      %r = scf.if %done -> (i32) {
        scf.yield %c0 : i32
      } else {
        %c2 = arith.constant 2 : i32
        %m = arith.subi %n, %c1 : i32
        %l = arith.subi %n, %c2 : i32
        %d = func.call @depth(%m) : (i32) -> i32
        %e = func.call @depth(%l) : (i32) -> i32
        %f = arith.addi %d, %e : i32
        %g = arith.addi %f, %c1 : i32
        scf.yield %g : i32
      }
      return %r : i32
    }
    gpu.func @run(%a: memref<?xf32>, %b: memref<?xi32>) kernel {
      %t = gpu.thread_id x
      %two = arith.constant 2.0 : f32
      %three = arith.constant 3.0 : f32
      %x = memref.load %a[%t] : memref<?xf32>
      %y = func.call @scale(%x, %two) : (f32, f32) -> f32
      %z = func.call @scale(%y, %three) : (f32, f32) -> f32
      memref.store %z, %a[%t] : memref<?xf32>
      %ti = arith.index_cast %t : index to i32
      %d = func.call @depth(%ti) : (i32) -> i32
      memref.store %d, %b[%t] : memref<?xi32>
      gpu.return
    }
  }
}
