// A device function that waits at barriers and calls itself: it cannot be
// inlined into the kernel, so the host target keeps that kernel's threads
// on fibers (gpucc -v says why) instead of splitting it into regions. 1
// block of 4 threads; @rec(n, acc) stores acc to workgroup memory, waits,
// adds the value of thread 3 - t and recurses n times:
//   acc0 = t; acc1 = t + (3 - t) = 3; acc2 = 3 + 3 = 6 for every thread
module attributes {gpu.container_module} {
  gpu.module @kernels {
    memref.global "private" @tile : memref<4xi32, #gpu.address_space<workgroup>>
    func.func @rec(%n: index, %acc: i32) -> i32 {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
      %tile = memref.get_global @tile : memref<4xi32, #gpu.address_space<workgroup>>
      %t = gpu.thread_id x
      %z = arith.cmpi eq, %n, %c0 : index
      %r = scf.if %z -> i32 {
        scf.yield %acc : i32
      } else {
        memref.store %acc, %tile[%t] : memref<4xi32, #gpu.address_space<workgroup>>
        gpu.barrier
        %o = arith.subi %c3, %t : index
        %w = memref.load %tile[%o] : memref<4xi32, #gpu.address_space<workgroup>>
        gpu.barrier
        %a = arith.addi %w, %acc : i32
        %m = arith.subi %n, %c1 : index
        %q = func.call @rec(%m, %a) : (index, i32) -> i32
        scf.yield %q : i32
      }
      return %r : i32
    }
    gpu.func @run(%out: memref<4xi32>) kernel {
      %c2 = arith.constant 2 : index
      %t = gpu.thread_id x
      %ti = arith.index_cast %t : index to i32
      %r = func.call @rec(%c2, %ti) : (index, i32) -> i32
      memref.store %r, %out[%t] : memref<4xi32>
      gpu.return
    }
  }
  func.func private @printMemrefI32(memref<*xi32>)
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %d = gpu.alloc () : memref<4xi32>
    gpu.launch_func @kernels::@run blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%d : memref<4xi32>)
    %h = memref.alloc() : memref<4xi32>
    gpu.memcpy %h, %d : memref<4xi32>, memref<4xi32>
    %u = memref.cast %h : memref<4xi32> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    gpu.dealloc %d : memref<4xi32>
    memref.dealloc %h : memref<4xi32>
    return
  }
}
