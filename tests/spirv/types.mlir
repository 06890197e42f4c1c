// Loads and stores of i8, f16 and f64 through buffer device addresses:
// b8[i] = a8[i] + 3, h[i] = h[i] * 2, d[i] = d[i] + 0.5, for 8 elements.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @widths(%a8: memref<8xi8>, %b8: memref<8xi8>, %h: memref<8xf16>, %d: memref<8xf64>) kernel {
      %t = gpu.thread_id x
      %x = memref.load %a8[%t] : memref<8xi8>
      %c3 = arith.constant 3 : i8
      %y = arith.addi %x, %c3 : i8
      memref.store %y, %b8[%t] : memref<8xi8>
      %hv = memref.load %h[%t] : memref<8xf16>
      %two = arith.constant 2.0 : f16
      %hw = arith.mulf %hv, %two : f16
      memref.store %hw, %h[%t] : memref<8xf16>
      %dv = memref.load %d[%t] : memref<8xf64>
      %half = arith.constant 0.5 : f64
      %dw = arith.addf %dv, %half : f64
      memref.store %dw, %d[%t] : memref<8xf64>
      gpu.return
    }
  }
  func.func private @printMemrefI32(memref<*xi32>)
  func.func private @printMemrefF32(memref<*xf32>)
  func.func private @printMemrefF64(memref<*xf64>)
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %ha8 = memref.alloc() : memref<8xi8>
    %hh = memref.alloc() : memref<8xf16>
    %hd = memref.alloc() : memref<8xf64>
    scf.for %i = %c0 to %c8 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %i8 = arith.trunci %ii : i32 to i8
      memref.store %i8, %ha8[%i] : memref<8xi8>
      %f = arith.sitofp %ii : i32 to f16
      memref.store %f, %hh[%i] : memref<8xf16>
      %g = arith.sitofp %ii : i32 to f64
      memref.store %g, %hd[%i] : memref<8xf64>
    }
    %da8 = gpu.alloc () : memref<8xi8>
    %db8 = gpu.alloc () : memref<8xi8>
    %dh = gpu.alloc () : memref<8xf16>
    %dd = gpu.alloc () : memref<8xf64>
    gpu.memcpy %da8, %ha8 : memref<8xi8>, memref<8xi8>
    gpu.memcpy %dh, %hh : memref<8xf16>, memref<8xf16>
    gpu.memcpy %dd, %hd : memref<8xf64>, memref<8xf64>
    gpu.launch_func @kernels::@widths blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1)
        args(%da8 : memref<8xi8>, %db8 : memref<8xi8>, %dh : memref<8xf16>, %dd : memref<8xf64>)
    gpu.memcpy %ha8, %db8 : memref<8xi8>, memref<8xi8>
    gpu.memcpy %hh, %dh : memref<8xf16>, memref<8xf16>
    gpu.memcpy %hd, %dd : memref<8xf64>, memref<8xf64>
    %wide = memref.alloc() : memref<8xi32>
    %wf = memref.alloc() : memref<8xf32>
    scf.for %i = %c0 to %c8 step %c1 {
      %v = memref.load %ha8[%i] : memref<8xi8>
      %w = arith.extsi %v : i8 to i32
      memref.store %w, %wide[%i] : memref<8xi32>
      %hv = memref.load %hh[%i] : memref<8xf16>
      %hw = arith.extf %hv : f16 to f32
      memref.store %hw, %wf[%i] : memref<8xf32>
    }
    %u = memref.cast %wide : memref<8xi32> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    %uf = memref.cast %wf : memref<8xf32> to memref<*xf32>
    call @printMemrefF32(%uf) : (memref<*xf32>) -> ()
    %ud = memref.cast %hd : memref<8xf64> to memref<*xf64>
    call @printMemrefF64(%ud) : (memref<*xf64>) -> ()
    return
  }
}
