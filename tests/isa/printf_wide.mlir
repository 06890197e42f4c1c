// gpu.printf of index and i64 values with %d (frontend/printf_check.c): the
// format becomes %lld, and vprintf's argument buffer holds each such value
// in 8 bytes, the i32 after them in 4, at the offsets C's varargs give
// (0, 8, 16). Before, %d of an index was refused; had it been passed as
// written, vprintf would have read the i32 from the upper half of the
// second value.
// TARGETS: sm_90
// PTX: kernels sm_90 1 st\.local\.b64[[:space:]]+\[%r[0-9]+\], %rd
// PTX: kernels sm_90 1 st\.local\.b64[[:space:]]+\[%r[0-9]+\+8\], %rd
// PTX: kernels sm_90 1 st\.local\.b32[[:space:]]+\[%r[0-9]+\+16\], 42;
// PTX: kernels sm_90 none st\.local\.b32[[:space:]]+\[%r[0-9]+(\+(4|8|12))?\]
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @ids() kernel {
      %t = gpu.thread_id x
      %b = gpu.block_id x
      %after = arith.constant 42 : i32
      gpu.printf "block %d thread %d then %d\n", %b, %t, %after : index, index, i32
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@ids blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
}
