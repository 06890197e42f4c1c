// MODE: run
// Upstream's ROCm programs get device views of host-registered memrefs
// from the runtime helpers mgpuMemGetDeviceMemRef1dFloat and
// mgpuMemGetDeviceMemRef1dInt32 and pass those to kernels. Here: y = a x + y
// on 7 floats (x = i, y = 10 - i, a = 1.5), and an i32 buffer each thread
// marks with its index plus 40, all through the device views; the host
// prints its own (registered) memrefs.

// CHECK: rank = 1 offset = 0 sizes = [7] strides = [1]
// CHECK-NEXT: [10, 10.5, 11, 11.5, 12, 12.5, 13]
// CHECK: rank = 1 offset = 0 sizes = [7] strides = [1]
// CHECK-NEXT: [40, 41, 42, 43, 44, 45, 46]

func.func @saxpy(%a : f32, %x : memref<?xf32>, %y : memref<?xf32>, %mark : memref<?xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %n, %sy = %c1, %sz = %c1) {
    %xv = memref.load %x[%tx] : memref<?xf32>
    %yv = memref.load %y[%tx] : memref<?xf32>
    %r = math.fma %a, %xv, %yv : f32
    memref.store %r, %y[%tx] : memref<?xf32>
    %ti = arith.index_cast %tx : index to i32
    %forty = arith.constant 40 : i32
    %m = arith.addi %ti, %forty : i32
    memref.store %m, %mark[%tx] : memref<?xi32>
    gpu.terminator
  }
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  %ten = arith.constant 10.0 : f32
  %x = memref.alloc (%c7) : memref<?xf32>
  %y = memref.alloc (%c7) : memref<?xf32>
  %mark = memref.alloc (%c7) : memref<?xi32>
  scf.for %i = %c0 to %c7 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %g = arith.subf %ten, %f : f32
    memref.store %f, %x[%i] : memref<?xf32>
    memref.store %g, %y[%i] : memref<?xf32>
  }
  %xu = memref.cast %x : memref<?xf32> to memref<*xf32>
  %yu = memref.cast %y : memref<?xf32> to memref<*xf32>
  %mu = memref.cast %mark : memref<?xi32> to memref<*xi32>
  gpu.host_register %xu : memref<*xf32>
  gpu.host_register %yu : memref<*xf32>
  gpu.host_register %mu : memref<*xi32>
  %xd = call @mgpuMemGetDeviceMemRef1dFloat(%x) : (memref<?xf32>) -> memref<?xf32>
  %yd = call @mgpuMemGetDeviceMemRef1dFloat(%y) : (memref<?xf32>) -> memref<?xf32>
  %md = call @mgpuMemGetDeviceMemRef1dInt32(%mark) : (memref<?xi32>) -> memref<?xi32>
  %a = arith.constant 1.5 : f32
  call @saxpy(%a, %xd, %yd, %md) : (f32, memref<?xf32>, memref<?xf32>, memref<?xi32>) -> ()
  call @printMemrefF32(%yu) : (memref<*xf32>) -> ()
  call @printMemrefI32(%mu) : (memref<*xi32>) -> ()
  return
}

func.func private @mgpuMemGetDeviceMemRef1dFloat(memref<?xf32>) -> memref<?xf32>
func.func private @mgpuMemGetDeviceMemRef1dInt32(memref<?xi32>) -> memref<?xi32>
func.func private @printMemrefF32(memref<*xf32>)
func.func private @printMemrefI32(memref<*xi32>)
