// MODE: run
// Kernels from separate gpu.modules working on one device buffer in turn:
// @squares writes i*i, @bump adds 1, then a gpu.launch (outlined by gpucc
// into a module of its own) doubles; device memory comes from gpu.alloc
// and goes back to the host with gpu.memcpy. Expected: 2 (i*i + 1).

// CHECK: rank = 1 offset = 0 sizes = [11] strides = [1]
// CHECK-NEXT: [2, 4, 10, 20, 34, 52, 74, 100, 130, 164, 202]

module attributes {gpu.container_module} {
  gpu.module @squares {
    gpu.func @fill(%buf : memref<?xi32>) kernel {
      %i = gpu.thread_id x
      %v = arith.index_cast %i : index to i32
      %sq = arith.muli %v, %v : i32
      memref.store %sq, %buf[%i] : memref<?xi32>
      gpu.return
    }
  }

  gpu.module @bump {
    gpu.func @add_one(%buf : memref<?xi32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %buf[%i] : memref<?xi32>
      %one = arith.constant 1 : i32
      %w = arith.addi %v, %one : i32
      memref.store %w, %buf[%i] : memref<?xi32>
      gpu.return
    }
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %n = arith.constant 11 : index
    %dev = gpu.alloc (%n) : memref<?xi32>
    gpu.launch_func @squares::@fill blocks in (%c1, %c1, %c1) threads in (%n, %c1, %c1)
        args(%dev : memref<?xi32>)
    gpu.launch_func @bump::@add_one blocks in (%c1, %c1, %c1) threads in (%n, %c1, %c1)
        args(%dev : memref<?xi32>)
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %n, %sy = %c1, %sz = %c1) {
      %v = memref.load %dev[%tx] : memref<?xi32>
      %w = arith.addi %v, %v : i32
      memref.store %w, %dev[%tx] : memref<?xi32>
      gpu.terminator
    }
    %host = memref.alloc (%n) : memref<?xi32>
    gpu.memcpy %host, %dev : memref<?xi32>, memref<?xi32>
    gpu.dealloc %dev : memref<?xi32>
    %host_u = memref.cast %host : memref<?xi32> to memref<*xi32>
    call @printMemrefI32(%host_u) : (memref<*xi32>) -> ()
    memref.dealloc %host : memref<?xi32>
    return
  }

  func.func private @printMemrefI32(memref<*xi32>)
}
