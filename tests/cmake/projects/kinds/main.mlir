// A program written in MLIR alone: fills 1000 floats on the GPU with i + 1,
// counts the wrong ones on the host and prints the count (0) with the MLIR
// runner utilities.
module attributes {gpu.container_module} {
  func.func private @printI64(i64)
  func.func private @printNewline()

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = arith.constant 1000 : index
    %one = arith.constant 1.0 : f32
    %dev = gpu.alloc (%n) : memref<?xf32>
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      %i = arith.index_cast %bx : index to i32
      %f = arith.sitofp %i : i32 to f32
      %v = arith.addf %f, %one : f32
      memref.store %v, %dev[%bx] : memref<?xf32>
      gpu.terminator
    }
    %host = memref.alloc (%n) : memref<?xf32>
    gpu.memcpy %host, %dev : memref<?xf32>, memref<?xf32>
    %bad = scf.for %i = %c0 to %n step %c1 iter_args(%b = %c0) -> (index) {
      %v = memref.load %host[%i] : memref<?xf32>
      %ii = arith.index_cast %i : index to i32
      %fi = arith.sitofp %ii : i32 to f32
      %want = arith.addf %fi, %one : f32
      %ne = arith.cmpf une, %v, %want : f32
      %b1 = arith.addi %b, %c1 : index
      %r = arith.select %ne, %b1, %b : index
      scf.yield %r : index
    }
    %bad64 = arith.index_cast %bad : index to i64
    call @printI64(%bad64) : (i64) -> ()
    call @printNewline() : () -> ()
    gpu.dealloc %dev : memref<?xf32>
    memref.dealloc %host : memref<?xf32>
    return
  }
}
