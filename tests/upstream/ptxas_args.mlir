// MODE: compile
// GPUCC: -### --offload-arch=sm_90,host -Xptxas -v -Xptxas --maxrregcount=40
// NEEDS: ptxas
// Options for the NVIDIA assembler, which upstream passes in its pipeline
// option ptxas-cmd-options='...', are -Xptxas arguments to gpucc: each one
// reaches ptxas after the chip and optimization level, in order. -### shows
// the command without running it.

// CHECK: ptxas -arch sm_90
// CHECK-SAME: -v --maxrregcount=40
// CHECK-SAME: .ptx -o

func.func @fill(%x : f32, %buf : memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %buf, %c0 : memref<?xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %n, %sy = %c1, %sz = %c1) {
    memref.store %x, %buf[%tx] : memref<?xf32>
    gpu.terminator
  }
  return
}
