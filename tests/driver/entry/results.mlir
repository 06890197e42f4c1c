// Entry functions of each kind mlir-runner runs (-e NAME
// --entry-point-result=...), a kernel launched from one, and a main that -e
// leaves unused.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @twice(%m: memref<1xi32>) kernel {
      %c0 = arith.constant 0 : index
      %v = memref.load %m[%c0] : memref<1xi32>
      %w = arith.addi %v, %v : i32
      memref.store %w, %m[%c0] : memref<1xi32>
      gpu.return
    }
  }
  func.func @entry_i32() -> i32 {
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : index
    %m = gpu.alloc () : memref<1xi32>
    %v = arith.constant 21 : i32
    %h = memref.alloc () : memref<1xi32>
    memref.store %v, %h[%c0] : memref<1xi32>
    gpu.memcpy %m, %h : memref<1xi32>, memref<1xi32>
    gpu.launch_func @kernels::@twice blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%m : memref<1xi32>)
    gpu.memcpy %h, %m : memref<1xi32>, memref<1xi32>
    %r = memref.load %h[%c0] : memref<1xi32>
    return %r : i32
  }
  func.func @entry_i64() -> i64 {
    %c = arith.constant -7000000000 : i64
    return %c : i64
  }
  func.func @entry_f32() -> f32 {
    %c = arith.constant 3.25 : f32
    return %c : f32
  }
  func.func @entry_void() {
    %c = arith.constant 5 : i32
    vector.print %c : i32
    return
  }
  func.func @entry_args(%x: i32) -> i32 {
    return %x : i32
  }
  func.func @entry_f64() -> f64 {
    %c = arith.constant 1.0 : f64
    return %c : f64
  }
  func.func @main() -> i32 {
    %c = arith.constant 99 : i32
    return %c : i32
  }
}
