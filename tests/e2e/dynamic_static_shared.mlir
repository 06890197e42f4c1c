// gpu.dynamic_shared_memory next to a workgroup attribution (static shared
// memory) in one kernel: 32 threads write their id to the static array and
// id + 1000 to the dynamic one, then read both back. Each must keep its own
// values: the dynamic area starts after all static shared memory (it used
// to be laid out among the static variables and overwrote them).
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%o: memref<64xf32>) workgroup(%st: memref<32xf32, #gpu.address_space<workgroup>>) kernel {
      %t = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c32 = arith.constant 32 : index
      %sh = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %dyn = memref.view %sh[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<32xf32, #gpu.address_space<workgroup>>
      %ti = arith.index_cast %t : index to i32
      %f = arith.sitofp %ti : i32 to f32
      %k = arith.constant 1000.0 : f32
      %g = arith.addf %f, %k : f32
      memref.store %f, %st[%t] : memref<32xf32, #gpu.address_space<workgroup>>
      memref.store %g, %dyn[%t] : memref<32xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %a = memref.load %st[%t] : memref<32xf32, #gpu.address_space<workgroup>>
      %b = memref.load %dyn[%t] : memref<32xf32, #gpu.address_space<workgroup>>
      memref.store %a, %o[%t] : memref<64xf32>
      %t2 = arith.addi %t, %c32 : index
      memref.store %b, %o[%t2] : memref<64xf32>
      gpu.return
    }
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %smem = arith.constant 128 : i32
    %h = memref.alloc() : memref<64xf32>
    %d = gpu.alloc () : memref<64xf32>
    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) dynamic_shared_memory_size %smem args(%d : memref<64xf32>)
    gpu.memcpy %h, %d : memref<64xf32>, memref<64xf32>
    %u = memref.cast %h : memref<64xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
}
