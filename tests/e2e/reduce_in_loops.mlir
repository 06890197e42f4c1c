// Reductions that every thread reaches although they are not in the
// kernel's entry block and not marked `uniform`: inside an scf.for with
// block-uniform bounds (a kernel argument, constants), an scf.if on the
// block id, and an affine.for. gpucc finds them reached by all and lowers
// them on every target. 2 blocks of 64 threads; thread t of block b:
//   acc  = sum over i < n (n = 3) of subgroup sum of (t + i)
//          = 3 * sum(t) + 32 * (0 + 1 + 2)        (per 32-lane subgroup)
//   odd  = block 1 only: block-wide max of t = 63, else -1
//   aff  = sum over j < 2 of block-wide sum of j = 64 * (0 + 1) = 64
// The host prints rows of threads 0, 40 of block 0 and 5 of block 1.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @loops(%out: memref<128x3xi32>, %n: index) kernel {
      %t = gpu.thread_id x
      %b = gpu.block_id x
      %g = gpu.global_id x
      %ti = arith.index_cast %t : index to i32
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %z = arith.constant 0 : i32
      %acc = scf.for %i = %c0 to %n step %c1 iter_args(%a = %z) -> (i32) {
        %ii = arith.index_cast %i : index to i32
        %x = arith.addi %ti, %ii : i32
        %s = gpu.subgroup_reduce add %x : (i32) -> i32
        %a2 = arith.addi %a, %s : i32
        scf.yield %a2 : i32
      }
      memref.store %acc, %out[%g, %c0] : memref<128x3xi32>
      %is1 = arith.cmpi eq, %b, %c1 : index
      %odd = scf.if %is1 -> (i32) {
        %m = gpu.all_reduce maxsi %ti {} : (i32) -> (i32)
        scf.yield %m : i32
      } else {
        %m1 = arith.constant -1 : i32
        scf.yield %m1 : i32
      }
      memref.store %odd, %out[%g, %c1] : memref<128x3xi32>
      %aff = affine.for %j = 0 to 2 iter_args(%s0 = %z) -> (i32) {
        %ji = arith.index_cast %j : index to i32
        %r = gpu.all_reduce add %ji {} : (i32) -> (i32)
        %s1 = arith.addi %s0, %r : i32
        affine.yield %s1 : i32
      }
      memref.store %aff, %out[%g, %c2] : memref<128x3xi32>
      gpu.return
    }
  }
  func.func private @printMemrefI32(memref<*xi32>)
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c40 = arith.constant 40 : index
    %c64 = arith.constant 64 : index
    %c69 = arith.constant 69 : index
    %dev = gpu.alloc () : memref<128x3xi32>
    gpu.launch_func @kernels::@loops blocks in (%c2, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%dev : memref<128x3xi32>, %c3 : index)
    %all = memref.alloc () : memref<128x3xi32>
    gpu.memcpy %all, %dev : memref<128x3xi32>, memref<128x3xi32>
    %sel = memref.alloc () : memref<3x3xi32>
    %rows = memref.alloc () : memref<3xindex>
    memref.store %c0, %rows[%c0] : memref<3xindex>
    memref.store %c40, %rows[%c1] : memref<3xindex>
    memref.store %c69, %rows[%c2] : memref<3xindex>
    scf.for %i = %c0 to %c3 step %c1 {
      %r = memref.load %rows[%i] : memref<3xindex>
      scf.for %j = %c0 to %c3 step %c1 {
        %v = memref.load %all[%r, %j] : memref<128x3xi32>
        memref.store %v, %sel[%i, %j] : memref<3x3xi32>
      }
    }
    %u = memref.cast %sel : memref<3x3xi32> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    return
  }
}
