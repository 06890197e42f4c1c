// f16 arithmetic and math.exp / math.sqrt / math.tanh on the device.
// out[i] = f32(f16(i) * f16(0.5)) + exp(0) + sqrt(4) + tanh(0) = i/2 + 3.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @compute(%out: memref<16xf32>) kernel {
      %t = gpu.thread_id x
      %ti = arith.index_cast %t : index to i32
      %h = arith.sitofp %ti : i32 to f16
      %half = arith.constant 0.5 : f16
      %hp = arith.mulf %h, %half : f16
      %f = arith.extf %hp : f16 to f32
      %zero = arith.constant 0.0 : f32
      %four = arith.constant 4.0 : f32
      %z = arith.mulf %f, %zero : f32
      %e = math.exp %z : f32
      %s = math.sqrt %four : f32
      %th = math.tanh %z : f32
      %a = arith.addf %f, %e : f32
      %b = arith.addf %a, %s : f32
      %c = arith.addf %b, %th : f32
      memref.store %c, %out[%t] : memref<16xf32>
      gpu.return
    }
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %host = memref.alloc() : memref<16xf32>
    %dev = gpu.alloc () : memref<16xf32>
    gpu.launch_func @kernels::@compute blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%dev : memref<16xf32>)
    gpu.memcpy %host, %dev : memref<16xf32>, memref<16xf32>
    gpu.dealloc %dev : memref<16xf32>
    %u = memref.cast %host : memref<16xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
}
