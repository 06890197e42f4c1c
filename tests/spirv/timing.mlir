// Timing a kernel as upstream's Vulkan time test does, in gpucc's form:
// rtclock() around 100 launches of a 4096-element add and a wait; the
// output says whether time went forward, and the data, so it is the same
// on every backend.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @add_one(%a: memref<?xf32>, %n: index) kernel {
      %t = gpu.thread_id x
      %bid = gpu.block_id x
      %bd = gpu.block_dim x
      %base = arith.muli %bid, %bd : index
      %i = arith.addi %base, %t : index
      %ok = arith.cmpi ult, %i, %n : index
      scf.if %ok {
        %one = arith.constant 1.0 : f32
        %x = memref.load %a[%i] : memref<?xf32>
        %y = arith.addf %x, %one : f32
        memref.store %y, %a[%i] : memref<?xf32>
      }
      gpu.return
    }
  }
  func.func private @rtclock() -> f64
  func.func private @printF64(f64)
  func.func private @printI64(i64)
  func.func private @printNewline()
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c100 = arith.constant 100 : index
    %c256 = arith.constant 256 : index
    %c16 = arith.constant 16 : index
    %n = arith.constant 4096 : index
    %zero = arith.constant 0.0 : f32
    %h = memref.alloc(%n) : memref<?xf32>
    %d = gpu.alloc (%n) : memref<?xf32>
    gpu.memset %d, %zero : memref<?xf32>, f32
    %t0 = call @rtclock() : () -> f64
    scf.for %r = %c0 to %c100 step %c1 {
      gpu.launch_func @kernels::@add_one blocks in (%c16, %c1, %c1) threads in (%c256, %c1, %c1)
          args(%d : memref<?xf32>, %n : index)
    }
    gpu.wait
    %t1 = call @rtclock() : () -> f64
    gpu.memcpy %h, %d : memref<?xf32>, memref<?xf32>
    // Time went forward (1), and every element was added to 100 times.
    %dt = arith.subf %t1, %t0 : f64
    %z = arith.constant 0.0 : f64
    %fwd = arith.cmpf oge, %dt, %z : f64
    %fwd64 = arith.extui %fwd : i1 to i64
    call @printI64(%fwd64) : (i64) -> ()
    call @printNewline() : () -> ()
    %last = arith.constant 4095 : index
    %v0 = memref.load %h[%c0] : memref<?xf32>
    %v1 = memref.load %h[%last] : memref<?xf32>
    %v0d = arith.extf %v0 : f32 to f64
    %v1d = arith.extf %v1 : f32 to f64
    call @printF64(%v0d) : (f64) -> ()
    call @printNewline() : () -> ()
    call @printF64(%v1d) : (f64) -> ()
    call @printNewline() : () -> ()
    return
  }
}
