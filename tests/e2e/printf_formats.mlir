// gpu.printf with the argument kinds kernels print: i32 (%d, %x, %c), i8
// and i16 widened to i32 first (the NVVM lowering passes them unpromoted,
// which CUDA's vprintf would misread for %d), i64 (%lld), index (%lu), f32
// (promoted to double, as in C varargs) and f64 (%f, %.3e, %g, a width),
// several per call, from one thread and then from each of 3 threads of one
// block in turn (the host backend runs a block's threads in order when they
// do not synchronize).
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @formats() kernel {
      %i8 = arith.constant -7 : i8
      %i16 = arith.constant 300 : i16
      %i32 = arith.constant 255 : i32
      %ch = arith.constant 65 : i32
      %i64 = arith.constant -9000000000 : i64
      %idx = arith.constant 12345 : index
      %f32 = arith.constant 0.75 : f32
      %f64 = arith.constant 6.02214076e23 : f64
      %g = arith.constant 0.0001 : f64
      %w8 = arith.extsi %i8 : i8 to i32
      %w16 = arith.extsi %i16 : i16 to i32
      gpu.printf "ints: %d %d %d %x %c\n", %w8, %w16, %i32, %i32, %ch : i32, i32, i32, i32, i32
      gpu.printf "wide: %lld %lu\n", %i64, %idx : i64, index
      gpu.printf "floats: %f %.3e %g|%8.2f|\n", %f32, %f64, %g, %f32 : f32, f64, f64, f32
      gpu.printf "no arguments, 100%% literal\n"
      gpu.return
    }
    gpu.func @each(%scale: f32) kernel {
      %t = gpu.thread_id x
      %ti = arith.index_cast %t : index to i32
      %tf = arith.sitofp %ti : i32 to f32
      %v = arith.mulf %tf, %scale : f32
      gpu.printf "thread %lu (%d): %.2f\n", %t, %ti, %v : index, i32, f32
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %s = arith.constant 1.25 : f32
    gpu.launch_func @kernels::@formats blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.launch_func @kernels::@each blocks in (%c1, %c1, %c1) threads in (%c3, %c1, %c1)
        args(%s : f32)
    return
  }
}
