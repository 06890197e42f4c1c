// 3-D grids and blocks: grid 2x3x4 of blocks 4x2x3 (576 threads) in an
// inline gpu.launch and in a gpu.launch_func. The launch has every thread
// add 1 to its own cell of a 12x6x8 counter (indexed by the global z, y, x)
// and count, atomically, the threads that saw the right grid and block
// sizes; @encode writes 100 gz + 10 gy + gx from gpu.global_id. The host
// prints how many cells hold exactly 1 (576), the number of threads that
// saw the right sizes (576), the sum of the codes (sum gx 28 * 72 +
// 10 * sum gy 15 * 96 + 100 * sum gz 66 * 48 = 333216) and two codes.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @encode(%val: memref<12x6x8xi32>) kernel {
      %gx = gpu.global_id x
      %gy = gpu.global_id y
      %gz = gpu.global_id z
      %c10 = arith.constant 10 : index
      %c100 = arith.constant 100 : index
      %y10 = arith.muli %gy, %c10 : index
      %z100 = arith.muli %gz, %c100 : index
      %s = arith.addi %y10, %z100 : index
      %v = arith.addi %s, %gx : index
      %vi = arith.index_cast %v : index to i32
      memref.store %vi, %val[%gz, %gy, %gx] : memref<12x6x8xi32>
      gpu.return
    }
  }
  func.func private @printI64(i64)
  func.func private @printNewline()
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c5 = arith.constant 5 : index
    %c6 = arith.constant 6 : index
    %c7 = arith.constant 7 : index
    %c8 = arith.constant 8 : index
    %c11 = arith.constant 11 : index
    %c12 = arith.constant 12 : index
    %zero = arith.constant 0 : i32
    %one32 = arith.constant 1 : i32
    %count = gpu.alloc () : memref<12x6x8xi32>
    %val = gpu.alloc () : memref<12x6x8xi32>
    %ok = gpu.alloc () : memref<1xi32>
    gpu.memset %count, %zero : memref<12x6x8xi32>, i32
    gpu.memset %ok, %zero : memref<1xi32>, i32
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c3, %gz = %c4)
               threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c2, %sz = %c3) {
      %one = arith.constant 1 : i32
      %x0 = arith.muli %bx, %sx : index
      %x = arith.addi %x0, %tx : index
      %y0 = arith.muli %by, %sy : index
      %y = arith.addi %y0, %ty : index
      %z0 = arith.muli %bz, %sz : index
      %z = arith.addi %z0, %tz : index
      %old = memref.atomic_rmw addi %one, %count[%z, %y, %x] : (i32, memref<12x6x8xi32>) -> i32
      %ngx = gpu.grid_dim x
      %ngy = gpu.grid_dim y
      %ngz = gpu.grid_dim z
      %nbx = gpu.block_dim x
      %nby = gpu.block_dim y
      %nbz = gpu.block_dim z
      %k2 = arith.constant 2 : index
      %k3 = arith.constant 3 : index
      %k4 = arith.constant 4 : index
      %e0 = arith.cmpi eq, %ngx, %k2 : index
      %e1 = arith.cmpi eq, %ngy, %k3 : index
      %e2 = arith.cmpi eq, %ngz, %k4 : index
      %e3 = arith.cmpi eq, %nbx, %k4 : index
      %e4 = arith.cmpi eq, %nby, %k2 : index
      %e5 = arith.cmpi eq, %nbz, %k3 : index
      %a0 = arith.andi %e0, %e1 : i1
      %a1 = arith.andi %a0, %e2 : i1
      %a2 = arith.andi %a1, %e3 : i1
      %a3 = arith.andi %a2, %e4 : i1
      %a4 = arith.andi %a3, %e5 : i1
      scf.if %a4 {
        %k0 = arith.constant 0 : index
        %o = memref.atomic_rmw addi %one, %ok[%k0] : (i32, memref<1xi32>) -> i32
      }
      gpu.terminator
    }
    gpu.launch_func @kernels::@encode blocks in (%c2, %c3, %c4) threads in (%c4, %c2, %c3)
        args(%val : memref<12x6x8xi32>)
    %hc = memref.alloc() : memref<12x6x8xi32>
    %hv = memref.alloc() : memref<12x6x8xi32>
    %hok = memref.alloc() : memref<1xi32>
    gpu.memcpy %hc, %count : memref<12x6x8xi32>, memref<12x6x8xi32>
    gpu.memcpy %hv, %val : memref<12x6x8xi32>, memref<12x6x8xi32>
    gpu.memcpy %hok, %ok : memref<1xi32>, memref<1xi32>
    %z64 = arith.constant 0 : i64
    %one64 = arith.constant 1 : i64
    %ones, %sum = scf.for %k = %c0 to %c12 step %c1 iter_args(%n0 = %z64, %s0 = %z64) -> (i64, i64) {
      %n1, %s1 = scf.for %j = %c0 to %c6 step %c1 iter_args(%n2 = %n0, %s2 = %s0) -> (i64, i64) {
        %n3, %s3 = scf.for %i = %c0 to %c8 step %c1 iter_args(%n4 = %n2, %s4 = %s2) -> (i64, i64) {
          %cv = memref.load %hc[%k, %j, %i] : memref<12x6x8xi32>
          %is1 = arith.cmpi eq, %cv, %one32 : i32
          %inc = arith.extui %is1 : i1 to i64
          %n5 = arith.addi %n4, %inc : i64
          %vv = memref.load %hv[%k, %j, %i] : memref<12x6x8xi32>
          %v64 = arith.extsi %vv : i32 to i64
          %s5 = arith.addi %s4, %v64 : i64
          scf.yield %n5, %s5 : i64, i64
        }
        scf.yield %n3, %s3 : i64, i64
      }
      scf.yield %n1, %s1 : i64, i64
    }
    %okv = memref.load %hok[%c0] : memref<1xi32>
    %ok64 = arith.extsi %okv : i32 to i64
    %p0 = memref.load %hv[%c11, %c5, %c7] : memref<12x6x8xi32>
    %p1 = memref.load %hv[%c3, %c2, %c1] : memref<12x6x8xi32>
    %p064 = arith.extsi %p0 : i32 to i64
    %p164 = arith.extsi %p1 : i32 to i64
    call @printI64(%ones) : (i64) -> ()
    call @printNewline() : () -> ()
    call @printI64(%ok64) : (i64) -> ()
    call @printNewline() : () -> ()
    call @printI64(%sum) : (i64) -> ()
    call @printNewline() : () -> ()
    call @printI64(%p064) : (i64) -> ()
    call @printNewline() : () -> ()
    call @printI64(%p164) : (i64) -> ()
    call @printNewline() : () -> ()
    gpu.dealloc %count : memref<12x6x8xi32>
    gpu.dealloc %val : memref<12x6x8xi32>
    gpu.dealloc %ok : memref<1xi32>
    return
  }
}
