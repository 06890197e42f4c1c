// A function declared in device code under a name no object can carry:
// renaming it would bind it to nothing, so it is an error at the
// declaration (line 6), on every target, before any job runs.
module attributes {gpu.container_module} {
  gpu.module @"ext mod" {
    func.func private @"my ext"(f32) -> f32
    gpu.func @"k k"(%a: memref<4xf32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %a[%i] : memref<4xf32>
      %w = func.call @"my ext"(%v) : (f32) -> f32
      memref.store %w, %a[%i] : memref<4xf32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %m = gpu.alloc () : memref<4xf32>
    gpu.launch_func @"ext mod"::@"k k" blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%m : memref<4xf32>)
    return
  }
}
