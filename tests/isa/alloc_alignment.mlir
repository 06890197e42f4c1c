// A buffer straight from gpu.alloc is 256-byte aligned on every backend,
// so a kernel every launch of which passes such buffers may use 16-byte
// accesses where its offsets keep that alignment (vector<4xf32> at 4 * the
// thread id): one ld/st.global.v4 each, as nvcc's float4 (ld.global.nc.v4
// in @copy4, whose two buffers are distinct allocations: noalias). @other is also
// launched with a value that is not gpu.alloc's own result (a cast: gpucc
// does not look through anything), so nothing is assumed there: four 4-byte
// loads and stores.
// TARGETS: sm_90
// A memref.alloc that asks for 64-byte alignment gives @host64 the same
// (the host target runs kernels on such buffers); one that asks nothing
// gives @host4 nothing.
// PTX: m sm_90 3 ld\.global(\.nc)?\.v4\.b32
// PTX: m sm_90 3 st\.global\.v4\.b32
// PTX: m sm_90 8 ld\.global\.b32
// PTX: m sm_90 8 st\.global\.b32
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @copy4(%a: memref<?xf32>, %o: memref<?xf32>) kernel {
      %t = gpu.thread_id x
      %c4 = arith.constant 4 : index
      %i = arith.muli %t, %c4 : index
      %v = vector.load %a[%i] : memref<?xf32>, vector<4xf32>
      vector.store %v, %o[%i] : memref<?xf32>, vector<4xf32>
      gpu.return
    }
    gpu.func @scale4(%a: memref<?xf32>) kernel {
      %t = gpu.thread_id x
      %c4 = arith.constant 4 : index
      %i = arith.muli %t, %c4 : index
      %v = vector.load %a[%i] : memref<?xf32>, vector<4xf32>
      %w = arith.addf %v, %v : vector<4xf32>
      vector.store %w, %a[%i] : memref<?xf32>, vector<4xf32>
      gpu.return
    }
    gpu.func @other(%a: memref<?xf32>) kernel {
      %t = gpu.thread_id x
      %c4 = arith.constant 4 : index
      %i = arith.muli %t, %c4 : index
      %v = vector.load %a[%i] : memref<?xf32>, vector<4xf32>
      %w = arith.addf %v, %v : vector<4xf32>
      vector.store %w, %a[%i] : memref<?xf32>, vector<4xf32>
      gpu.return
    }
    gpu.func @host64(%a: memref<?xf32>) kernel {
      %t = gpu.thread_id x
      %c4 = arith.constant 4 : index
      %i = arith.muli %t, %c4 : index
      %v = vector.load %a[%i] : memref<?xf32>, vector<4xf32>
      %w = arith.addf %v, %v : vector<4xf32>
      vector.store %w, %a[%i] : memref<?xf32>, vector<4xf32>
      gpu.return
    }
    gpu.func @host4(%a: memref<?xf32>) kernel {
      %t = gpu.thread_id x
      %c4 = arith.constant 4 : index
      %i = arith.muli %t, %c4 : index
      %v = vector.load %a[%i] : memref<?xf32>, vector<4xf32>
      %w = arith.addf %v, %v : vector<4xf32>
      vector.store %w, %a[%i] : memref<?xf32>, vector<4xf32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c256 = arith.constant 256 : index
    %a = gpu.alloc (%c256) : memref<?xf32>
    %o = gpu.alloc (%c256) : memref<?xf32>
    gpu.launch_func @m::@copy4 blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%a : memref<?xf32>, %o : memref<?xf32>)
    gpu.launch_func @m::@scale4 blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%o : memref<?xf32>)
    %st = gpu.alloc () : memref<256xf32>
    %c = memref.cast %st : memref<256xf32> to memref<?xf32>
    gpu.launch_func @m::@other blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%a : memref<?xf32>)
    gpu.launch_func @m::@other blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%c : memref<?xf32>)
    gpu.dealloc %st : memref<256xf32>
    %h64 = memref.alloc(%c256) {alignment = 64} : memref<?xf32>
    %h4 = memref.alloc(%c256) : memref<?xf32>
    gpu.launch_func @m::@host64 blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%h64 : memref<?xf32>)
    gpu.launch_func @m::@host4 blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%h4 : memref<?xf32>)
    memref.dealloc %h64 : memref<?xf32>
    memref.dealloc %h4 : memref<?xf32>
    gpu.dealloc %a : memref<?xf32>
    gpu.dealloc %o : memref<?xf32>
    return
  }
}
