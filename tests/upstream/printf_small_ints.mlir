// MODE: run
// gpu.printf with i8 and i16 arguments printed with %d, as the upstream
// printf test does with an i8: C promotes such arguments to int, so %d must
// print the value, whatever the bytes beside it hold. The values are
// computed at run time and non-negative (sign or zero extension agree).

// CHECK-DAG: lane 0: i8=5 i16=1000 then 77
// CHECK-DAG: lane 1: i8=6 i16=1003 then 77
// CHECK-DAG: lane 2: i8=7 i16=1006 then 77
// CHECK-DAG: lane 3: i8=8 i16=1009 then 77

module attributes {gpu.container_module} {
  gpu.module @narrow_args {
    gpu.func @say(%base : i32) kernel {
      %t = gpu.thread_id x
      %ti = arith.index_cast %t : index to i32
      %five = arith.constant 5 : i32
      %a = arith.addi %ti, %five : i32
      %a8 = arith.trunci %a : i32 to i8
      %three = arith.constant 3 : i32
      %b0 = arith.muli %ti, %three : i32
      %b = arith.addi %b0, %base : i32
      %b16 = arith.trunci %b : i32 to i16
      %tail = arith.constant 77 : i32
      gpu.printf "lane %lld: i8=%d i16=%d then %d\n", %t, %a8, %b16, %tail : index, i8, i16, i32
      gpu.return
    }
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %base = arith.constant 1000 : i32
    gpu.launch_func @narrow_args::@say blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1)
        args(%base : i32)
    return
  }
}
