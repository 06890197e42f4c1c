// The other ways programs move data: gpu.host_register of host buffers that
// kernels then use directly (as upstream's CUDA tests do), gpu.alloc
// host_shared memory read on the host after the launch, device-to-device
// gpu.memcpy, gpu.memset of i16 and f16, and an async inline gpu.launch
// with dynamic workgroup memory ordered by tokens.
//   registered: r[i] = i, kernel adds 100 in place    -> 100 .. 107
//   shared:     kernel writes 2 i + 1                   -> 1, 3, .. 15
//   d2d:        copy of the registered buffer, times -1 -> -100 .. -107
//   memset:     i16 buffer = 7, f16 buffer = 2.5, kernel sums both into
//               f32: 9.5 each
//   async:      reverse of 0 .. 7 through dynamic workgroup memory
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @add100(%m: memref<8xf32>) kernel {
      %t = gpu.thread_id x
      %c = arith.constant 100.0 : f32
      %v = memref.load %m[%t] : memref<8xf32>
      %r = arith.addf %v, %c : f32
      memref.store %r, %m[%t] : memref<8xf32>
      gpu.return
    }
    gpu.func @odd(%m: memref<8xf32>) kernel {
      %t = gpu.thread_id x
      %ti = arith.index_cast %t : index to i32
      %f = arith.sitofp %ti : i32 to f32
      %one = arith.constant 1.0 : f32
      %d = arith.addf %f, %f : f32
      %r = arith.addf %d, %one : f32
      memref.store %r, %m[%t] : memref<8xf32>
      gpu.return
    }
    gpu.func @negate(%m: memref<8xf32>) kernel {
      %t = gpu.thread_id x
      %v = memref.load %m[%t] : memref<8xf32>
      %r = arith.negf %v : f32
      memref.store %r, %m[%t] : memref<8xf32>
      gpu.return
    }
    gpu.func @mix(%a: memref<8xi16>, %b: memref<8xf16>, %out: memref<8xf32>) kernel {
      %t = gpu.thread_id x
      %x = memref.load %a[%t] : memref<8xi16>
      %y = memref.load %b[%t] : memref<8xf16>
      %xf = arith.sitofp %x : i16 to f32
      %yf = arith.extf %y : f16 to f32
      %s = arith.addf %xf, %yf : f32
      memref.store %s, %out[%t] : memref<8xf32>
      gpu.return
    }
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : i32
    %r = memref.alloc() : memref<8xf32>
    scf.for %i = %c0 to %c8 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %r[%i] : memref<8xf32>
    }
    %ur = memref.cast %r : memref<8xf32> to memref<*xf32>
    gpu.host_register %ur : memref<*xf32>
    gpu.launch_func @kernels::@add100 blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1)
        args(%r : memref<8xf32>)
    call @printMemrefF32(%ur) : (memref<*xf32>) -> ()

    %sh = gpu.alloc host_shared () : memref<8xf32>
    %t0 = gpu.wait async
    %t1 = gpu.launch_func async [%t0] @kernels::@odd blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1)
        args(%sh : memref<8xf32>)
    gpu.wait [%t1]
    %ush = memref.cast %sh : memref<8xf32> to memref<*xf32>
    call @printMemrefF32(%ush) : (memref<*xf32>) -> ()

    %d = gpu.alloc () : memref<8xf32>
    gpu.memcpy %d, %r : memref<8xf32>, memref<8xf32>
    %e = gpu.alloc () : memref<8xf32>
    gpu.memcpy %e, %d : memref<8xf32>, memref<8xf32>
    gpu.launch_func @kernels::@negate blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1)
        args(%e : memref<8xf32>)
    %h = memref.alloc() : memref<8xf32>
    gpu.memcpy %h, %e : memref<8xf32>, memref<8xf32>
    %uh = memref.cast %h : memref<8xf32> to memref<*xf32>
    call @printMemrefF32(%uh) : (memref<*xf32>) -> ()
    gpu.host_unregister %ur : memref<*xf32>

    %a16 = gpu.alloc () : memref<8xi16>
    %b16 = gpu.alloc () : memref<8xf16>
    %seven = arith.constant 7 : i16
    %twohalf = arith.constant 2.5 : f16
    gpu.memset %a16, %seven : memref<8xi16>, i16
    gpu.memset %b16, %twohalf : memref<8xf16>, f16
    gpu.launch_func @kernels::@mix blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1)
        args(%a16 : memref<8xi16>, %b16 : memref<8xf16>, %d : memref<8xf32>)
    gpu.memcpy %h, %d : memref<8xf32>, memref<8xf32>
    call @printMemrefF32(%uh) : (memref<*xf32>) -> ()

    %w0 = gpu.wait async
    %w1 = gpu.memcpy async [%w0] %d, %r : memref<8xf32>, memref<8xf32>
    %w2 = gpu.launch async [%w1] blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1)
               dynamic_shared_memory_size %c32 {
      %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %k0 = arith.constant 0 : index
      %tile = memref.view %dyn[%k0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<8xf32, #gpu.address_space<workgroup>>
      %v = memref.load %d[%tx] : memref<8xf32>
      %hundred = arith.constant 100.0 : f32
      %v0 = arith.subf %v, %hundred : f32
      memref.store %v0, %tile[%tx] : memref<8xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %k7 = arith.constant 7 : index
      %o = arith.subi %k7, %tx : index
      %w = memref.load %tile[%o] : memref<8xf32, #gpu.address_space<workgroup>>
      memref.store %w, %d[%tx] : memref<8xf32>
      gpu.terminator
    }
    %w3 = gpu.memcpy async [%w2] %h, %d : memref<8xf32>, memref<8xf32>
    gpu.wait [%w3]
    call @printMemrefF32(%uh) : (memref<*xf32>) -> ()
    gpu.dealloc %sh : memref<8xf32>
    gpu.dealloc %d : memref<8xf32>
    gpu.dealloc %e : memref<8xf32>
    gpu.dealloc %a16 : memref<8xi16>
    gpu.dealloc %b16 : memref<8xf16>
    return
  }
}
