// Vector memory ops inside a kernel, as vectorized linalg code lowers to:
// vector.load/store, vector.transfer_read past the end of a buffer with a
// padding value, a masked vector.transfer_write, vector.maskedload with a
// pass-through value, and vector.reduction. Thread t (of 4) works on row t:
//   in[i] = i for i < 10
//   v = in[2t .. 2t+3]                         (vector.load)
//   w = in[3t .. 3t+3], -1 past the end        (transfer_read, padding)
//   sum[t] = v + w                             (vector.store)
//   part[t] = first t+1 lanes of v + w, others keep the memset -9
//   tail[t] = in[6 .. 9] with lanes >= 4-t replaced by 100 (maskedload)
//   red[t] = sum of the lanes of v + w         (vector.reduction)
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @rows(%in: memref<10xf32>, %sum: memref<4x4xf32>, %part: memref<4x4xf32>,
                   %tail: memref<4x4xf32>, %red: memref<4xf32>) kernel {
      %t = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %c6 = arith.constant 6 : index
      %c1 = arith.constant 1 : index
      %pad = arith.constant -1.0 : f32
      %i2 = arith.muli %t, %c2 : index
      %v = vector.load %in[%i2] : memref<10xf32>, vector<4xf32>
      %i3 = arith.muli %t, %c3 : index
      %w = vector.transfer_read %in[%i3], %pad : memref<10xf32>, vector<4xf32>
      %s = arith.addf %v, %w : vector<4xf32>
      vector.store %s, %sum[%t, %c0] : memref<4x4xf32>, vector<4xf32>
      %n = arith.addi %t, %c1 : index
      %mask = vector.create_mask %n : vector<4xi1>
      vector.transfer_write %s, %part[%t, %c0], %mask {in_bounds = [true]} : vector<4xf32>, memref<4x4xf32>
      %k = arith.subi %c4, %t : index
      %m2 = vector.create_mask %k : vector<4xi1>
      %hundred = arith.constant dense<100.0> : vector<4xf32>
      %l = vector.maskedload %in[%c6], %m2, %hundred : memref<10xf32>, vector<4xi1>, vector<4xf32> into vector<4xf32>
      vector.store %l, %tail[%t, %c0] : memref<4x4xf32>, vector<4xf32>
      %r = vector.reduction <add>, %s : vector<4xf32> into f32
      memref.store %r, %red[%t] : memref<4xf32>
      gpu.return
    }
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c10 = arith.constant 10 : index
    %m9 = arith.constant -9.0 : f32
    %hin = memref.alloc() : memref<10xf32>
    scf.for %i = %c0 to %c10 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %hin[%i] : memref<10xf32>
    }
    %in = gpu.alloc () : memref<10xf32>
    gpu.memcpy %in, %hin : memref<10xf32>, memref<10xf32>
    %sum = gpu.alloc () : memref<4x4xf32>
    %part = gpu.alloc () : memref<4x4xf32>
    gpu.memset %part, %m9 : memref<4x4xf32>, f32
    %tail = gpu.alloc () : memref<4x4xf32>
    %red = gpu.alloc () : memref<4xf32>
    gpu.launch_func @kernels::@rows blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1)
        args(%in : memref<10xf32>, %sum : memref<4x4xf32>, %part : memref<4x4xf32>,
             %tail : memref<4x4xf32>, %red : memref<4xf32>)
    %h = memref.alloc() : memref<4x4xf32>
    %hr = memref.alloc() : memref<4xf32>
    %u = memref.cast %h : memref<4x4xf32> to memref<*xf32>
    gpu.memcpy %h, %sum : memref<4x4xf32>, memref<4x4xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    gpu.memcpy %h, %part : memref<4x4xf32>, memref<4x4xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    gpu.memcpy %h, %tail : memref<4x4xf32>, memref<4x4xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    gpu.memcpy %hr, %red : memref<4xf32>, memref<4xf32>
    %ur = memref.cast %hr : memref<4xf32> to memref<*xf32>
    call @printMemrefF32(%ur) : (memref<*xf32>) -> ()
    gpu.dealloc %in : memref<10xf32>
    gpu.dealloc %sum : memref<4x4xf32>
    gpu.dealloc %part : memref<4x4xf32>
    gpu.dealloc %tail : memref<4x4xf32>
    gpu.dealloc %red : memref<4xf32>
    memref.dealloc %hin : memref<10xf32>
    memref.dealloc %h : memref<4x4xf32>
    memref.dealloc %hr : memref<4xf32>
    return
  }
}
