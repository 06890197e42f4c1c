// Benchmark kernels for the host backend, called from bench_host.c through
// their C interface. Memory is passed in directly: on the host backend device
// memory is host memory, so this measures the launch and the kernel alone.
module attributes {gpu.container_module} {
  gpu.module @bench {
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
    // One thread per element of C = A * B (n x n, row-major); threads of a
    // block cover consecutive columns so that B and C are read in rows.
    gpu.func @matmul(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>, %n: index) kernel {
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %dx = gpu.block_dim x
      %dy = gpu.block_dim y
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %col0 = arith.muli %bx, %dx : index
      %col = arith.addi %col0, %tx : index
      %row0 = arith.muli %by, %dy : index
      %row = arith.addi %row0, %ty : index
      %zero = arith.constant 0.0 : f32
      %sum = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> f32 {
        %x = memref.load %a[%row, %k] : memref<?x?xf32>
        %y = memref.load %b[%k, %col] : memref<?x?xf32>
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %acc, %p : f32
        scf.yield %s : f32
      }
      memref.store %sum, %c[%row, %col] : memref<?x?xf32>
      gpu.return
    }
  }

  func.func @vecadd(%a: memref<?xf32>, %b: memref<?xf32>, %c: memref<?xf32>) attributes {llvm.emit_c_interface} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %c255 = arith.constant 255 : index
    %n = memref.dim %a, %c0 : memref<?xf32>
    %n1 = arith.addi %n, %c255 : index
    %nb = arith.divui %n1, %c256 : index
    gpu.launch_func @bench::@vecadd blocks in (%nb, %c1, %c1) threads in (%c256, %c1, %c1)
        args(%a : memref<?xf32>, %b : memref<?xf32>, %c : memref<?xf32>, %n : index)
    return
  }

  func.func @matmul(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) attributes {llvm.emit_c_interface} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    %n = memref.dim %a, %c0 : memref<?x?xf32>
    %gx = arith.divui %n, %c64 : index
    %gy = arith.divui %n, %c16 : index
    gpu.launch_func @bench::@matmul blocks in (%gx, %gy, %c1) threads in (%c64, %c16, %c1)
        args(%a : memref<?x?xf32>, %b : memref<?x?xf32>, %c : memref<?x?xf32>, %n : index)
    return
  }
}
