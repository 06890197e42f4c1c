// GPU check kit benchmark: memory bandwidth of vecadd (c = a + b) and saxpy
// (y = a x + y) against the device-to-device copy rate (gpu.memcpy), all on
// one stream, timed on the host around @REPS@ launches of @N@ floats with one
// wait at the end. bench_bandwidth.cu is the same in CUDA C.
// @N@ and @REPS@ are filled in by scripts/gpu-kit.sh. Prints
//   vecadd_gbps <GB/s>  saxpy_gbps <GB/s>  copy_gbps <GB/s>  check ok|FAILED
// counting the bytes each kernel must move: 3 arrays for vecadd and saxpy,
// 2 for the copy (read and write).
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @vecadd(%a: memref<?xf32>, %b: memref<?xf32>, %c: memref<?xf32>, %n: index) kernel {
      %i = gpu.global_id x
      %in = arith.cmpi ult, %i, %n : index
      scf.if %in {
        %x = memref.load %a[%i] : memref<?xf32>
        %y = memref.load %b[%i] : memref<?xf32>
        %s = arith.addf %x, %y : f32
        memref.store %s, %c[%i] : memref<?xf32>
      }
      gpu.return
    }
    gpu.func @saxpy(%alpha: f32, %x: memref<?xf32>, %y: memref<?xf32>, %n: index) kernel {
      %i = gpu.global_id x
      %in = arith.cmpi ult, %i, %n : index
      scf.if %in {
        %xv = memref.load %x[%i] : memref<?xf32>
        %yv = memref.load %y[%i] : memref<?xf32>
        %p = arith.mulf %alpha, %xv : f32
        %s = arith.addf %p, %yv : f32
        memref.store %s, %y[%i] : memref<?xf32>
      }
      gpu.return
    }
  }
  func.func private @rtclock() -> f64

  // bytes moved per second, in GB/s
  func.func @gbps(%arrays: index, %n: index, %reps: index, %seconds: f64) -> f64 {
    %c4 = arith.constant 4 : index
    %per = arith.muli %arrays, %c4 : index
    %bytes = arith.muli %per, %n : index
    %total = arith.muli %bytes, %reps : index
    %ti = arith.index_cast %total : index to i64
    %tf = arith.sitofp %ti : i64 to f64
    %giga = arith.constant 1.0e9 : f64
    %r = arith.divf %tf, %seconds : f64
    %g = arith.divf %r, %giga : f64
    return %g : f64
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c256 = arith.constant 256 : index
    %n = arith.constant @N@ : index
    %reps = arith.constant @REPS@ : index
    %blocks0 = arith.addi %n, %c256 : index
    %blocks1 = arith.subi %blocks0, %c1 : index
    %blocks = arith.divui %blocks1, %c256 : index
    %one = arith.constant 1.0 : f32
    %two = arith.constant 2.0 : f32
    %alpha = arith.constant 0.5 : f32
    %da = gpu.alloc (%n) : memref<?xf32>
    %db = gpu.alloc (%n) : memref<?xf32>
    %dc = gpu.alloc (%n) : memref<?xf32>
    gpu.memset %da, %one : memref<?xf32>, f32
    gpu.memset %db, %two : memref<?xf32>, f32
    %s = gpu.wait async

    // vecadd: c = a + b = 3 every time (a warm-up launch first: it loads the module)
    %w0 = gpu.launch_func async [%s] @kernels::@vecadd blocks in (%blocks, %c1, %c1) threads in (%c256, %c1, %c1)
        args(%da : memref<?xf32>, %db : memref<?xf32>, %dc : memref<?xf32>, %n : index)
    gpu.wait [%w0]
    %s1 = gpu.wait async
    %t0 = func.call @rtclock() : () -> f64
    scf.for %r = %c0 to %reps step %c1 {
      %t = gpu.launch_func async [%s1] @kernels::@vecadd blocks in (%blocks, %c1, %c1) threads in (%c256, %c1, %c1)
          args(%da : memref<?xf32>, %db : memref<?xf32>, %dc : memref<?xf32>, %n : index)
    }
    gpu.wait [%s1]
    %t1 = func.call @rtclock() : () -> f64
    %dv = arith.subf %t1, %t0 : f64
    %vecadd = func.call @gbps(%c3, %n, %reps, %dv) : (index, index, index, f64) -> f64

    // saxpy on b: b = 2 + 0.5 * (1 + reps) after the warm-up and the timed launches
    %s2 = gpu.wait async
    %w1 = gpu.launch_func async [%s2] @kernels::@saxpy blocks in (%blocks, %c1, %c1) threads in (%c256, %c1, %c1)
        args(%alpha : f32, %da : memref<?xf32>, %db : memref<?xf32>, %n : index)
    gpu.wait [%w1]
    %s3 = gpu.wait async
    %t2 = func.call @rtclock() : () -> f64
    scf.for %r = %c0 to %reps step %c1 {
      %t = gpu.launch_func async [%s3] @kernels::@saxpy blocks in (%blocks, %c1, %c1) threads in (%c256, %c1, %c1)
          args(%alpha : f32, %da : memref<?xf32>, %db : memref<?xf32>, %n : index)
    }
    gpu.wait [%s3]
    %t3 = func.call @rtclock() : () -> f64
    %ds = arith.subf %t3, %t2 : f64
    %saxpy = func.call @gbps(%c3, %n, %reps, %ds) : (index, index, index, f64) -> f64

    // device-to-device copy a -> c
    %s4 = gpu.wait async
    %w2 = gpu.memcpy async [%s4] %dc, %da : memref<?xf32>, memref<?xf32>
    gpu.wait [%w2]
    %s5 = gpu.wait async
    %t4 = func.call @rtclock() : () -> f64
    scf.for %r = %c0 to %reps step %c1 {
      %t = gpu.memcpy async [%s5] %dc, %da : memref<?xf32>, memref<?xf32>
    }
    gpu.wait [%s5]
    %t5 = func.call @rtclock() : () -> f64
    %dcp = arith.subf %t5, %t4 : f64
    %copy = func.call @gbps(%c2, %n, %reps, %dcp) : (index, index, index, f64) -> f64

    // check: c = 1 everywhere (the copy of a), b as above
    %hb = memref.alloc(%n) : memref<?xf32>
    %hc = memref.alloc(%n) : memref<?xf32>
    gpu.memcpy %hb, %db : memref<?xf32>, memref<?xf32>
    gpu.memcpy %hc, %dc : memref<?xf32>, memref<?xf32>
    %repsi = arith.index_cast %reps : index to i32
    %repsf = arith.sitofp %repsi : i32 to f32
    %launches = arith.addf %repsf, %one : f32
    %inc = arith.mulf %alpha, %launches : f32
    %want = arith.addf %two, %inc : f32
    %bad = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c0) -> (index) {
      %bv = memref.load %hb[%i] : memref<?xf32>
      %cv = memref.load %hc[%i] : memref<?xf32>
      %okb = arith.cmpf oeq, %bv, %want : f32
      %okc = arith.cmpf oeq, %cv, %one : f32
      %ok = arith.andi %okb, %okc : i1
      %next = arith.addi %acc, %c1 : index
      %r = arith.select %ok, %acc, %next : index
      scf.yield %r : index
    }
    vector.print str "vecadd_gbps "
    vector.print %vecadd : f64
    vector.print str "saxpy_gbps "
    vector.print %saxpy : f64
    vector.print str "copy_gbps "
    vector.print %copy : f64
    %good = arith.cmpi eq, %bad, %c0 : index
    scf.if %good {
      vector.print str "check ok\n"
    } else {
      vector.print str "check FAILED\n"
    }
    gpu.dealloc %da : memref<?xf32>
    gpu.dealloc %db : memref<?xf32>
    gpu.dealloc %dc : memref<?xf32>
    memref.dealloc %hb : memref<?xf32>
    memref.dealloc %hc : memref<?xf32>
    return
  }
}
