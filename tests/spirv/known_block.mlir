// A kernel of known block size (LocalSize 64 1 1, no specialization
// constants) beside one of any size, in one module: out[g] = g * 2 and
// then + block_dim.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @fixed(%out: memref<128xi32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
      %g = gpu.global_id x
      %gi = arith.index_cast %g : index to i32
      %v = arith.addi %gi, %gi : i32
      memref.store %v, %out[%g] : memref<128xi32>
      gpu.return
    }
    gpu.func @any(%out: memref<128xi32>) kernel {
      %g = gpu.global_id x
      %bd = gpu.block_dim x
      %b = arith.index_cast %bd : index to i32
      %v = memref.load %out[%g] : memref<128xi32>
      %w = arith.addi %v, %b : i32
      memref.store %w, %out[%g] : memref<128xi32>
      gpu.return
    }
  }
  gpu.module @fixed_only {
    gpu.func @fixed2(%out: memref<128xi32>) kernel attributes {known_block_size = array<i32: 32, 2, 1>} {
      %x = gpu.thread_id x
      %y = gpu.thread_id y
      %c32 = arith.constant 32 : index
      %r = arith.muli %y, %c32 : index
      %g = arith.addi %r, %x : index
      %v = memref.load %out[%g] : memref<128xi32>
      %one = arith.constant 1 : i32
      %w = arith.addi %v, %one : i32
      memref.store %w, %out[%g] : memref<128xi32>
      gpu.return
    }
  }
  func.func private @printMemrefI32(memref<*xi32>)
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %d = gpu.alloc () : memref<128xi32>
    gpu.launch_func @kernels::@fixed blocks in (%c2, %c1, %c1) threads in (%c64, %c1, %c1) args(%d : memref<128xi32>)
    gpu.launch_func @kernels::@any blocks in (%c4, %c1, %c1) threads in (%c32, %c1, %c1) args(%d : memref<128xi32>)
    gpu.launch_func @fixed_only::@fixed2 blocks in (%c1, %c1, %c1) threads in (%c32, %c2, %c1) args(%d : memref<128xi32>)
    %h = memref.alloc() : memref<128xi32>
    gpu.memcpy %h, %d : memref<128xi32>, memref<128xi32>
    %u = memref.cast %h : memref<128xi32> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    return
  }
}
