// Kernel parameters (frontend/kernel_abi.c): a memref argument reaches its
// kernel as one pointer plus the parts of its layout that the type leaves
// dynamic, and parameters the kernel never reads are not passed. Each
// kernel writes values that show whether what arrived is right:
//   @rows     memref<?x?xf32>, bounds from memref.dim: a(i, j) = 100 i + j
//             on a 3x5 buffer, over a 4x8 grid
//   @shift    a[1:3, 1:4:2] (offset 6, strides [5, 2], as a fully dynamic
//             layout), bounds from memref.dim: += 1000
//   @negate   a[0:3, 2] (offset 2, strides [5, 1]): -a, no dims read (the
//             sizes are not passed)
//   @scale    memref<?xf32> read, another written, n given: out = 2 in,
//             launched asynchronously
//   @vec4     vector.load/store on memref<?xf32>: out = in + 0.25
//   @squares  memref<4x4xf32> (static: the pointer only): s(y, x) = 10y + x
//   @half     s[1:3, 1:4] (memref<2x3xf32, strided<[4, 1], offset: 5>>): += 0.5
//   @sum      memref<f32> (0-d) written, s[2, 0:4] read (static offset 8):
//             its sum
//   @mixed    memref<?x4xi32> (size 0 unread) with an unused index and an
//             unused memref: m(i, j) = k i + j; launched with dynamic
//             shared memory
//   @alias    the same buffer as both arguments: y = x + y + 1
//   @cube     memref<?x?x?xi32>, bounds and strides from the sizes:
//             each element its linear index
//   @called   passes its memref to a device function that reads its size
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @rows(%a: memref<?x?xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %i = gpu.block_id x
      %j = gpu.thread_id x
      %m = memref.dim %a, %c0 : memref<?x?xf32>
      %n = memref.dim %a, %c1 : memref<?x?xf32>
      %oki = arith.cmpi ult, %i, %m : index
      %okj = arith.cmpi ult, %j, %n : index
      %ok = arith.andi %oki, %okj : i1
      scf.if %ok {
        %c100 = arith.constant 100 : index
        %r = arith.muli %i, %c100 : index
        %v = arith.addi %r, %j : index
        %vi = arith.index_cast %v : index to i32
        %f = arith.sitofp %vi : i32 to f32
        memref.store %f, %a[%i, %j] : memref<?x?xf32>
      }
      gpu.return
    }
    gpu.func @shift(%v: memref<?x?xf32, strided<[?, ?], offset: ?>>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %y = gpu.thread_id y
      %x = gpu.thread_id x
      %m = memref.dim %v, %c0 : memref<?x?xf32, strided<[?, ?], offset: ?>>
      %n = memref.dim %v, %c1 : memref<?x?xf32, strided<[?, ?], offset: ?>>
      %oky = arith.cmpi ult, %y, %m : index
      %okx = arith.cmpi ult, %x, %n : index
      %ok = arith.andi %oky, %okx : i1
      scf.if %ok {
        %k = arith.constant 1000.0 : f32
        %e = memref.load %v[%y, %x] : memref<?x?xf32, strided<[?, ?], offset: ?>>
        %r = arith.addf %e, %k : f32
        memref.store %r, %v[%y, %x] : memref<?x?xf32, strided<[?, ?], offset: ?>>
      }
      gpu.return
    }
    gpu.func @negate(%v: memref<?x?xf32, strided<[?, ?], offset: ?>>) kernel {
      %y = gpu.thread_id y
      %x = gpu.thread_id x
      %e = memref.load %v[%y, %x] : memref<?x?xf32, strided<[?, ?], offset: ?>>
      %r = arith.negf %e : f32
      memref.store %r, %v[%y, %x] : memref<?x?xf32, strided<[?, ?], offset: ?>>
      gpu.return
    }
    gpu.func @scale(%in: memref<?xf32>, %out: memref<?xf32>, %n: index) kernel {
      %i = gpu.thread_id x
      %ok = arith.cmpi ult, %i, %n : index
      scf.if %ok {
        %e = memref.load %in[%i] : memref<?xf32>
        %r = arith.addf %e, %e : f32
        memref.store %r, %out[%i] : memref<?xf32>
      }
      gpu.return
    }
    gpu.func @vec4(%in: memref<?xf32>, %out: memref<?xf32>) kernel {
      %t = gpu.thread_id x
      %c4 = arith.constant 4 : index
      %i = arith.muli %t, %c4 : index
      %q = arith.constant dense<0.25> : vector<4xf32>
      %e = vector.load %in[%i] : memref<?xf32>, vector<4xf32>
      %r = arith.addf %e, %q : vector<4xf32>
      vector.store %r, %out[%i] : memref<?xf32>, vector<4xf32>
      gpu.return
    }
    gpu.func @squares(%s: memref<4x4xf32>) kernel {
      %y = gpu.thread_id y
      %x = gpu.thread_id x
      %c10 = arith.constant 10 : index
      %r = arith.muli %y, %c10 : index
      %v = arith.addi %r, %x : index
      %vi = arith.index_cast %v : index to i32
      %f = arith.sitofp %vi : i32 to f32
      memref.store %f, %s[%y, %x] : memref<4x4xf32>
      gpu.return
    }
    gpu.func @half(%t: memref<2x3xf32, strided<[4, 1], offset: 5>>) kernel {
      %y = gpu.thread_id y
      %x = gpu.thread_id x
      %h = arith.constant 0.5 : f32
      %e = memref.load %t[%y, %x] : memref<2x3xf32, strided<[4, 1], offset: 5>>
      %r = arith.addf %e, %h : f32
      memref.store %r, %t[%y, %x] : memref<2x3xf32, strided<[4, 1], offset: 5>>
      gpu.return
    }
    gpu.func @sum(%s: memref<f32>, %v: memref<4xf32, strided<[1], offset: 8>>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %z = arith.constant 0.0 : f32
      %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %z) -> f32 {
        %e = memref.load %v[%i] : memref<4xf32, strided<[1], offset: 8>>
        %a = arith.addf %acc, %e : f32
        scf.yield %a : f32
      }
      memref.store %r, %s[] : memref<f32>
      gpu.return
    }
    gpu.func @mixed(%m: memref<?x4xi32>, %unused: index, %dead: memref<?xf32>, %k: i32) kernel {
      %i = gpu.thread_id y
      %j = gpu.thread_id x
      %ii = arith.index_cast %i : index to i32
      %jj = arith.index_cast %j : index to i32
      %r = arith.muli %ii, %k : i32
      %v = arith.addi %r, %jj : i32
      memref.store %v, %m[%i, %j] : memref<?x4xi32>
      gpu.return
    }
    gpu.func @alias(%x: memref<?xf32>, %y: memref<?xf32>) kernel {
      %i = gpu.thread_id x
      %one = arith.constant 1.0 : f32
      %a = memref.load %x[%i] : memref<?xf32>
      %b = memref.load %y[%i] : memref<?xf32>
      %s = arith.addf %a, %b : f32
      %r = arith.addf %s, %one : f32
      memref.store %r, %y[%i] : memref<?xf32>
      gpu.return
    }
    gpu.func @cube(%c: memref<?x?x?xi32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %z = gpu.thread_id z
      %y = gpu.thread_id y
      %x = gpu.thread_id x
      %d0 = memref.dim %c, %c0 : memref<?x?x?xi32>
      %d1 = memref.dim %c, %c1 : memref<?x?x?xi32>
      %d2 = memref.dim %c, %c2 : memref<?x?x?xi32>
      %okz = arith.cmpi ult, %z, %d0 : index
      %oky = arith.cmpi ult, %y, %d1 : index
      %okx = arith.cmpi ult, %x, %d2 : index
      %ok1 = arith.andi %okz, %oky : i1
      %ok = arith.andi %ok1, %okx : i1
      scf.if %ok {
        %a = arith.muli %z, %d1 : index
        %b = arith.addi %a, %y : index
        %c3 = arith.muli %b, %d2 : index
        %l = arith.addi %c3, %x : index
        %li = arith.index_cast %l : index to i32
        memref.store %li, %c[%z, %y, %x] : memref<?x?x?xi32>
      }
      gpu.return
    }
    func.func @length(%v: memref<?xf32>) -> f32 {
      %c0 = arith.constant 0 : index
      %n = memref.dim %v, %c0 : memref<?xf32>
      %ni = arith.index_cast %n : index to i32
      %f = arith.sitofp %ni : i32 to f32
      return %f : f32
    }
    gpu.func @called(%v: memref<?xf32>, %out: memref<f32>) kernel {
      %f = func.call @length(%v) : (memref<?xf32>) -> f32
      memref.store %f, %out[] : memref<f32>
      gpu.return
    }
  }

  func.func private @printMemrefF32(memref<*xf32>)
  func.func private @printMemrefI32(memref<*xi32>)

  func.func @show(%d: memref<?x?xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %m = memref.dim %d, %c0 : memref<?x?xf32>
    %n = memref.dim %d, %c1 : memref<?x?xf32>
    %h = memref.alloc(%m, %n) : memref<?x?xf32>
    gpu.memcpy %h, %d : memref<?x?xf32>, memref<?x?xf32>
    %u = memref.cast %h : memref<?x?xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    memref.dealloc %h : memref<?x?xf32>
    return
  }

  func.func @show1(%d: memref<?xf32>) {
    %c0 = arith.constant 0 : index
    %n = memref.dim %d, %c0 : memref<?xf32>
    %h = memref.alloc(%n) : memref<?xf32>
    gpu.memcpy %h, %d : memref<?xf32>, memref<?xf32>
    %u = memref.cast %h : memref<?xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    memref.dealloc %h : memref<?xf32>
    return
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c5 = arith.constant 5 : index
    %c8 = arith.constant 8 : index

    // 3x5, over a 4x8 grid: the dims keep the extra threads out.
    %a = gpu.alloc (%c3, %c5) : memref<?x?xf32>
    gpu.launch_func @kernels::@rows blocks in (%c4, %c1, %c1) threads in (%c8, %c1, %c1)
        args(%a : memref<?x?xf32>)
    %s1 = memref.subview %a[1, 1] [2, 2] [1, 2] : memref<?x?xf32> to memref<2x2xf32, strided<[?, 2], offset: ?>>
    %d1 = memref.cast %s1 : memref<2x2xf32, strided<[?, 2], offset: ?>> to memref<?x?xf32, strided<[?, ?], offset: ?>>
    gpu.launch_func @kernels::@shift blocks in (%c1, %c1, %c1) threads in (%c4, %c4, %c1)
        args(%d1 : memref<?x?xf32, strided<[?, ?], offset: ?>>)
    %s2 = memref.subview %a[0, 2] [3, 1] [1, 1] : memref<?x?xf32> to memref<3x1xf32, strided<[?, 1], offset: 2>>
    %d2 = memref.cast %s2 : memref<3x1xf32, strided<[?, 1], offset: 2>> to memref<?x?xf32, strided<[?, ?], offset: ?>>
    gpu.launch_func @kernels::@negate blocks in (%c1, %c1, %c1) threads in (%c1, %c3, %c1)
        args(%d2 : memref<?x?xf32, strided<[?, ?], offset: ?>>)
    call @show(%a) : (memref<?x?xf32>) -> ()

    // 1-D: a row of %a read, a fresh buffer written; asynchronously.
    %row = memref.collapse_shape %a [[0, 1]] : memref<?x?xf32> into memref<?xf32>
    %out = gpu.alloc (%c8) : memref<?xf32>
    %zero = arith.constant 0.0 : f32
    gpu.memset %out, %zero : memref<?xf32>, f32
    %t0 = gpu.wait async
    %n = arith.constant 7 : index
    %t1 = gpu.launch_func async [%t0] @kernels::@scale blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1)
        args(%row : memref<?xf32>, %out : memref<?xf32>, %n : index)
    gpu.wait [%t1]
    call @show1(%out) : (memref<?xf32>) -> ()
    %c16 = arith.constant 16 : index
    %v16 = gpu.alloc (%c16) : memref<?xf32>
    %in16 = memref.subview %row[0] [12] [1] : memref<?xf32> to memref<12xf32, strided<[1]>>
    %in16d = memref.cast %in16 : memref<12xf32, strided<[1]>> to memref<?xf32>
    gpu.launch_func @kernels::@vec4 blocks in (%c1, %c1, %c1) threads in (%c3, %c1, %c1)
        args(%in16d : memref<?xf32>, %v16 : memref<?xf32>)
    %v12 = memref.subview %v16[0] [12] [1] : memref<?xf32> to memref<12xf32, strided<[1]>>
    %v12d = memref.cast %v12 : memref<12xf32, strided<[1]>> to memref<?xf32>
    call @show1(%v12d) : (memref<?xf32>) -> ()

    // Static shapes and layouts, a 0-d result.
    %s = gpu.alloc () : memref<4x4xf32>
    gpu.launch_func @kernels::@squares blocks in (%c1, %c1, %c1) threads in (%c4, %c4, %c1)
        args(%s : memref<4x4xf32>)
    %sv = memref.subview %s[1, 1] [2, 3] [1, 1] : memref<4x4xf32> to memref<2x3xf32, strided<[4, 1], offset: 5>>
    gpu.launch_func @kernels::@half blocks in (%c1, %c1, %c1) threads in (%c3, %c2, %c1)
        args(%sv : memref<2x3xf32, strided<[4, 1], offset: 5>>)
    %sd = memref.cast %s : memref<4x4xf32> to memref<?x?xf32>
    call @show(%sd) : (memref<?x?xf32>) -> ()
    %r = gpu.alloc () : memref<f32>
    %flat = memref.collapse_shape %s [[0, 1]] : memref<4x4xf32> into memref<16xf32>
    %third = memref.subview %flat[8] [4] [1] : memref<16xf32> to memref<4xf32, strided<[1], offset: 8>>
    gpu.launch_func @kernels::@sum blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%r : memref<f32>, %third : memref<4xf32, strided<[1], offset: 8>>)
    %rh = memref.alloc () : memref<f32>
    gpu.memcpy %rh, %r : memref<f32>, memref<f32>
    %ru = memref.cast %rh : memref<f32> to memref<*xf32>
    call @printMemrefF32(%ru) : (memref<*xf32>) -> ()

    // Unused parameters; dynamic shared memory on the launch.
    %m = gpu.alloc (%c3) : memref<?x4xi32>
    %k = arith.constant 10 : i32
    %smem = arith.constant 64 : i32
    gpu.launch_func @kernels::@mixed blocks in (%c1, %c1, %c1) threads in (%c4, %c3, %c1)
        dynamic_shared_memory_size %smem
        args(%m : memref<?x4xi32>, %c5 : index, %out : memref<?xf32>, %k : i32)
    %mh = memref.alloc () : memref<3x4xi32>
    %mc = memref.cast %m : memref<?x4xi32> to memref<3x4xi32>
    gpu.memcpy %mh, %mc : memref<3x4xi32>, memref<3x4xi32>
    %mu = memref.cast %mh : memref<3x4xi32> to memref<*xi32>
    call @printMemrefI32(%mu) : (memref<*xi32>) -> ()

    // One buffer as both arguments: out = 2 out + 1.
    gpu.launch_func @kernels::@alias blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1)
        args(%out : memref<?xf32>, %out : memref<?xf32>)
    call @show1(%out) : (memref<?xf32>) -> ()

    // 2x3x4 over a 5x4x3 block of threads.
    %cube = gpu.alloc (%c2, %c3, %c4) : memref<?x?x?xi32>
    gpu.launch_func @kernels::@cube blocks in (%c1, %c1, %c1) threads in (%c5, %c4, %c3)
        args(%cube : memref<?x?x?xi32>)
    %ch = memref.alloc () : memref<2x3x4xi32>
    %cc = memref.cast %cube : memref<?x?x?xi32> to memref<2x3x4xi32>
    gpu.memcpy %ch, %cc : memref<2x3x4xi32>, memref<2x3x4xi32>
    %cu = memref.cast %ch : memref<2x3x4xi32> to memref<*xi32>
    call @printMemrefI32(%cu) : (memref<*xi32>) -> ()

    // A device function reads the size: 16.
    gpu.launch_func @kernels::@called blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%v16 : memref<?xf32>, %r : memref<f32>)
    gpu.memcpy %rh, %r : memref<f32>, memref<f32>
    call @printMemrefF32(%ru) : (memref<*xf32>) -> ()

    gpu.dealloc %a : memref<?x?xf32>
    gpu.dealloc %out : memref<?xf32>
    gpu.dealloc %v16 : memref<?xf32>
    gpu.dealloc %s : memref<4x4xf32>
    gpu.dealloc %r : memref<f32>
    gpu.dealloc %m : memref<?x4xi32>
    gpu.dealloc %cube : memref<?x?x?xi32>
    memref.dealloc %rh : memref<f32>
    memref.dealloc %mh : memref<3x4xi32>
    memref.dealloc %ch : memref<2x3x4xi32>
    return
  }
}
