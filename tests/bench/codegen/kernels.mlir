// kernels.mlir: the gpucc side of the codegen benchmark (bench_codegen.c),
// also spliced into the GPU check kit's bench_codegen.mlir. kernels.cu holds
// the same kernels in CUDA C: same algorithm, launch shape (the bench's
// table) and 64-bit indices (index here, long there). A kernel that has
// known_block_size here has __launch_bounds__ there; the others may be
// launched with up to 1024 threads.
module attributes {gpu.container_module} {
  // BEGIN bench kernels
  gpu.module @bench {
    // c = a + b, one f32 per thread
    gpu.func @vadd(%a: memref<?xf32>, %b: memref<?xf32>, %c: memref<?xf32>, %n: index) kernel {
      %i = gpu.global_id x
      %in = arith.cmpi slt, %i, %n : index
      scf.if %in {
        %x = memref.load %a[%i] : memref<?xf32>
        %y = memref.load %b[%i] : memref<?xf32>
        %s = arith.addf %x, %y : f32
        memref.store %s, %c[%i] : memref<?xf32>
      }
      gpu.return
    }

    // c = a + b, one vector<4xf32> per thread (n counts vectors)
    gpu.func @vadd4(%a: memref<?xvector<4xf32>>, %b: memref<?xvector<4xf32>>,
                    %c: memref<?xvector<4xf32>>, %n: index) kernel {
      %i = gpu.global_id x
      %in = arith.cmpi slt, %i, %n : index
      scf.if %in {
        %x = memref.load %a[%i] : memref<?xvector<4xf32>>
        %y = memref.load %b[%i] : memref<?xvector<4xf32>>
        %s = arith.addf %x, %y : vector<4xf32>
        memref.store %s, %c[%i] : memref<?xvector<4xf32>>
      }
      gpu.return
    }

    // y = alpha x + y
    gpu.func @saxpy(%alpha: f32, %x: memref<?xf32>, %y: memref<?xf32>, %n: index) kernel {
      %i = gpu.global_id x
      %in = arith.cmpi slt, %i, %n : index
      scf.if %in {
        %xv = memref.load %x[%i] : memref<?xf32>
        %yv = memref.load %y[%i] : memref<?xf32>
        %p = arith.mulf %alpha, %xv : f32
        %s = arith.addf %p, %yv : f32
        memref.store %s, %y[%i] : memref<?xf32>
      }
      gpu.return
    }

    // Each block of 256 sums 512 consecutive floats: two per thread into
    // workgroup memory, then a tree halving the active threads, a barrier
    // per step; thread 0 writes the block's sum to out[block].
    gpu.func @reduce_smem(%in: memref<?xf32>, %out: memref<?xf32>)
        workgroup(%part: memref<256xf32, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      %c128 = arith.constant 128 : index
      %c256 = arith.constant 256 : index
      %c512 = arith.constant 512 : index
      %t = gpu.thread_id x
      %b = gpu.block_id x
      %b512 = arith.muli %b, %c512 : index
      %base = arith.addi %b512, %t : index
      %far = arith.addi %base, %c256 : index
      %x0 = memref.load %in[%base] : memref<?xf32>
      %x1 = memref.load %in[%far] : memref<?xf32>
      %x = arith.addf %x0, %x1 : f32
      memref.store %x, %part[%t] : memref<256xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      scf.for %k = %c0 to %c8 step %c1 {
        %s = arith.shrui %c128, %k : index
        %active = arith.cmpi slt, %t, %s : index
        scf.if %active {
          %ts = arith.addi %t, %s : index
          %u = memref.load %part[%t] : memref<256xf32, #gpu.address_space<workgroup>>
          %v = memref.load %part[%ts] : memref<256xf32, #gpu.address_space<workgroup>>
          %w = arith.addf %u, %v : f32
          memref.store %w, %part[%t] : memref<256xf32, #gpu.address_space<workgroup>>
        }
        gpu.barrier
      }
      %first = arith.cmpi eq, %t, %c0 : index
      scf.if %first {
        %r = memref.load %part[%c0] : memref<256xf32, #gpu.address_space<workgroup>>
        memref.store %r, %out[%b] : memref<?xf32>
      }
      gpu.return
    }

    // Each group of 32 lanes sums its 32 floats with xor shuffles; its first
    // lane writes the sum to out[i / 32].
    gpu.func @reduce_shfl(%in: memref<?xf32>, %out: memref<?xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c5 = arith.constant 5 : index
      %c31 = arith.constant 31 : index
      %c16i = arith.constant 16 : i32
      %c32i = arith.constant 32 : i32
      %i = gpu.global_id x
      %v = memref.load %in[%i] : memref<?xf32>
      %sum = scf.for %k = %c0 to %c5 step %c1 iter_args(%acc = %v) -> (f32) {
        %ki = arith.index_cast %k : index to i32
        %off = arith.shrui %c16i, %ki : i32
        %o, %valid = gpu.shuffle xor %acc, %off, %c32i : f32
        %s = arith.addf %acc, %o : f32
        scf.yield %s : f32
      }
      %t = gpu.thread_id x
      %lane = arith.andi %t, %c31 : index
      %first = arith.cmpi eq, %lane, %c0 : index
      scf.if %first {
        %w = arith.shrui %i, %c5 : index
        memref.store %sum, %out[%w] : memref<?xf32>
      }
      gpu.return
    }

    // c = a b for n x n matrices (n a multiple of 16), 16 x 16 threads, one
    // 16 x 16 tile of a and of b at a time in workgroup memory.
    gpu.func @sgemm16(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>)
        workgroup(%ta: memref<16x16xf32, #gpu.address_space<workgroup>>,
                  %tb: memref<16x16xf32, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 16, 16, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %n = memref.dim %a, %c1 : memref<?x?xf32>
      %row0 = arith.muli %by, %c16 : index
      %row = arith.addi %row0, %ty : index
      %col0 = arith.muli %bx, %c16 : index
      %col = arith.addi %col0, %tx : index
      %tiles = arith.divsi %n, %c16 : index
      %zero = arith.constant 0.0 : f32
      %sum = scf.for %t = %c0 to %tiles step %c1 iter_args(%acc = %zero) -> (f32) {
        %k0 = arith.muli %t, %c16 : index
        %ka = arith.addi %k0, %tx : index
        %kb = arith.addi %k0, %ty : index
        %av = memref.load %a[%row, %ka] : memref<?x?xf32>
        %bv = memref.load %b[%kb, %col] : memref<?x?xf32>
        memref.store %av, %ta[%ty, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
        memref.store %bv, %tb[%ty, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
        gpu.barrier
        %part = scf.for %k = %c0 to %c16 step %c1 iter_args(%p = %acc) -> (f32) {
          %x = memref.load %ta[%ty, %k] : memref<16x16xf32, #gpu.address_space<workgroup>>
          %y = memref.load %tb[%k, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
          %m = arith.mulf %x, %y : f32
          %s = arith.addf %p, %m : f32
          scf.yield %s : f32
        }
        gpu.barrier
        scf.yield %part : f32
      }
      memref.store %sum, %c[%row, %col] : memref<?x?xf32>
      gpu.return
    }

    // out = 0.5 centre + 0.125 (north + south + west + east) on the
    // interior of a rows x cols grid, one point per thread of a 2-D launch.
    gpu.func @stencil5(%in: memref<?x?xf32>, %out: memref<?x?xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %x = gpu.global_id x
      %y = gpu.global_id y
      %rows = memref.dim %in, %c0 : memref<?x?xf32>
      %cols = memref.dim %in, %c1 : memref<?x?xf32>
      %lastx = arith.subi %cols, %c1 : index
      %lasty = arith.subi %rows, %c1 : index
      %x0 = arith.cmpi sge, %x, %c1 : index
      %x1 = arith.cmpi slt, %x, %lastx : index
      %y0 = arith.cmpi sge, %y, %c1 : index
      %y1 = arith.cmpi slt, %y, %lasty : index
      %inx = arith.andi %x0, %x1 : i1
      %iny = arith.andi %y0, %y1 : i1
      %inside = arith.andi %inx, %iny : i1
      scf.if %inside {
        %xm = arith.subi %x, %c1 : index
        %xp = arith.addi %x, %c1 : index
        %ym = arith.subi %y, %c1 : index
        %yp = arith.addi %y, %c1 : index
        %c = memref.load %in[%y, %x] : memref<?x?xf32>
        %no = memref.load %in[%ym, %x] : memref<?x?xf32>
        %so = memref.load %in[%yp, %x] : memref<?x?xf32>
        %we = memref.load %in[%y, %xm] : memref<?x?xf32>
        %ea = memref.load %in[%y, %xp] : memref<?x?xf32>
        %ns = arith.addf %no, %so : f32
        %wea = arith.addf %we, %ea : f32
        %around = arith.addf %ns, %wea : f32
        %half = arith.constant 0.5 : f32
        %eighth = arith.constant 0.125 : f32
        %hc = arith.mulf %half, %c : f32
        %ea8 = arith.mulf %eighth, %around : f32
        %r = arith.addf %hc, %ea8 : f32
        memref.store %r, %out[%y, %x] : memref<?x?xf32>
      }
      gpu.return
    }

    // out (cols x rows) = the transpose of in (rows x cols), both multiples
    // of 32, through a 32 x 33 workgroup tile; blocks of 32 x 8 threads,
    // each thread moving 4 elements.
    gpu.func @transpose(%in: memref<?x?xf32>, %out: memref<?x?xf32>)
        workgroup(%tile: memref<32x33xf32, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 32, 8, 1>} {
      %c0 = arith.constant 0 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %bx32 = arith.muli %bx, %c32 : index
      %by32 = arith.muli %by, %c32 : index
      %x = arith.addi %bx32, %tx : index
      %y = arith.addi %by32, %ty : index
      scf.for %j = %c0 to %c32 step %c8 {
        %yj = arith.addi %y, %j : index
        %tyj = arith.addi %ty, %j : index
        %v = memref.load %in[%yj, %x] : memref<?x?xf32>
        memref.store %v, %tile[%tyj, %tx] : memref<32x33xf32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      %x2 = arith.addi %by32, %tx : index
      %y2 = arith.addi %bx32, %ty : index
      scf.for %j = %c0 to %c32 step %c8 {
        %yj = arith.addi %y2, %j : index
        %tyj = arith.addi %ty, %j : index
        %v = memref.load %tile[%tx, %tyj] : memref<32x33xf32, #gpu.address_space<workgroup>>
        memref.store %v, %out[%yj, %x2] : memref<?x?xf32>
      }
      gpu.return
    }
  }
  // END bench kernels
}
