// Atomics on buffer device addresses, from 4 blocks of 64 threads:
// i32 add of 1, i32 max of the global id, i64 add of the global id, and a
// plain load and store of a buffer that atomics touch. Prints
// [256, 255, 0, 7] (the last: stored before the launch, incremented by
// thread 0 of block 0 only) and 32640. (Float atomics: MLIR 22's SPIR-V
// conversion has none.)
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @count(%i: memref<4xi32>, %l: memref<1xi64>) kernel {
      %g = gpu.global_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
      %one = arith.constant 1 : i32
      %gi = arith.index_cast %g : index to i32
      %gl = arith.index_cast %g : index to i64
      %a = memref.atomic_rmw addi %one, %i[%c0] : (i32, memref<4xi32>) -> i32
      %b = memref.atomic_rmw maxs %gi, %i[%c1] : (i32, memref<4xi32>) -> i32
      %d = memref.atomic_rmw addi %gl, %l[%c0] : (i64, memref<1xi64>) -> i64
      %first = arith.cmpi eq, %g, %c0 : index
      scf.if %first {
        %v = memref.load %i[%c3] : memref<4xi32>
        %w = arith.addi %v, %one : i32
        memref.store %w, %i[%c3] : memref<4xi32>
      }
      gpu.return
    }
  }
  func.func private @printMemrefI32(memref<*xi32>)
  func.func private @printI64(i64)
  func.func private @printNewline()
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    %zi = arith.constant 0 : i32
    %six = arith.constant 6 : i32
    %zl = arith.constant 0 : i64
    %hi = memref.alloc() : memref<4xi32>
    %hl = memref.alloc() : memref<1xi64>
    scf.for %k = %c0 to %c4 step %c1 {
      memref.store %zi, %hi[%k] : memref<4xi32>
    }
    memref.store %six, %hi[%c3] : memref<4xi32>
    memref.store %zl, %hl[%c0] : memref<1xi64>
    %di = gpu.alloc () : memref<4xi32>
    %dl = gpu.alloc () : memref<1xi64>
    gpu.memcpy %di, %hi : memref<4xi32>, memref<4xi32>
    gpu.memcpy %dl, %hl : memref<1xi64>, memref<1xi64>
    gpu.launch_func @kernels::@count blocks in (%c4, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%di : memref<4xi32>, %dl : memref<1xi64>)
    gpu.memcpy %hi, %di : memref<4xi32>, memref<4xi32>
    gpu.memcpy %hl, %dl : memref<1xi64>, memref<1xi64>
    %ui = memref.cast %hi : memref<4xi32> to memref<*xi32>
    call @printMemrefI32(%ui) : (memref<*xi32>) -> ()
    %l = memref.load %hl[%c0] : memref<1xi64>
    call @printI64(%l) : (i64) -> ()
    call @printNewline() : () -> ()
    return
  }
}
