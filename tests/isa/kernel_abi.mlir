// Kernel parameters (frontend/kernel_abi.c): a memref argument is one
// pointer plus the parts of its layout the type leaves dynamic and the
// kernel reads; LLVM's own lowering passed the whole descriptor (5
// parameters for 1-D, 7 for 2-D). A read-only input that cannot alias the
// other arguments is read with ld.global.nc, CUDA's __restrict__ const:
// when the kernel says llvm.noalias, or when every launch passes buffers of
// their own (distinct gpu.allocs); not when a launch passes one buffer twice.
// One kernel per gpu.module, so that each file's .param lines are its own.
//   vec1d    2 x memref<?xf32>, n: 3 (was 11)
//   mat2d    3 x memref<?x?xf32>, m, n: each a pointer and its row length,
//            8 (was 23)
//   static   2 x memref<16x32xf32>: 2
//   strided  memref<?x?xf32, strided<[?, ?], offset: ?>>, loads only: the
//            pointer, offset, strides (its sizes unread), 4
//   dims     the same read through memref.dim: the sizes too, 6
//   unused   an unused index and memref go: 1
//   said     llvm.noalias written on the input, launched with buffers of
//            unknown origin: ld.global.nc
//   aliased  the same kernel launched with one buffer as both: no .nc
// TARGETS: sm_90
// PTX: vec1d sm_90 3 ^[[:space:]]*\.param
// PTX: vec1d sm_90 some ld\.global\.nc
// PTX: mat2d sm_90 8 ^[[:space:]]*\.param
// PTX: mat2d sm_90 some ld\.global\.nc
// PTX: static sm_90 2 ^[[:space:]]*\.param
// PTX: static sm_90 some ld\.global\.nc
// PTX: strided sm_90 4 ^[[:space:]]*\.param
// PTX: dims sm_90 6 ^[[:space:]]*\.param
// PTX: unused sm_90 1 ^[[:space:]]*\.param
// PTX: said sm_90 some ld\.global\.nc
// PTX: aliased sm_90 2 ^[[:space:]]*\.param
// PTX: aliased sm_90 none ld\.global\.nc
module attributes {gpu.container_module} {
  gpu.module @vec1d {
    gpu.func @scale(%in: memref<?xf32>, %out: memref<?xf32>, %n: index) kernel {
      %b = gpu.block_id x
      %d = gpu.block_dim x
      %t = gpu.thread_id x
      %o = arith.muli %b, %d : index
      %i = arith.addi %o, %t : index
      %ok = arith.cmpi ult, %i, %n : index
      scf.if %ok {
        %v = memref.load %in[%i] : memref<?xf32>
        %w = arith.addf %v, %v : f32
        memref.store %w, %out[%i] : memref<?xf32>
      }
      gpu.return
    }
  }
  gpu.module @mat2d {
    gpu.func @add(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>, %m: index, %n: index) kernel {
      %x = gpu.thread_id x
      %y = gpu.block_id x
      %okx = arith.cmpi ult, %x, %n : index
      %oky = arith.cmpi ult, %y, %m : index
      %ok = arith.andi %okx, %oky : i1
      scf.if %ok {
        %u = memref.load %a[%y, %x] : memref<?x?xf32>
        %v = memref.load %b[%y, %x] : memref<?x?xf32>
        %w = arith.addf %u, %v : f32
        memref.store %w, %c[%y, %x] : memref<?x?xf32>
      }
      gpu.return
    }
  }
  gpu.module @static {
    gpu.func @copy(%in: memref<16x32xf32>, %out: memref<16x32xf32>) kernel {
      %x = gpu.thread_id x
      %y = gpu.thread_id y
      %v = memref.load %in[%y, %x] : memref<16x32xf32>
      memref.store %v, %out[%y, %x] : memref<16x32xf32>
      gpu.return
    }
  }
  gpu.module @strided {
    gpu.func @negate(%v: memref<?x?xf32, strided<[?, ?], offset: ?>>) kernel {
      %x = gpu.thread_id x
      %y = gpu.thread_id y
      %e = memref.load %v[%y, %x] : memref<?x?xf32, strided<[?, ?], offset: ?>>
      %r = arith.negf %e : f32
      memref.store %r, %v[%y, %x] : memref<?x?xf32, strided<[?, ?], offset: ?>>
      gpu.return
    }
  }
  gpu.module @dims {
    gpu.func @negate(%v: memref<?x?xf32, strided<[?, ?], offset: ?>>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %x = gpu.thread_id x
      %y = gpu.thread_id y
      %m = memref.dim %v, %c0 : memref<?x?xf32, strided<[?, ?], offset: ?>>
      %n = memref.dim %v, %c1 : memref<?x?xf32, strided<[?, ?], offset: ?>>
      %oky = arith.cmpi ult, %y, %m : index
      %okx = arith.cmpi ult, %x, %n : index
      %ok = arith.andi %oky, %okx : i1
      scf.if %ok {
        %e = memref.load %v[%y, %x] : memref<?x?xf32, strided<[?, ?], offset: ?>>
        %r = arith.negf %e : f32
        memref.store %r, %v[%y, %x] : memref<?x?xf32, strided<[?, ?], offset: ?>>
      }
      gpu.return
    }
  }
  gpu.module @unused {
    gpu.func @fill(%out: memref<?xf32>, %n: index, %dead: memref<?x?xf32>) kernel {
      %t = gpu.thread_id x
      %one = arith.constant 1.0 : f32
      memref.store %one, %out[%t] : memref<?xf32>
      gpu.return
    }
  }
  gpu.module @said {
    gpu.func @scale(%in: memref<?xf32> {llvm.noalias}, %out: memref<?xf32>) kernel {
      %t = gpu.thread_id x
      %v = memref.load %in[%t] : memref<?xf32>
      %w = arith.addf %v, %v : f32
      memref.store %w, %out[%t] : memref<?xf32>
      gpu.return
    }
  }
  gpu.module @aliased {
    gpu.func @scale(%in: memref<?xf32>, %out: memref<?xf32>) kernel {
      %t = gpu.thread_id x
      %v = memref.load %in[%t] : memref<?xf32>
      %w = arith.addf %v, %v : f32
      memref.store %w, %out[%t] : memref<?xf32>
      gpu.return
    }
  }
  func.func @unknown(%x: memref<?xf32>, %y: memref<?xf32>) {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    gpu.launch_func @said::@scale blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%x : memref<?xf32>, %y : memref<?xf32>)
    return
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %n = arith.constant 1000 : index
    %in = gpu.alloc (%n) : memref<?xf32>
    %out = gpu.alloc (%n) : memref<?xf32>
    gpu.launch_func @vec1d::@scale blocks in (%c1, %c1, %c1) threads in (%n, %c1, %c1)
        args(%in : memref<?xf32>, %out : memref<?xf32>, %n : index)
    %a = gpu.alloc (%c32, %c32) : memref<?x?xf32>
    %b = gpu.alloc (%c32, %c32) : memref<?x?xf32>
    %c = gpu.alloc (%c32, %c32) : memref<?x?xf32>
    gpu.launch_func @mat2d::@add blocks in (%c32, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%a : memref<?x?xf32>, %b : memref<?x?xf32>, %c : memref<?x?xf32>, %c32 : index, %c32 : index)
    %s = gpu.alloc () : memref<16x32xf32>
    %t = gpu.alloc () : memref<16x32xf32>
    gpu.launch_func @static::@copy blocks in (%c1, %c1, %c1) threads in (%c32, %c16, %c1)
        args(%s : memref<16x32xf32>, %t : memref<16x32xf32>)
    %v = memref.subview %a[1, 1] [8, 8] [2, 3] : memref<?x?xf32> to memref<8x8xf32, strided<[?, 3], offset: ?>>
    %vd = memref.cast %v : memref<8x8xf32, strided<[?, 3], offset: ?>> to memref<?x?xf32, strided<[?, ?], offset: ?>>
    gpu.launch_func @strided::@negate blocks in (%c1, %c1, %c1) threads in (%c2, %c2, %c1)
        args(%vd : memref<?x?xf32, strided<[?, ?], offset: ?>>)
    gpu.launch_func @dims::@negate blocks in (%c1, %c1, %c1) threads in (%c16, %c16, %c1)
        args(%vd : memref<?x?xf32, strided<[?, ?], offset: ?>>)
    gpu.launch_func @unused::@fill blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%out : memref<?xf32>, %n : index, %a : memref<?x?xf32>)
    call @unknown(%in, %out) : (memref<?xf32>, memref<?xf32>) -> ()
    gpu.launch_func @aliased::@scale blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%in : memref<?xf32>, %out : memref<?xf32>)
    gpu.launch_func @aliased::@scale blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%out : memref<?xf32>, %out : memref<?xf32>)
    return
  }
}
