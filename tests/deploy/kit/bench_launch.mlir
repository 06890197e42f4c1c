// GPU check kit benchmark: the cost of launching an empty kernel through
// gpucc's runtime (mgpuLaunchKernel). Two figures, each an average:
//   launch_us       @REPS@ launches queued on one stream, then one wait:
//                   what the host pays per launch (the GPU keeps up);
//   launch_sync_us  @SYNC_REPS@ synchronous launches (gpu.launch_func
//                   without async: a stream, the launch, a wait): the round
//                   trip a program written synchronously pays.
// bench_launch.cu does the same with cudaLaunchKernel. @REPS@ and
// @SYNC_REPS@ are filled in by scripts/gpu-kit.sh. Also prints "check ok"
// (there is nothing to check: the empty kernel must only not fail).
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @empty() kernel {
      gpu.return
    }
  }
  func.func private @rtclock() -> f64

  func.func @per_launch_us(%dt: f64, %reps: index) -> f64 {
    %ri = arith.index_cast %reps : index to i64
    %rf = arith.sitofp %ri : i64 to f64
    %mega = arith.constant 1.0e6 : f64
    %us = arith.mulf %dt, %mega : f64
    %r = arith.divf %us, %rf : f64
    return %r : f64
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %reps = arith.constant @REPS@ : index
    %sync_reps = arith.constant @SYNC_REPS@ : index
    // warm-up: loads the module
    gpu.launch_func @kernels::@empty blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    %s = gpu.wait async
    %t0 = func.call @rtclock() : () -> f64
    scf.for %r = %c0 to %reps step %c1 {
      %t = gpu.launch_func async [%s] @kernels::@empty blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    }
    gpu.wait [%s]
    %t1 = func.call @rtclock() : () -> f64
    scf.for %r = %c0 to %sync_reps step %c1 {
      gpu.launch_func @kernels::@empty blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    }
    %t2 = func.call @rtclock() : () -> f64
    %d0 = arith.subf %t1, %t0 : f64
    %d1 = arith.subf %t2, %t1 : f64
    %q = func.call @per_launch_us(%d0, %reps) : (f64, index) -> f64
    %y = func.call @per_launch_us(%d1, %sync_reps) : (f64, index) -> f64
    vector.print str "launch_us "
    vector.print %q : f64
    vector.print str "launch_sync_us "
    vector.print %y : f64
    vector.print str "check ok\n"
    return
  }
}
