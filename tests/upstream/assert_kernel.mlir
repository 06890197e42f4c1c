// MODE: run
// GPUCC: --offload-arch=sm_90,gfx942,host
// STDERR: yes
// EXIT: nonzero
// cf.assert in a kernel: an assertion that holds lets the thread go on; one
// that fails reports its message and the source location it carries, and
// stops the program before the next print, which fails as a whole.
// For gfx942 gpucc writes the assertion as a printf and a trap (LLVM 22's
// convert-gpu-to-rocdl cannot lower cf.assert), so it compiles there too.

// CHECK: value 3 before the checks
// CHECK: value 3 passed the first check
// CHECK: kernel_checks.mlir:42:{{.*}}Assertion `value must exceed five` failed
// CHECK-NOT: never printed

module attributes {gpu.container_module} {
  gpu.module @checks {
    gpu.func @check(%x : i32) kernel {
      %five = arith.constant 5 : i32
      gpu.printf "value %d before the checks\n", %x : i32
      %small = arith.cmpi slt, %x, %five : i32
      cf.assert %small, "value must stay below five"
      gpu.printf "value %d passed the first check\n", %x : i32
      %big = arith.cmpi sgt, %x, %five : i32
      cf.assert %big, "value must exceed five" loc("kernel_checks.mlir":42:7)
      gpu.printf "never printed\n"
      gpu.return
    }
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %three = arith.constant 3 : i32
    gpu.launch_func @checks::@check blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%three : i32)
    return
  }
}
