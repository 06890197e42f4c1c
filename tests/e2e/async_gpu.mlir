// async.execute regions that launch kernels: four regions, one group, each
// fills its quarter of a 1024-element device buffer (a subview) with k + 1
// from 4 blocks of 64 threads, so that on the host backend launches come
// from several threads at once; then a region that runs a kernel on its
// own buffer and yields a value read back from the device.
//   cells equal to (i / 256) + 1: 1024;  sum: 256 (1 + 2 + 3 + 4) = 2560
//   region value: 10 * 7 = 70
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @fill(%m: memref<256xf32, strided<[1], offset: ?>>, %v: f32) kernel {
      %g = gpu.global_id x
      memref.store %v, %m[%g] : memref<256xf32, strided<[1], offset: ?>>
      gpu.return
    }
    gpu.func @times10(%m: memref<1xi64>) kernel {
      %c0 = arith.constant 0 : index
      %v = memref.load %m[%c0] : memref<1xi64>
      %ten = arith.constant 10 : i64
      %r = arith.muli %v, %ten : i64
      memref.store %r, %m[%c0] : memref<1xi64>
      gpu.return
    }
  }
  func.func private @printI64(i64)
  func.func private @printF32(f32)
  func.func private @printNewline()
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    %c256 = arith.constant 256 : index
    %c1024 = arith.constant 1024 : index
    %one = arith.constant 1.0 : f32
    %dev = gpu.alloc () : memref<1024xf32>
    %grp = async.create_group %c4 : !async.group
    scf.for %k = %c0 to %c4 step %c1 {
      %t = async.execute {
        %off = arith.muli %k, %c256 : index
        %sub = memref.subview %dev[%off] [256] [1] : memref<1024xf32> to memref<256xf32, strided<[1], offset: ?>>
        %ki = arith.index_cast %k : index to i32
        %kf = arith.sitofp %ki : i32 to f32
        %v = arith.addf %kf, %one : f32
        gpu.launch_func @kernels::@fill blocks in (%c4, %c1, %c1) threads in (%c64, %c1, %c1)
            args(%sub : memref<256xf32, strided<[1], offset: ?>>, %v : f32)
        async.yield
      }
      %i = async.add_to_group %t, %grp : !async.token
    }
    async.await_all %grp
    %h = memref.alloc() : memref<1024xf32>
    gpu.memcpy %h, %dev : memref<1024xf32>, memref<1024xf32>
    gpu.dealloc %dev : memref<1024xf32>
    %z = arith.constant 0 : i64
    %zf = arith.constant 0.0 : f32
    %n, %s = scf.for %i = %c0 to %c1024 step %c1 iter_args(%an = %z, %as = %zf) -> (i64, f32) {
      %v = memref.load %h[%i] : memref<1024xf32>
      %q = arith.divui %i, %c256 : index
      %qi = arith.index_cast %q : index to i32
      %qf = arith.sitofp %qi : i32 to f32
      %want = arith.addf %qf, %one : f32
      %eq = arith.cmpf oeq, %v, %want : f32
      %inc = arith.extui %eq : i1 to i64
      %an2 = arith.addi %an, %inc : i64
      %as2 = arith.addf %as, %v : f32
      scf.yield %an2, %as2 : i64, f32
    }
    call @printI64(%n) : (i64) -> ()
    call @printNewline() : () -> ()
    call @printF32(%s) : (f32) -> ()
    call @printNewline() : () -> ()
    %tok, %val = async.execute -> !async.value<i64> {
      %hb = memref.alloc() : memref<1xi64>
      %seven = arith.constant 7 : i64
      memref.store %seven, %hb[%c0] : memref<1xi64>
      %db = gpu.alloc () : memref<1xi64>
      gpu.memcpy %db, %hb : memref<1xi64>, memref<1xi64>
      gpu.launch_func @kernels::@times10 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
          args(%db : memref<1xi64>)
      gpu.memcpy %hb, %db : memref<1xi64>, memref<1xi64>
      gpu.dealloc %db : memref<1xi64>
      %r = memref.load %hb[%c0] : memref<1xi64>
      memref.dealloc %hb : memref<1xi64>
      async.yield %r : i64
    }
    %r = async.await %val : !async.value<i64>
    call @printI64(%r) : (i64) -> ()
    call @printNewline() : () -> ()
    memref.dealloc %h : memref<1024xf32>
    return
  }
}
