// memref.generic_atomic_rmw on floating-point memrefs, as frontends emit it
// for read-modify-write updates that have no atomic_rmw kind: 4 blocks of
// 64 threads (global id g = 0 .. 255).
//   f64: doubled by each thread with g < 10, starting at 1: 2^10 = 1024
//   f32: 0.5 added by every thread, starting at 0: 128
//   f64: cur = max(cur, 1.5 g) written as compare and select: 382.5
//   f16: 1 added by every thread, starting at 0: 256
// then host code doubles the f32 value by the same kind of update, which
// returns the 128 it found and leaves 256 (printed second, 128 last).
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @update(%d: memref<2xf64>, %s: memref<1xf32>, %h: memref<1xf16>) kernel {
      %g = gpu.global_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c10 = arith.constant 10 : index
      %two = arith.constant 2.0 : f64
      %half = arith.constant 0.5 : f32
      %k = arith.constant 1.5 : f64
      %small = arith.cmpi ult, %g, %c10 : index
      %r0 = memref.generic_atomic_rmw %d[%c0] : memref<2xf64> {
      ^bb0(%cur: f64):
        %x = arith.mulf %cur, %two : f64
        %n = arith.select %small, %x, %cur : f64
        memref.atomic_yield %n : f64
      }
      %r1 = memref.generic_atomic_rmw %s[%c0] : memref<1xf32> {
      ^bb0(%cur: f32):
        %n = arith.addf %cur, %half : f32
        memref.atomic_yield %n : f32
      }
      %gi = arith.index_cast %g : index to i64
      %gf = arith.sitofp %gi : i64 to f64
      %v = arith.mulf %gf, %k : f64
      %r2 = memref.generic_atomic_rmw %d[%c1] : memref<2xf64> {
      ^bb0(%cur: f64):
        %gt = arith.cmpf ogt, %v, %cur : f64
        %n = arith.select %gt, %v, %cur : f64
        memref.atomic_yield %n : f64
      }
      %oneh = arith.constant 1.0 : f16
      %r3 = memref.generic_atomic_rmw %h[%c0] : memref<1xf16> {
      ^bb0(%cur: f16):
        %n = arith.addf %cur, %oneh : f16
        memref.atomic_yield %n : f16
      }
      gpu.return
    }
  }
  func.func private @printF64(f64)
  func.func private @printF32(f32)
  func.func private @printF16(i16)
  func.func private @printNewline()
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    %one = arith.constant 1.0 : f64
    %zd = arith.constant 0.0 : f64
    %zs = arith.constant 0.0 : f32
    %hd = memref.alloc() : memref<2xf64>
    %hs = memref.alloc() : memref<1xf32>
    %hh = memref.alloc() : memref<1xf16>
    %zh = arith.constant 0.0 : f16
    memref.store %zh, %hh[%c0] : memref<1xf16>
    memref.store %one, %hd[%c0] : memref<2xf64>
    memref.store %zd, %hd[%c1] : memref<2xf64>
    memref.store %zs, %hs[%c0] : memref<1xf32>
    %dd = gpu.alloc () : memref<2xf64>
    %ds = gpu.alloc () : memref<1xf32>
    %dh = gpu.alloc () : memref<1xf16>
    gpu.memcpy %dh, %hh : memref<1xf16>, memref<1xf16>
    gpu.memcpy %dd, %hd : memref<2xf64>, memref<2xf64>
    gpu.memcpy %ds, %hs : memref<1xf32>, memref<1xf32>
    gpu.launch_func @kernels::@update blocks in (%c4, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%dd : memref<2xf64>, %ds : memref<1xf32>, %dh : memref<1xf16>)
    gpu.memcpy %hd, %dd : memref<2xf64>, memref<2xf64>
    gpu.memcpy %hs, %ds : memref<1xf32>, memref<1xf32>
    gpu.dealloc %dd : memref<2xf64>
    gpu.memcpy %hh, %dh : memref<1xf16>, memref<1xf16>
    gpu.dealloc %ds : memref<1xf32>
    gpu.dealloc %dh : memref<1xf16>
    %two = arith.constant 2.0 : f32
    %old = memref.generic_atomic_rmw %hs[%c0] : memref<1xf32> {
    ^bb0(%cur: f32):
      %n = arith.mulf %cur, %two : f32
      memref.atomic_yield %n : f32
    }
    %a = memref.load %hd[%c0] : memref<2xf64>
    %b = memref.load %hs[%c0] : memref<1xf32>
    %m = memref.load %hd[%c1] : memref<2xf64>
    %h = memref.load %hh[%c0] : memref<1xf16>
    %hbits = arith.bitcast %h : f16 to i16
    call @printF64(%a) : (f64) -> ()
    call @printNewline() : () -> ()
    call @printF32(%b) : (f32) -> ()
    call @printNewline() : () -> ()
    call @printF64(%m) : (f64) -> ()
    call @printNewline() : () -> ()
    call @printF16(%hbits) : (i16) -> ()
    call @printNewline() : () -> ()
    call @printF32(%old) : (f32) -> ()
    call @printNewline() : () -> ()
    return
  }
}
