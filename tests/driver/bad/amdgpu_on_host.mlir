// An AMD op in a gpu.launch body: the host target emulates the gpu dialect
// only. The body becomes a kernel; the error points into it.
func.func @main() {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1)
             threads(%tx, %ty, %tz) in (%u = %c1, %v = %c1, %w = %c1) {
    amdgpu.lds_barrier
    gpu.terminator
  }
  return
}
