// MODE: run
// gpu.printf with arguments of several types and conversions: index (%lld),
// i32 (%d and %x), i64 (%lld), f32 (%f, promoted to double) and f64
// (%.3f), a literal %%, from 2 blocks of 3 threads. The threads of a launch
// print in no set order (CHECK-DAG); a second launch prints only after the
// first is done. (Integers narrower than 32 bits: printf_small_ints.mlir.)

// CHECK-DAG: [0.0] i32=0 hex=a i64=10000000000 f32=0.000000 f64=0.125 100%
// CHECK-DAG: [0.1] i32=-1 hex=b i64=10000000001 f32=0.250000 f64=0.250 100%
// CHECK-DAG: [0.2] i32=-2 hex=c i64=10000000002 f32=0.500000 f64=0.375 100%
// CHECK-DAG: [1.0] i32=100 hex=1a i64=20000000000 f32=1.000000 f64=2.125 100%
// CHECK-DAG: [1.1] i32=99 hex=1b i64=20000000001 f32=1.250000 f64=2.250 100%
// CHECK-DAG: [1.2] i32=98 hex=1c i64=20000000002 f32=1.500000 f64=2.375 100%
// CHECK: second launch: 6 lines above
// CHECK-NOT: {{.}}

module attributes {gpu.container_module} {
  gpu.module @fmt {
    gpu.func @show() kernel {
      %b = gpu.block_id x
      %t = gpu.thread_id x
      %bi = arith.index_cast %b : index to i32
      %ti = arith.index_cast %t : index to i32
      %bl = arith.index_cast %b : index to i64
      %tl = arith.index_cast %t : index to i64
      // i32: 100 b - t
      %hundred = arith.constant 100 : i32
      %bh = arith.muli %bi, %hundred : i32
      %mid = arith.subi %bh, %ti : i32
      // hex: 16 b + t + 10
      %sixteen = arith.constant 16 : i32
      %ten = arith.constant 10 : i32
      %b16 = arith.muli %bi, %sixteen : i32
      %h0 = arith.addi %b16, %ti : i32
      %hex = arith.addi %h0, %ten : i32
      // i64: 10^10 (b + 1) + t
      %e10 = arith.constant 10000000000 : i64
      %one = arith.constant 1 : i64
      %b1 = arith.addi %bl, %one : i64
      %big0 = arith.muli %b1, %e10 : i64
      %big = arith.addi %big0, %tl : i64
      // f32: t / 4 + b
      %tf = arith.sitofp %ti : i32 to f32
      %bf = arith.sitofp %bi : i32 to f32
      %quarter = arith.constant 0.25 : f32
      %tq = arith.mulf %tf, %quarter : f32
      %single = arith.addf %tq, %bf : f32
      // f64: (t + 1) / 8 + 2 b
      %td = arith.sitofp %ti : i32 to f64
      %bd = arith.sitofp %bi : i32 to f64
      %oned = arith.constant 1.0 : f64
      %eighth = arith.constant 0.125 : f64
      %twod = arith.constant 2.0 : f64
      %t1 = arith.addf %td, %oned : f64
      %te = arith.mulf %t1, %eighth : f64
      %b2 = arith.mulf %bd, %twod : f64
      %double = arith.addf %te, %b2 : f64
      gpu.printf "[%lld.%lld] i32=%d hex=%x i64=%lld f32=%f f64=%.3f 100%%\n",
          %b, %t, %mid, %hex, %big, %single, %double
          : index, index, i32, i32, i64, f32, f64
      gpu.return
    }

    gpu.func @after(%n : i32) kernel {
      gpu.printf "second launch: %d lines above\n", %n : i32
      gpu.return
    }
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %six = arith.constant 6 : i32
    gpu.launch_func @fmt::@show blocks in (%c2, %c1, %c1) threads in (%c3, %c1, %c1)
    gpu.launch_func @fmt::@after blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%six : i32)
    return
  }
}
