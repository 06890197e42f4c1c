// The classic shared-memory tree reduction: 16 blocks of 128 threads, each
// block sums its slice of in[i] = (7 i) mod 31 in workgroup memory, halving
// the number of active threads in an scf.for loop with a gpu.barrier in
// every step (outside the divergent scf.if), and thread 0 writes the
// block's sum. The host prints the 16 partial sums and their total.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @reduce(%in: memref<2048xi32>, %out: memref<16xi32>)
        workgroup(%tile: memref<128xi32, #gpu.address_space<workgroup>>) kernel {
      %t = gpu.thread_id x
      %b = gpu.block_id x
      %g = gpu.global_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c7 = arith.constant 7 : index
      %v = memref.load %in[%g] : memref<2048xi32>
      memref.store %v, %tile[%t] : memref<128xi32, #gpu.address_space<workgroup>>
      gpu.barrier
      // s = 64, 32, ..., 1: step k has 128 >> (k + 1) active threads
      scf.for %k = %c0 to %c7 step %c1 {
        %k1 = arith.addi %k, %c1 : index
        %c128 = arith.constant 128 : index
        %s = arith.shrui %c128, %k1 : index
        %active = arith.cmpi ult, %t, %s : index
        scf.if %active {
          %o = arith.addi %t, %s : index
          %x = memref.load %tile[%t] : memref<128xi32, #gpu.address_space<workgroup>>
          %y = memref.load %tile[%o] : memref<128xi32, #gpu.address_space<workgroup>>
          %z = arith.addi %x, %y : i32
          memref.store %z, %tile[%t] : memref<128xi32, #gpu.address_space<workgroup>>
        }
        gpu.barrier
      }
      %first = arith.cmpi eq, %t, %c0 : index
      scf.if %first {
        %r = memref.load %tile[%c0] : memref<128xi32, #gpu.address_space<workgroup>>
        memref.store %r, %out[%b] : memref<16xi32>
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
    %c16 = arith.constant 16 : index
    %c128 = arith.constant 128 : index
    %c2048 = arith.constant 2048 : index
    %k7 = arith.constant 7 : i32
    %k31 = arith.constant 31 : i32
    %hin = memref.alloc() : memref<2048xi32>
    scf.for %i = %c0 to %c2048 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %m = arith.muli %ii, %k7 : i32
      %r = arith.remui %m, %k31 : i32
      memref.store %r, %hin[%i] : memref<2048xi32>
    }
    %in = gpu.alloc () : memref<2048xi32>
    %out = gpu.alloc () : memref<16xi32>
    gpu.memcpy %in, %hin : memref<2048xi32>, memref<2048xi32>
    gpu.launch_func @kernels::@reduce blocks in (%c16, %c1, %c1) threads in (%c128, %c1, %c1)
        args(%in : memref<2048xi32>, %out : memref<16xi32>)
    %h = memref.alloc() : memref<16xi32>
    gpu.memcpy %h, %out : memref<16xi32>, memref<16xi32>
    gpu.dealloc %in : memref<2048xi32>
    gpu.dealloc %out : memref<16xi32>
    %u = memref.cast %h : memref<16xi32> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    %z = arith.constant 0 : i64
    %total = scf.for %i = %c0 to %c16 step %c1 iter_args(%acc = %z) -> i64 {
      %v = memref.load %h[%i] : memref<16xi32>
      %v64 = arith.extsi %v : i32 to i64
      %a = arith.addi %acc, %v64 : i64
      scf.yield %a : i64
    }
    call @printI64(%total) : (i64) -> ()
    call @printNewline() : () -> ()
    return
  }
}
