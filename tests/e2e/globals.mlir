// memref.global in host code and in a gpu.module: constant tables that a
// kernel reads with memref.get_global (1-D i32 and 2-D f32), a mutable
// device global written by one kernel and read by the next, and host
// globals (a constant table and a mutable counter).
//   table = [3, 1, 4, 1, 5, 9, 2, 6]     w = [[0.5, 1, 1.5, 2], [2.5, 3, 3.5, 4]]
//   @lookup: out[t] = table[7-t] * w[t/4][t%4] = [3, 2, 13.5, 10, 2.5, 12, 3.5, 12]
//   host:    out[t] * coeffs[t%4], coeffs = [1, 2, 3, 4]
//            = [3, 4, 40.5, 40, 2.5, 24, 10.5, 48]
//   @stash:  scratch[t] = t*t;  @fetch: out2[t] = scratch[7-t] + table[t]
//            = [52, 37, 29, 17, 14, 13, 3, 6]
//   host counter: bumped by three calls = 3
module attributes {gpu.container_module} {
  gpu.module @kernels {
    memref.global "private" constant @table : memref<8xi32> = dense<[3, 1, 4, 1, 5, 9, 2, 6]>
    memref.global "private" constant @w : memref<2x4xf32> = dense<[[0.5, 1.0, 1.5, 2.0], [2.5, 3.0, 3.5, 4.0]]>
    memref.global "private" @scratch : memref<8xi32> = uninitialized
    gpu.func @lookup(%out: memref<8xf32>) kernel {
      %t = gpu.thread_id x
      %c4 = arith.constant 4 : index
      %c7 = arith.constant 7 : index
      %tab = memref.get_global @table : memref<8xi32>
      %w = memref.get_global @w : memref<2x4xf32>
      %r = arith.subi %c7, %t : index
      %v = memref.load %tab[%r] : memref<8xi32>
      %vf = arith.sitofp %v : i32 to f32
      %i = arith.divui %t, %c4 : index
      %j = arith.remui %t, %c4 : index
      %wv = memref.load %w[%i, %j] : memref<2x4xf32>
      %p = arith.mulf %vf, %wv : f32
      memref.store %p, %out[%t] : memref<8xf32>
      gpu.return
    }
    gpu.func @stash() kernel {
      %t = gpu.thread_id x
      %s = memref.get_global @scratch : memref<8xi32>
      %ti = arith.index_cast %t : index to i32
      %sq = arith.muli %ti, %ti : i32
      memref.store %sq, %s[%t] : memref<8xi32>
      gpu.return
    }
    gpu.func @fetch(%out: memref<8xi32>) kernel {
      %t = gpu.thread_id x
      %c7 = arith.constant 7 : index
      %s = memref.get_global @scratch : memref<8xi32>
      %tab = memref.get_global @table : memref<8xi32>
      %r = arith.subi %c7, %t : index
      %a = memref.load %s[%r] : memref<8xi32>
      %b = memref.load %tab[%t] : memref<8xi32>
      %v = arith.addi %a, %b : i32
      memref.store %v, %out[%t] : memref<8xi32>
      gpu.return
    }
  }
  memref.global "private" constant @coeffs : memref<4xf32> = dense<[1.0, 2.0, 3.0, 4.0]>
  memref.global "private" @calls : memref<i32> = dense<0>
  func.func private @printMemrefF32(memref<*xf32>)
  func.func private @printMemrefI32(memref<*xi32>)
  func.func private @printI64(i64)
  func.func private @printNewline()
  func.func @bump() {
    %g = memref.get_global @calls : memref<i32>
    %v = memref.load %g[] : memref<i32>
    %one = arith.constant 1 : i32
    %n = arith.addi %v, %one : i32
    memref.store %n, %g[] : memref<i32>
    return
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %out = gpu.alloc () : memref<8xf32>
    %out2 = gpu.alloc () : memref<8xi32>
    gpu.launch_func @kernels::@lookup blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1)
        args(%out : memref<8xf32>)
    gpu.launch_func @kernels::@stash blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1)
    gpu.launch_func @kernels::@fetch blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1)
        args(%out2 : memref<8xi32>)
    %h = memref.alloc() : memref<8xf32>
    %h2 = memref.alloc() : memref<8xi32>
    gpu.memcpy %h, %out : memref<8xf32>, memref<8xf32>
    gpu.memcpy %h2, %out2 : memref<8xi32>, memref<8xi32>
    %u = memref.cast %h : memref<8xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    %co = memref.get_global @coeffs : memref<4xf32>
    scf.for %i = %c0 to %c8 step %c1 {
      %j = arith.remui %i, %c4 : index
      %cv = memref.load %co[%j] : memref<4xf32>
      %v = memref.load %h[%i] : memref<8xf32>
      %p = arith.mulf %v, %cv : f32
      memref.store %p, %h[%i] : memref<8xf32>
    }
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    %u2 = memref.cast %h2 : memref<8xi32> to memref<*xi32>
    call @printMemrefI32(%u2) : (memref<*xi32>) -> ()
    call @bump() : () -> ()
    call @bump() : () -> ()
    call @bump() : () -> ()
    %g = memref.get_global @calls : memref<i32>
    %n = memref.load %g[] : memref<i32>
    %n64 = arith.extsi %n : i32 to i64
    call @printI64(%n64) : (i64) -> ()
    call @printNewline() : () -> ()
    gpu.dealloc %out : memref<8xf32>
    gpu.dealloc %out2 : memref<8xi32>
    return
  }
}
