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
    // Block tree reduction in workgroup memory: 256 threads load, then 8
    // halving steps, a barrier after the load and after each step.
    gpu.func @reduce(%in: memref<?xf32>, %out: memref<?xf32>) workgroup(%sh: memref<256xf32, #gpu.address_space<workgroup>>) kernel {
      %t = gpu.thread_id x
      %b = gpu.block_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      %c128 = arith.constant 128 : index
      %c256 = arith.constant 256 : index
      %base = arith.muli %b, %c256 : index
      %i = arith.addi %base, %t : index
      %x = memref.load %in[%i] : memref<?xf32>
      memref.store %x, %sh[%t] : memref<256xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      scf.for %k = %c0 to %c8 step %c1 {
        %s = arith.shrui %c128, %k : index
        %lt = arith.cmpi ult, %t, %s : index
        scf.if %lt {
          %j = arith.addi %t, %s : index
          %u = memref.load %sh[%t] : memref<256xf32, #gpu.address_space<workgroup>>
          %v = memref.load %sh[%j] : memref<256xf32, #gpu.address_space<workgroup>>
          %w = arith.addf %u, %v : f32
          memref.store %w, %sh[%t] : memref<256xf32, #gpu.address_space<workgroup>>
        }
        gpu.barrier
      }
      %first = arith.cmpi eq, %t, %c0 : index
      scf.if %first {
        %r = memref.load %sh[%c0] : memref<256xf32, #gpu.address_space<workgroup>>
        memref.store %r, %out[%b] : memref<?xf32>
      }
      gpu.return
    }
    // C = A * B through 16x16 tiles of A and B in workgroup memory: a
    // barrier after loading the tiles and one after using them.
    gpu.func @tiled(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>, %n: index)
        workgroup(%as: memref<16x16xf32, #gpu.address_space<workgroup>>, %bs: memref<16x16xf32, #gpu.address_space<workgroup>>) kernel {
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %r0 = arith.muli %by, %c16 : index
      %row = arith.addi %r0, %ty : index
      %q0 = arith.muli %bx, %c16 : index
      %col = arith.addi %q0, %tx : index
      %zero = arith.constant 0.0 : f32
      %sum = scf.for %kt = %c0 to %n step %c16 iter_args(%acc = %zero) -> f32 {
        %ak = arith.addi %kt, %tx : index
        %x = memref.load %a[%row, %ak] : memref<?x?xf32>
        memref.store %x, %as[%ty, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
        %bk = arith.addi %kt, %ty : index
        %y = memref.load %b[%bk, %col] : memref<?x?xf32>
        memref.store %y, %bs[%ty, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
        gpu.barrier
        %p = scf.for %k = %c0 to %c16 step %c1 iter_args(%acc2 = %acc) -> f32 {
          %u = memref.load %as[%ty, %k] : memref<16x16xf32, #gpu.address_space<workgroup>>
          %v = memref.load %bs[%k, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
          %m = arith.mulf %u, %v : f32
          %s = arith.addf %acc2, %m : f32
          scf.yield %s : f32
        }
        gpu.barrier
        scf.yield %p : f32
      }
      memref.store %sum, %c[%row, %col] : memref<?x?xf32>
      gpu.return
    }
    // 5-point Jacobi step on an n x n grid (clamped at the edges): each
    // 16x16 block loads its tile and a one-element halo into workgroup
    // memory, then computes from there.
    gpu.func @stencil(%in: memref<?x?xf32>, %out: memref<?x?xf32>, %n: index)
        workgroup(%tile: memref<18x18xf32, #gpu.address_space<workgroup>>) kernel {
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c15 = arith.constant 15 : index
      %c16 = arith.constant 16 : index
      %c17 = arith.constant 17 : index
      %nm1 = arith.subi %n, %c1 : index
      %i0 = arith.muli %by, %c16 : index
      %i = arith.addi %i0, %ty : index
      %j0 = arith.muli %bx, %c16 : index
      %j = arith.addi %j0, %tx : index
      %ly = arith.addi %ty, %c1 : index
      %lx = arith.addi %tx, %c1 : index
      %v = memref.load %in[%i, %j] : memref<?x?xf32>
      memref.store %v, %tile[%ly, %lx] : memref<18x18xf32, #gpu.address_space<workgroup>>
      %left = arith.cmpi eq, %tx, %c0 : index
      scf.if %left {
        %jm = arith.subi %j, %c1 : index
        %jc = arith.maxsi %jm, %c0 : index
        %w = memref.load %in[%i, %jc] : memref<?x?xf32>
        memref.store %w, %tile[%ly, %c0] : memref<18x18xf32, #gpu.address_space<workgroup>>
      }
      %right = arith.cmpi eq, %tx, %c15 : index
      scf.if %right {
        %jp = arith.addi %j, %c1 : index
        %jc = arith.minsi %jp, %nm1 : index
        %w = memref.load %in[%i, %jc] : memref<?x?xf32>
        memref.store %w, %tile[%ly, %c17] : memref<18x18xf32, #gpu.address_space<workgroup>>
      }
      %top = arith.cmpi eq, %ty, %c0 : index
      scf.if %top {
        %im = arith.subi %i, %c1 : index
        %ic = arith.maxsi %im, %c0 : index
        %w = memref.load %in[%ic, %j] : memref<?x?xf32>
        memref.store %w, %tile[%c0, %lx] : memref<18x18xf32, #gpu.address_space<workgroup>>
      }
      %bottom = arith.cmpi eq, %ty, %c15 : index
      scf.if %bottom {
        %ip = arith.addi %i, %c1 : index
        %ic = arith.minsi %ip, %nm1 : index
        %w = memref.load %in[%ic, %j] : memref<?x?xf32>
        memref.store %w, %tile[%c17, %lx] : memref<18x18xf32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      %up = arith.subi %ly, %c1 : index
      %dn = arith.addi %ly, %c1 : index
      %lf = arith.subi %lx, %c1 : index
      %rt = arith.addi %lx, %c1 : index
      %e0 = memref.load %tile[%ly, %lx] : memref<18x18xf32, #gpu.address_space<workgroup>>
      %e1 = memref.load %tile[%up, %lx] : memref<18x18xf32, #gpu.address_space<workgroup>>
      %e2 = memref.load %tile[%dn, %lx] : memref<18x18xf32, #gpu.address_space<workgroup>>
      %e3 = memref.load %tile[%ly, %lf] : memref<18x18xf32, #gpu.address_space<workgroup>>
      %e4 = memref.load %tile[%ly, %rt] : memref<18x18xf32, #gpu.address_space<workgroup>>
      %s1 = arith.addf %e0, %e1 : f32
      %s2 = arith.addf %s1, %e2 : f32
      %s3 = arith.addf %s2, %e3 : f32
      %s4 = arith.addf %s3, %e4 : f32
      %fifth = arith.constant 0.2 : f32
      %r = arith.mulf %s4, %fifth : f32
      memref.store %r, %out[%i, %j] : memref<?x?xf32>
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

  func.func @reduce(%in: memref<?xf32>, %out: memref<?xf32>) attributes {llvm.emit_c_interface} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %nb = memref.dim %out, %c0 : memref<?xf32>
    gpu.launch_func @bench::@reduce blocks in (%nb, %c1, %c1) threads in (%c256, %c1, %c1)
        args(%in : memref<?xf32>, %out : memref<?xf32>)
    return
  }

  func.func @tiled(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) attributes {llvm.emit_c_interface} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %n = memref.dim %a, %c0 : memref<?x?xf32>
    %g = arith.divui %n, %c16 : index
    gpu.launch_func @bench::@tiled blocks in (%g, %g, %c1) threads in (%c16, %c16, %c1)
        args(%a : memref<?x?xf32>, %b : memref<?x?xf32>, %c : memref<?x?xf32>, %n : index)
    return
  }

  func.func @stencil(%in: memref<?x?xf32>, %out: memref<?x?xf32>) attributes {llvm.emit_c_interface} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %n = memref.dim %in, %c0 : memref<?x?xf32>
    %g = arith.divui %n, %c16 : index
    gpu.launch_func @bench::@stencil blocks in (%g, %g, %c1) threads in (%c16, %c16, %c1)
        args(%in : memref<?x?xf32>, %out : memref<?x?xf32>, %n : index)
    return
  }
}
