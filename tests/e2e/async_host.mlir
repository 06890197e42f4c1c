// async.execute in host code, as async-parallel code generation leaves it:
// a chain of regions ordered by tokens, regions that yield values, a region
// that takes an !async.value operand, a group of regions awaited at once,
// and a region that awaits a nested one. Needs the async runtime
// (mlirAsyncRuntime*).
//   chain:  buf[0] = 1;  buf[1] = buf[0] + 1;  buf[2] = buf[1] + 1 and
//           yield 10 buf[1] = 20;  then 20 + 0.5 = 20.5 from the value
//   group:  sq[i] = i*i for i < 4, one region each
//   nested: the inner region yields 21, the outer doubles it: 42
module {
  func.func private @printMemrefF32(memref<*xf32>)
  func.func private @printF32(f32)
  func.func private @printI64(i64)
  func.func private @printNewline()
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %one = arith.constant 1.0 : f32
    %ten = arith.constant 10.0 : f32
    %half = arith.constant 0.5 : f32
    %buf = memref.alloc() : memref<3xf32>
    %sq = memref.alloc() : memref<4xf32>

    %t0 = async.execute {
      memref.store %one, %buf[%c0] : memref<3xf32>
      async.yield
    }
    %t1 = async.execute [%t0] {
      %v = memref.load %buf[%c0] : memref<3xf32>
      %w = arith.addf %v, %one : f32
      memref.store %w, %buf[%c1] : memref<3xf32>
      async.yield
    }
    %t2, %v2 = async.execute [%t1] -> !async.value<f32> {
      %v = memref.load %buf[%c1] : memref<3xf32>
      %w = arith.addf %v, %one : f32
      memref.store %w, %buf[%c2] : memref<3xf32>
      %r = arith.mulf %v, %ten : f32
      async.yield %r : f32
    }
    %t3, %v3 = async.execute [%t2] (%v2 as %x : !async.value<f32>) -> !async.value<f32> {
      %r = arith.addf %x, %half : f32
      async.yield %r : f32
    }
    async.await %t3 : !async.token
    %r2 = async.await %v2 : !async.value<f32>
    %r3 = async.await %v3 : !async.value<f32>

    %g = async.create_group %c4 : !async.group
    scf.for %i = %c0 to %c4 step %c1 {
      %t = async.execute {
        %ii = arith.index_cast %i : index to i32
        %s = arith.muli %ii, %ii : i32
        %f = arith.sitofp %s : i32 to f32
        memref.store %f, %sq[%i] : memref<4xf32>
        async.yield
      }
      %k = async.add_to_group %t, %g : !async.token
    }
    async.await_all %g

    %tn, %vn = async.execute -> !async.value<i64> {
      %ti, %vi = async.execute -> !async.value<i64> {
        %c21 = arith.constant 21 : i64
        async.yield %c21 : i64
      }
      %x = async.await %vi : !async.value<i64>
      %y = arith.addi %x, %x : i64
      async.yield %y : i64
    }
    async.await %tn : !async.token
    %n = async.await %vn : !async.value<i64>

    %ub = memref.cast %buf : memref<3xf32> to memref<*xf32>
    call @printMemrefF32(%ub) : (memref<*xf32>) -> ()
    call @printF32(%r2) : (f32) -> ()
    call @printNewline() : () -> ()
    call @printF32(%r3) : (f32) -> ()
    call @printNewline() : () -> ()
    %us = memref.cast %sq : memref<4xf32> to memref<*xf32>
    call @printMemrefF32(%us) : (memref<*xf32>) -> ()
    call @printI64(%n) : (i64) -> ()
    call @printNewline() : () -> ()
    memref.dealloc %buf : memref<3xf32>
    memref.dealloc %sq : memref<4xf32>
    return
  }
}
