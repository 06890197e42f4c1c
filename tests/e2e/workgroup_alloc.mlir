// Shared memory from memref.alloc in the workgroup address space, as buffer
// promotion emits it: one buffer per block, like a workgroup attribution
// (LLVM's lowering made it a malloc per thread: garbage on every target).
//   @rev: a kernel that already has a workgroup and a private attribution
//     allocs a 64-float buffer (and deallocs it), writes t, reads 63 - t,
//     and adds what its own attribution holds (100): 163 - t
//   the gpu.launch body (outlined into a kernel) allocs 8 floats: thread t
//     writes 2 t, reads its neighbour's (t + 1) mod 8: 2 ((t + 1) mod 8)
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @rev(%out: memref<64xf32>) workgroup(%w: memref<1xf32, #gpu.address_space<workgroup>>)
        private(%p: memref<1xf32, #gpu.address_space<private>>) kernel {
      %t = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c63 = arith.constant 63 : index
      %hundred = arith.constant 100.0 : f32
      %sh = memref.alloc() : memref<64xf32, #gpu.address_space<workgroup>>
      %is0 = arith.cmpi eq, %t, %c0 : index
      scf.if %is0 {
        memref.store %hundred, %w[%c0] : memref<1xf32, #gpu.address_space<workgroup>>
      }
      %ti = arith.index_cast %t : index to i32
      %f = arith.sitofp %ti : i32 to f32
      memref.store %f, %sh[%t] : memref<64xf32, #gpu.address_space<workgroup>>
      memref.store %f, %p[%c0] : memref<1xf32, #gpu.address_space<private>>
      gpu.barrier
      %r = arith.subi %c63, %t : index
      %v = memref.load %sh[%r] : memref<64xf32, #gpu.address_space<workgroup>>
      %h = memref.load %w[%c0] : memref<1xf32, #gpu.address_space<workgroup>>
      %s = arith.addf %v, %h : f32
      memref.store %s, %out[%t] : memref<64xf32>
      memref.dealloc %sh : memref<64xf32, #gpu.address_space<workgroup>>
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    %d = gpu.alloc () : memref<64xf32>
    gpu.launch_func @k::@rev blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%d : memref<64xf32>)
    %h = memref.alloc() : memref<64xf32>
    gpu.memcpy %h, %d : memref<64xf32>, memref<64xf32>
    %pad = arith.constant 0.0 : f32
    %first = vector.transfer_read %h[%c0], %pad : memref<64xf32>, vector<4xf32>
    vector.print %first : vector<4xf32>
    %e = gpu.alloc () : memref<8xf32>
    gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1)
               threads(%tx, %ty, %tz) in (%q = %c8, %r = %c1, %s = %c1) {
      %sh = memref.alloc() : memref<8xf32, #gpu.address_space<workgroup>>
      %ti = arith.index_cast %tx : index to i32
      %f = arith.sitofp %ti : i32 to f32
      %two = arith.addf %f, %f : f32
      memref.store %two, %sh[%tx] : memref<8xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %one = arith.constant 1 : index
      %n = arith.addi %tx, %one : index
      %eight = arith.constant 8 : index
      %m = arith.remui %n, %eight : index
      %v = memref.load %sh[%m] : memref<8xf32, #gpu.address_space<workgroup>>
      memref.store %v, %e[%tx] : memref<8xf32>
      gpu.terminator
    }
    %he = memref.alloc() : memref<8xf32>
    gpu.memcpy %he, %e : memref<8xf32>, memref<8xf32>
    %all = vector.transfer_read %he[%c0], %pad : memref<8xf32>, vector<8xf32>
    vector.print %all : vector<8xf32>
    return
  }
}
