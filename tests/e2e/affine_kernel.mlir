// Affine code inside kernels, as polyhedral and linalg-to-affine flows leave
// it: affine.apply on block and thread ids, affine.for (with a step and with
// iter_args), affine.load/affine.store with index expressions, and affine.if,
// in a gpu.func and in an inline gpu.launch. The host fills its input with
// affine loops too.
//   in(i,j)   = 8i + j                                       (4x8)
//   @mirror, 2 blocks of 4 threads, column j = 4*block + thread:
//   out(i,j)  = 2 * in(i, 7-j) - in(i,j) = 8i + 14 - 3j
//   launch, 4 threads, row i = thread:
//   even(i,k) = out(i, 2k) = 8i + 14 - 6k
//   rsum(i)   = sum_j out(i,j) = 64i + 28, negated for i >= 2
#col = affine_map<()[s0, s1] -> (s0 * 4 + s1)>
#upper = affine_set<(d0) : (d0 - 2 >= 0)>
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @mirror(%in: memref<4x8xf32>, %out: memref<4x8xf32>) kernel {
      %b = gpu.block_id x
      %t = gpu.thread_id x
      %j = affine.apply #col()[%b, %t]
      %two = arith.constant 2.0 : f32
      affine.for %i = 0 to 4 {
        %m = affine.load %in[%i, 7 - symbol(%j)] : memref<4x8xf32>
        %x = affine.load %in[%i, symbol(%j)] : memref<4x8xf32>
        %m2 = arith.mulf %m, %two : f32
        %r = arith.subf %m2, %x : f32
        affine.store %r, %out[%i, symbol(%j)] : memref<4x8xf32>
      }
      gpu.return
    }
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %zero = arith.constant 0.0 : f32
    %hin = memref.alloc() : memref<4x8xf32>
    affine.for %i = 0 to 4 {
      affine.for %j = 0 to 8 {
        %v = affine.apply affine_map<(d0, d1) -> (d0 * 8 + d1)>(%i, %j)
        %vi = arith.index_cast %v : index to i32
        %vf = arith.sitofp %vi : i32 to f32
        affine.store %vf, %hin[%i, %j] : memref<4x8xf32>
      }
    }
    %in = gpu.alloc () : memref<4x8xf32>
    %out = gpu.alloc () : memref<4x8xf32>
    %even = gpu.alloc () : memref<4x4xf32>
    %rsum = gpu.alloc () : memref<4xf32>
    gpu.memcpy %in, %hin : memref<4x8xf32>, memref<4x8xf32>
    gpu.launch_func @kernels::@mirror blocks in (%c2, %c1, %c1) threads in (%c4, %c1, %c1)
        args(%in : memref<4x8xf32>, %out : memref<4x8xf32>)
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
      affine.for %j = 0 to 8 step 2 {
        %v = affine.load %out[symbol(%tx), %j] : memref<4x8xf32>
        affine.store %v, %even[symbol(%tx), %j floordiv 2] : memref<4x4xf32>
      }
      %s = affine.for %j = 0 to 8 iter_args(%acc = %zero) -> (f32) {
        %v = affine.load %out[symbol(%tx), %j] : memref<4x8xf32>
        %a = arith.addf %acc, %v : f32
        affine.yield %a : f32
      }
      %r = affine.if #upper(%tx) -> f32 {
        %n = arith.negf %s : f32
        affine.yield %n : f32
      } else {
        affine.yield %s : f32
      }
      affine.store %r, %rsum[symbol(%tx)] : memref<4xf32>
      gpu.terminator
    }
    %hout = memref.alloc() : memref<4x8xf32>
    %heven = memref.alloc() : memref<4x4xf32>
    %hsum = memref.alloc() : memref<4xf32>
    gpu.memcpy %hout, %out : memref<4x8xf32>, memref<4x8xf32>
    gpu.memcpy %heven, %even : memref<4x4xf32>, memref<4x4xf32>
    gpu.memcpy %hsum, %rsum : memref<4xf32>, memref<4xf32>
    %u1 = memref.cast %hout : memref<4x8xf32> to memref<*xf32>
    %u2 = memref.cast %heven : memref<4x4xf32> to memref<*xf32>
    %u3 = memref.cast %hsum : memref<4xf32> to memref<*xf32>
    call @printMemrefF32(%u1) : (memref<*xf32>) -> ()
    call @printMemrefF32(%u2) : (memref<*xf32>) -> ()
    call @printMemrefF32(%u3) : (memref<*xf32>) -> ()
    gpu.dealloc %in : memref<4x8xf32>
    gpu.dealloc %out : memref<4x8xf32>
    gpu.dealloc %even : memref<4x4xf32>
    gpu.dealloc %rsum : memref<4xf32>
    return
  }
}
