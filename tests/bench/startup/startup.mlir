// startup.mlir: the smallest honest GPU program, for measuring start-up.
// It does what a real one does once: loads its kernels, copies 16 floats to
// the device, launches one block that doubles them, copies them back and
// prints them with printMemrefF32 and vector.print (the runner utilities).
// Expected output: startup.out.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @twice(%m: memref<16xf32>) kernel {
      %t = gpu.thread_id x
      %x = memref.load %m[%t] : memref<16xf32>
      %y = arith.addf %x, %x : f32
      memref.store %y, %m[%t] : memref<16xf32>
      gpu.return
    }
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %h = memref.alloc() : memref<16xf32>
    scf.for %i = %c0 to %c16 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %h[%i] : memref<16xf32>
    }
    %d = gpu.alloc () : memref<16xf32>
    gpu.memcpy %d, %h : memref<16xf32>, memref<16xf32>
    gpu.launch_func @kernels::@twice blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1)
        args(%d : memref<16xf32>)
    gpu.memcpy %h, %d : memref<16xf32>, memref<16xf32>
    gpu.dealloc %d : memref<16xf32>
    %u = memref.cast %h : memref<16xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    %z = arith.constant 0.0 : f32
    %v = vector.transfer_read %h[%c0], %z : memref<16xf32>, vector<4xf32>
    vector.print %v : vector<4xf32>
    memref.dealloc %h : memref<16xf32>
    return
  }
}
