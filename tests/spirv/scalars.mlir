// Scalar parameters of every width in the push-constant block, at their
// natural alignment: buffer 0, i8 8, i16 10, f64 16, i32 24 (8- and
// 16-bit push constants need StoragePushConstant8/16). Prints 1304 x 4.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%out: memref<4xi32>, %a: i8, %b: i16, %c: f64, %d: i32) kernel {
      %t = gpu.thread_id x
      %a32 = arith.extsi %a : i8 to i32
      %b32 = arith.extsi %b : i16 to i32
      %s = arith.addi %a32, %b32 : i32
      %cf = arith.fptosi %c : f64 to i32
      %s2 = arith.addi %s, %cf : i32
      %s3 = arith.addi %s2, %d : i32
      memref.store %s3, %out[%t] : memref<4xi32>
      gpu.return
    }
  }
  func.func private @printMemrefI32(memref<*xi32>)
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %a = arith.constant -3 : i8
    %b = arith.constant 300 : i16
    %c = arith.constant 7.9 : f64
    %d = arith.constant 1000 : i32
    %o = gpu.alloc () : memref<4xi32>
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%o : memref<4xi32>, %a : i8, %b : i16, %c : f64, %d : i32)
    %h = memref.alloc() : memref<4xi32>
    gpu.memcpy %h, %o : memref<4xi32>, memref<4xi32>
    %u = memref.cast %h : memref<4xi32> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    return
  }
}
