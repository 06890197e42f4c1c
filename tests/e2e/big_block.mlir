// A block of 1024 threads (the most a GPU allows) in 2-D (32 x 32) with a
// barrier: each thread writes its linear id to workgroup memory, waits, and
// reads back the transposed element. Prints the sum of out[i] - in[i] over
// the transposition (0) and out at a few positions.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @transpose(%out: memref<32x32xf32>) workgroup(%tile: memref<32x32xf32, #gpu.address_space<workgroup>>) kernel {
      %x = gpu.thread_id x
      %y = gpu.thread_id y
      %c32 = arith.constant 32 : index
      %lin = arith.muli %y, %c32 : index
      %id = arith.addi %lin, %x : index
      %idi = arith.index_cast %id : index to i32
      %f = arith.sitofp %idi : i32 to f32
      memref.store %f, %tile[%y, %x] : memref<32x32xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %v = memref.load %tile[%x, %y] : memref<32x32xf32, #gpu.address_space<workgroup>>
      memref.store %v, %out[%y, %x] : memref<32x32xf32>
      gpu.return
    }
  }
  func.func private @printF32(f32)
  func.func private @printNewline()
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c5 = arith.constant 5 : index
    %c31 = arith.constant 31 : index
    %c32 = arith.constant 32 : index
    %host = memref.alloc() : memref<32x32xf32>
    %dev = gpu.alloc () : memref<32x32xf32>
    gpu.launch_func @kernels::@transpose blocks in (%c1, %c1, %c1) threads in (%c32, %c32, %c1) args(%dev : memref<32x32xf32>)
    gpu.memcpy %host, %dev : memref<32x32xf32>, memref<32x32xf32>
    gpu.dealloc %dev : memref<32x32xf32>
    // out[y][x] must be x * 32 + y
    %zero = arith.constant 0.0 : f32
    %err = scf.for %y = %c0 to %c32 step %c1 iter_args(%acc = %zero) -> f32 {
      %row = scf.for %x = %c0 to %c32 step %c1 iter_args(%a = %acc) -> f32 {
        %v = memref.load %host[%y, %x] : memref<32x32xf32>
        %xl = arith.muli %x, %c32 : index
        %w = arith.addi %xl, %y : index
        %wi = arith.index_cast %w : index to i32
        %wf = arith.sitofp %wi : i32 to f32
        %d = arith.subf %v, %wf : f32
        %ad = math.absf %d : f32
        %n = arith.addf %a, %ad : f32
        scf.yield %n : f32
      }
      scf.yield %row : f32
    }
    call @printF32(%err) : (f32) -> ()
    call @printNewline() : () -> ()
    %p = memref.load %host[%c2, %c5] : memref<32x32xf32>
    call @printF32(%p) : (f32) -> ()
    call @printNewline() : () -> ()
    %q = memref.load %host[%c31, %c0] : memref<32x32xf32>
    call @printF32(%q) : (f32) -> ()
    call @printNewline() : () -> ()
    return
  }
}
