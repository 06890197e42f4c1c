// c = alpha * a + b over n elements, with a bound check: buffers and the
// scalars alpha (f32) and n (index) in one push-constant block, at
// offsets 0, 8, 16 (buffers), 24 (f32) and 32 (i64).
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @vadd(%a: memref<?xf32>, %b: memref<?xf32>, %c: memref<?xf32>, %alpha: f32, %n: index) kernel {
      %t = gpu.thread_id x
      %bid = gpu.block_id x
      %bd = gpu.block_dim x
      %base = arith.muli %bid, %bd : index
      %i = arith.addi %base, %t : index
      %ok = arith.cmpi ult, %i, %n : index
      scf.if %ok {
        %x = memref.load %a[%i] : memref<?xf32>
        %y = memref.load %b[%i] : memref<?xf32>
        %ax = arith.mulf %x, %alpha : f32
        %s = arith.addf %ax, %y : f32
        memref.store %s, %c[%i] : memref<?xf32>
      }
      gpu.return
    }
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c16 = arith.constant 16 : index
    %n = arith.constant 20 : index
    %alpha = arith.constant 2.0 : f32
    %ha = memref.alloc(%n) : memref<?xf32>
    %hb = memref.alloc(%n) : memref<?xf32>
    scf.for %i = %c0 to %n step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %ha[%i] : memref<?xf32>
      memref.store %alpha, %hb[%i] : memref<?xf32>
    }
    %da = gpu.alloc (%n) : memref<?xf32>
    %db = gpu.alloc (%n) : memref<?xf32>
    %dc = gpu.alloc (%n) : memref<?xf32>
    gpu.memcpy %da, %ha : memref<?xf32>, memref<?xf32>
    gpu.memcpy %db, %hb : memref<?xf32>, memref<?xf32>
    gpu.launch_func @kernels::@vadd blocks in (%c2, %c1, %c1) threads in (%c16, %c1, %c1)
        args(%da : memref<?xf32>, %db : memref<?xf32>, %dc : memref<?xf32>, %alpha : f32, %n : index)
    gpu.memcpy %ha, %dc : memref<?xf32>, memref<?xf32>
    %u = memref.cast %ha : memref<?xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
}
