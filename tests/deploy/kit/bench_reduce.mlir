// GPU check kit benchmark: a block reduction. Each block of 256 threads sums
// 1024 consecutive floats (4 per thread, loaded 256 apart so that a warp's
// loads are contiguous) into workgroup memory, halves the active threads with
// a barrier per step, and thread 0 writes the block's partial sum; the host
// adds the partials. Timed on the host over @REPS@ launches on one stream
// (after a warm-up launch). bench_reduce.cu is the same in CUDA C. @N@ (a
// multiple of 1024) and @REPS@ are filled in by scripts/gpu-kit.sh. Prints
//   reduce_gbps <GB/s of input read>  check ok|FAILED
// The input is in[i] = i mod 8, so every partial is exact (3584 per block).
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @reduce(%in: memref<?xf32>, %out: memref<?xf32>)
        workgroup(%tile: memref<256xf32, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c256 = arith.constant 256 : index
      %c1024 = arith.constant 1024 : index
      %t = gpu.thread_id x
      %b = gpu.block_id x
      %base0 = arith.muli %b, %c1024 : index
      %base = arith.addi %base0, %t : index
      %zero = arith.constant 0.0 : f32
      %mine = scf.for %k = %c0 to %c4 step %c1 iter_args(%acc = %zero) -> (f32) {
        %o = arith.muli %k, %c256 : index
        %i = arith.addi %base, %o : index
        %v = memref.load %in[%i] : memref<?xf32>
        %s = arith.addf %acc, %v : f32
        scf.yield %s : f32
      }
      memref.store %mine, %tile[%t] : memref<256xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      // s = 128, 64, ..., 1
      scf.for %k = %c0 to %c8 step %c1 {
        %k1 = arith.addi %k, %c1 : index
        %s = arith.shrui %c256, %k1 : index
        %active = arith.cmpi ult, %t, %s : index
        scf.if %active {
          %o = arith.addi %t, %s : index
          %x = memref.load %tile[%t] : memref<256xf32, #gpu.address_space<workgroup>>
          %y = memref.load %tile[%o] : memref<256xf32, #gpu.address_space<workgroup>>
          %z = arith.addf %x, %y : f32
          memref.store %z, %tile[%t] : memref<256xf32, #gpu.address_space<workgroup>>
        }
        gpu.barrier
      }
      %first = arith.cmpi eq, %t, %c0 : index
      scf.if %first {
        %r = memref.load %tile[%c0] : memref<256xf32, #gpu.address_space<workgroup>>
        memref.store %r, %out[%b] : memref<?xf32>
      }
      gpu.return
    }
  }
  func.func private @rtclock() -> f64

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c256 = arith.constant 256 : index
    %c1024 = arith.constant 1024 : index
    %n = arith.constant @N@ : index
    %reps = arith.constant @REPS@ : index
    %blocks = arith.divui %n, %c1024 : index
    %hin = memref.alloc(%n) : memref<?xf32>
    scf.for %i = %c0 to %n step %c1 {
      %r = arith.remui %i, %c8 : index
      %ri = arith.index_cast %r : index to i32
      %f = arith.sitofp %ri : i32 to f32
      memref.store %f, %hin[%i] : memref<?xf32>
    }
    %din = gpu.alloc (%n) : memref<?xf32>
    %dout = gpu.alloc (%blocks) : memref<?xf32>
    gpu.memcpy %din, %hin : memref<?xf32>, memref<?xf32>
    gpu.launch_func @kernels::@reduce blocks in (%blocks, %c1, %c1) threads in (%c256, %c1, %c1)
        args(%din : memref<?xf32>, %dout : memref<?xf32>)
    %s = gpu.wait async
    %t0 = func.call @rtclock() : () -> f64
    scf.for %r = %c0 to %reps step %c1 {
      %t = gpu.launch_func async [%s] @kernels::@reduce blocks in (%blocks, %c1, %c1) threads in (%c256, %c1, %c1)
          args(%din : memref<?xf32>, %dout : memref<?xf32>)
    }
    gpu.wait [%s]
    %t1 = func.call @rtclock() : () -> f64
    %hout = memref.alloc(%blocks) : memref<?xf32>
    gpu.memcpy %hout, %dout : memref<?xf32>, memref<?xf32>

    // input bytes read per second
    %c4 = arith.constant 4 : index
    %bytes = arith.muli %n, %c4 : index
    %all = arith.muli %bytes, %reps : index
    %ai = arith.index_cast %all : index to i64
    %af = arith.sitofp %ai : i64 to f64
    %dt = arith.subf %t1, %t0 : f64
    %rate = arith.divf %af, %dt : f64
    %giga = arith.constant 1.0e9 : f64
    %gbps = arith.divf %rate, %giga : f64

    // every partial is 128 * (0 + 1 + ... + 7) = 3584
    %want = arith.constant 3584.0 : f32
    %bad = scf.for %i = %c0 to %blocks step %c1 iter_args(%acc = %c0) -> (index) {
      %v = memref.load %hout[%i] : memref<?xf32>
      %ok = arith.cmpf oeq, %v, %want : f32
      %next = arith.addi %acc, %c1 : index
      %r = arith.select %ok, %acc, %next : index
      scf.yield %r : index
    }
    vector.print str "reduce_gbps "
    vector.print %gbps : f64
    %good = arith.cmpi eq, %bad, %c0 : index
    scf.if %good {
      vector.print str "check ok\n"
    } else {
      vector.print str "check FAILED\n"
    }
    gpu.dealloc %din : memref<?xf32>
    gpu.dealloc %dout : memref<?xf32>
    memref.dealloc %hin : memref<?xf32>
    memref.dealloc %hout : memref<?xf32>
    return
  }
}
