// Device functions called from a kernel (func.func inside the gpu.module):
// recursion (factorial, doubly recursive Fibonacci, Euclid's gcd, a sum over
// a memref argument), a function with two results, and calls between device
// functions. Thread t of 8 writes row t:
//   fact(t)   fib(t+3)   (100+t) div 7   (100+t) mod 7
//   sum of in[0..t] with in[i] = i*i, that is t(t+1)(2t+1)/6
//   gcd(48, 18+t)
module attributes {gpu.container_module} {
  gpu.module @kernels {
    func.func @fact(%n: i32) -> i32 {
      %c1 = arith.constant 1 : i32
      %small = arith.cmpi sle, %n, %c1 : i32
      %r = scf.if %small -> i32 {
        scf.yield %c1 : i32
      } else {
        %m = arith.subi %n, %c1 : i32
        %f = func.call @fact(%m) : (i32) -> i32
        %p = arith.muli %n, %f : i32
        scf.yield %p : i32
      }
      return %r : i32
    }
    func.func @fib(%n: i32) -> i32 {
      %c1 = arith.constant 1 : i32
      %c2 = arith.constant 2 : i32
      %small = arith.cmpi slt, %n, %c2 : i32
      cf.cond_br %small, ^base, ^rec
    ^base:
      return %n : i32
    ^rec:
      %a = arith.subi %n, %c1 : i32
      %b = arith.subi %n, %c2 : i32
      %fa = func.call @fib(%a) : (i32) -> i32
      %fb = func.call @fib(%b) : (i32) -> i32
      %s = arith.addi %fa, %fb : i32
      return %s : i32
    }
    func.func @divmod(%a: i32, %b: i32) -> (i32, i32) {
      %q = arith.divsi %a, %b : i32
      %r = arith.remsi %a, %b : i32
      return %q, %r : i32, i32
    }
    func.func @gcd(%a: i32, %b: i32) -> i32 {
      %c0 = arith.constant 0 : i32
      %done = arith.cmpi eq, %b, %c0 : i32
      %g = scf.if %done -> i32 {
        scf.yield %a : i32
      } else {
        %q, %r = func.call @divmod(%a, %b) : (i32, i32) -> (i32, i32)
        %h = func.call @gcd(%b, %r) : (i32, i32) -> i32
        scf.yield %h : i32
      }
      return %g : i32
    }
    func.func @rsum(%m: memref<8xi32>, %i: index) -> i32 {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %v = memref.load %m[%i] : memref<8xi32>
      %first = arith.cmpi eq, %i, %c0 : index
      %s = scf.if %first -> i32 {
        scf.yield %v : i32
      } else {
        %j = arith.subi %i, %c1 : index
        %rest = func.call @rsum(%m, %j) : (memref<8xi32>, index) -> i32
        %a = arith.addi %rest, %v : i32
        scf.yield %a : i32
      }
      return %s : i32
    }
    gpu.func @calls(%in: memref<8xi32>, %out: memref<8x6xi32>) kernel {
      %t = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %c5 = arith.constant 5 : index
      %ti = arith.index_cast %t : index to i32
      %i3 = arith.constant 3 : i32
      %i7 = arith.constant 7 : i32
      %i18 = arith.constant 18 : i32
      %i48 = arith.constant 48 : i32
      %i100 = arith.constant 100 : i32
      %f = func.call @fact(%ti) : (i32) -> i32
      memref.store %f, %out[%t, %c0] : memref<8x6xi32>
      %n = arith.addi %ti, %i3 : i32
      %fb = func.call @fib(%n) : (i32) -> i32
      memref.store %fb, %out[%t, %c1] : memref<8x6xi32>
      %a = arith.addi %ti, %i100 : i32
      %q, %r = func.call @divmod(%a, %i7) : (i32, i32) -> (i32, i32)
      memref.store %q, %out[%t, %c2] : memref<8x6xi32>
      memref.store %r, %out[%t, %c3] : memref<8x6xi32>
      %s = func.call @rsum(%in, %t) : (memref<8xi32>, index) -> i32
      memref.store %s, %out[%t, %c4] : memref<8x6xi32>
      %b = arith.addi %ti, %i18 : i32
      %g = func.call @gcd(%i48, %b) : (i32, i32) -> i32
      memref.store %g, %out[%t, %c5] : memref<8x6xi32>
      gpu.return
    }
  }
  func.func private @printMemrefI32(memref<*xi32>)
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %hin = memref.alloc() : memref<8xi32>
    scf.for %i = %c0 to %c8 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %sq = arith.muli %ii, %ii : i32
      memref.store %sq, %hin[%i] : memref<8xi32>
    }
    %in = gpu.alloc () : memref<8xi32>
    %out = gpu.alloc () : memref<8x6xi32>
    gpu.memcpy %in, %hin : memref<8xi32>, memref<8xi32>
    gpu.launch_func @kernels::@calls blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1)
        args(%in : memref<8xi32>, %out : memref<8x6xi32>)
    %h = memref.alloc() : memref<8x6xi32>
    gpu.memcpy %h, %out : memref<8x6xi32>, memref<8x6xi32>
    gpu.dealloc %in : memref<8xi32>
    gpu.dealloc %out : memref<8x6xi32>
    %u = memref.cast %h : memref<8x6xi32> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    memref.dealloc %h : memref<8x6xi32>
    memref.dealloc %hin : memref<8xi32>
    return
  }
}
