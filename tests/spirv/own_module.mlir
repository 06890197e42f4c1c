// A top-level spirv.module beside the gpu.module of the same kernel (own_module.sh).
module attributes {gpu.container_module} {
  spirv.module @__spv__kernels Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
    spirv.func @fill() "None" attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [8, 1, 1]>} {
      spirv.Return
    }
  }
  gpu.module @kernels {
    gpu.func @fill(%out: memref<8xf32>) kernel {
      %t = gpu.thread_id x
      %c = arith.constant 2.5 : f32
      memref.store %c, %out[%t] : memref<8xf32>
      gpu.return
    }
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %dev = gpu.alloc () : memref<8xf32>
    gpu.launch_func @kernels::@fill blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%dev : memref<8xf32>)
    %host = memref.alloc() : memref<8xf32>
    gpu.memcpy %host, %dev : memref<8xf32>, memref<8xf32>
    %u = memref.cast %host : memref<8xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
}
