// Extended multiplication, as upstream's Vulkan integration tests
// (umul_extended, smul_extended): the low and high halves of the 64-bit
// products of 32-bit operands, unsigned and signed.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @mul(%a: memref<4xi32>, %b: memref<4xi32>, %ulo: memref<4xi32>, %uhi: memref<4xi32>,
                  %slo: memref<4xi32>, %shi: memref<4xi32>) kernel {
      %t = gpu.thread_id x
      %x = memref.load %a[%t] : memref<4xi32>
      %y = memref.load %b[%t] : memref<4xi32>
      %ul, %uh = arith.mului_extended %x, %y : i32
      %sl, %sh = arith.mulsi_extended %x, %y : i32
      memref.store %ul, %ulo[%t] : memref<4xi32>
      memref.store %uh, %uhi[%t] : memref<4xi32>
      memref.store %sl, %slo[%t] : memref<4xi32>
      memref.store %sh, %shi[%t] : memref<4xi32>
      gpu.return
    }
  }
  func.func private @printMemrefI32(memref<*xi32>)
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %ha = memref.alloc() : memref<4xi32>
    %hb = memref.alloc() : memref<4xi32>
    %v0 = arith.constant 5 : i32
    %v1 = arith.constant -7 : i32
    %v2 = arith.constant 2147483647 : i32
    %v3 = arith.constant -2147483648 : i32
    %w0 = arith.constant 3 : i32
    %w1 = arith.constant 9 : i32
    %w2 = arith.constant 2147483647 : i32
    %w3 = arith.constant -1 : i32
    memref.store %v0, %ha[%c0] : memref<4xi32>
    memref.store %v1, %ha[%c1] : memref<4xi32>
    memref.store %v2, %ha[%c2] : memref<4xi32>
    memref.store %v3, %ha[%c3] : memref<4xi32>
    memref.store %w0, %hb[%c0] : memref<4xi32>
    memref.store %w1, %hb[%c1] : memref<4xi32>
    memref.store %w2, %hb[%c2] : memref<4xi32>
    memref.store %w3, %hb[%c3] : memref<4xi32>
    %da = gpu.alloc () : memref<4xi32>
    %db = gpu.alloc () : memref<4xi32>
    %d0 = gpu.alloc () : memref<4xi32>
    %d1 = gpu.alloc () : memref<4xi32>
    %d2 = gpu.alloc () : memref<4xi32>
    %d3 = gpu.alloc () : memref<4xi32>
    gpu.memcpy %da, %ha : memref<4xi32>, memref<4xi32>
    gpu.memcpy %db, %hb : memref<4xi32>, memref<4xi32>
    gpu.launch_func @kernels::@mul blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1)
        args(%da : memref<4xi32>, %db : memref<4xi32>, %d0 : memref<4xi32>, %d1 : memref<4xi32>,
             %d2 : memref<4xi32>, %d3 : memref<4xi32>)
    %h = memref.alloc() : memref<4xi32>
    %u = memref.cast %h : memref<4xi32> to memref<*xi32>
    gpu.memcpy %h, %d0 : memref<4xi32>, memref<4xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    gpu.memcpy %h, %d1 : memref<4xi32>, memref<4xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    gpu.memcpy %h, %d2 : memref<4xi32>, memref<4xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    gpu.memcpy %h, %d3 : memref<4xi32>, memref<4xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    return
  }
}
