// Device functions renamed with their calls: @"my helper" and
// @"__gpucc__k_20k", which is what the kernel @"k k" becomes, in the same
// gpu.module; the kernel is launched from two host functions. Prints
// out[3] = f(helper(4)) = 8, where helper(x) = 2x and f(x) = helper(x / 2).
module attributes {gpu.container_module} {
  gpu.module @"h mod" {
    memref.global "private" constant @"g t" : memref<4xf32> = dense<[1.0, 2.0, 3.0, 4.0]>
    func.func @"my helper"(%x: f32) -> f32 {
      %y = arith.addf %x, %x : f32
      return %y : f32
    }
    func.func @"__gpucc__k_20k"(%x: f32) -> f32 {
      %h = arith.constant 0.5 : f32
      %y = arith.mulf %x, %h : f32
      %z = func.call @"my helper"(%y) : (f32) -> f32
      return %z : f32
    }
    gpu.func @"k k"(%a: memref<4xf32>) kernel {
      %i = gpu.thread_id x
      %g = memref.get_global @"g t" : memref<4xf32>
      %v = memref.load %g[%i] : memref<4xf32>
      %w = func.call @"my helper"(%v) : (f32) -> f32
      %u = func.call @"__gpucc__k_20k"(%w) : (f32) -> f32
      memref.store %u, %a[%i] : memref<4xf32>
      gpu.return
    }
  }
  func.func @launch(%m: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    gpu.launch_func @"h mod"::@"k k" blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%m : memref<4xf32>)
    return
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %m = gpu.alloc () : memref<4xf32>
    %h = memref.alloc () : memref<4xf32>
    gpu.launch_func @"h mod"::@"k k" blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%m : memref<4xf32>)
    call @launch(%m) : (memref<4xf32>) -> ()
    gpu.memcpy %h, %m : memref<4xf32>, memref<4xf32>
    %c3 = arith.constant 3 : index
    %x = memref.load %h[%c3] : memref<4xf32>
    vector.print %x : f32
    return
  }
}
