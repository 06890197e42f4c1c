// vecadd: the first program to try. Adds two vectors of 1M floats on the
// GPU (or on the CPU through gpucc's host backend when no GPU is present),
// checks every element on the host and prints the number of mismatches and
// the first eight sums.
//
//   gpucc examples/vecadd.mlir -o vecadd && ./vecadd
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @vecadd(%a: memref<?xf32>, %b: memref<?xf32>, %c: memref<?xf32>, %n: index) kernel {
      %t = gpu.thread_id x
      %blk = gpu.block_id x
      %dim = gpu.block_dim x
      %base = arith.muli %blk, %dim : index
      %i = arith.addi %base, %t : index
      %inside = arith.cmpi ult, %i, %n : index
      scf.if %inside {
        %x = memref.load %a[%i] : memref<?xf32>
        %y = memref.load %b[%i] : memref<?xf32>
        %s = arith.addf %x, %y : f32
        memref.store %s, %c[%i] : memref<?xf32>
      }
      gpu.return
    }
  }

  func.func private @printI64(i64)
  func.func private @printNewline()
  func.func private @printMemrefF32(memref<*xf32>)

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c256 = arith.constant 256 : index
    %n = arith.constant 1048576 : index
    %nblocks = arith.divui %n, %c256 : index

    // Host data: a[i] = i, b[i] = 2i.
    %ha = memref.alloc(%n) : memref<?xf32>
    %hb = memref.alloc(%n) : memref<?xf32>
    %hc = memref.alloc(%n) : memref<?xf32>
    scf.for %i = %c0 to %n step %c1 {
      %ii = arith.index_cast %i : index to i64
      %f = arith.uitofp %ii : i64 to f32
      %f2 = arith.addf %f, %f : f32
      memref.store %f, %ha[%i] : memref<?xf32>
      memref.store %f2, %hb[%i] : memref<?xf32>
    }

    // Device buffers, copies and the launch, written synchronously: gpucc
    // makes them asynchronous where the lowering needs it.
    %da = gpu.alloc (%n) : memref<?xf32>
    %db = gpu.alloc (%n) : memref<?xf32>
    %dc = gpu.alloc (%n) : memref<?xf32>
    gpu.memcpy %da, %ha : memref<?xf32>, memref<?xf32>
    gpu.memcpy %db, %hb : memref<?xf32>, memref<?xf32>
    gpu.launch_func @kernels::@vecadd blocks in (%nblocks, %c1, %c1) threads in (%c256, %c1, %c1)
        args(%da : memref<?xf32>, %db : memref<?xf32>, %dc : memref<?xf32>, %n : index)
    gpu.memcpy %hc, %dc : memref<?xf32>, memref<?xf32>
    gpu.dealloc %da : memref<?xf32>
    gpu.dealloc %db : memref<?xf32>
    gpu.dealloc %dc : memref<?xf32>

    // Check c[i] == 3i everywhere.
    %zero = arith.constant 0 : i64
    %one = arith.constant 1 : i64
    %bad = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> i64 {
      %x = memref.load %ha[%i] : memref<?xf32>
      %s = memref.load %hc[%i] : memref<?xf32>
      %x3 = arith.addf %x, %x : f32
      %want = arith.addf %x3, %x : f32
      %ok = arith.cmpf oeq, %s, %want : f32
      %next = arith.addi %acc, %one : i64
      %r = arith.select %ok, %acc, %next : i64
      scf.yield %r : i64
    }
    call @printI64(%bad) : (i64) -> ()
    call @printNewline() : () -> ()
    %first = memref.subview %hc[0] [8] [1] : memref<?xf32> to memref<8xf32, strided<[1]>>
    %u = memref.cast %first : memref<8xf32, strided<[1]>> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
}
