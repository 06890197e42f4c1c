// gpu.async.token values carried through scf.for iter_args and chosen by
// scf.if, as programs chain launches in loops. The tokens reach their users
// as block arguments, whose maker LLVM's lowering cannot see: it lowers
// them as events, so the runtime must recognize the streams they are
// (this did not compile, then crashed in mgpuEventSynchronize).
//   a[0..9] = 0; 4 chained launches add 1 each: 4
//   the one-launch branch of an scf.if adds 1: 5 (the other would add 2)
//   a second stream memsets b to 3; a wait on both, then a[i] += b[i]: 8
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @add(%a: memref<10xf32>, %v: f32) kernel {
      %t = gpu.thread_id x
      %x = memref.load %a[%t] : memref<10xf32>
      %y = arith.addf %x, %v : f32
      memref.store %y, %a[%t] : memref<10xf32>
      gpu.return
    }
    gpu.func @accumulate(%a: memref<10xf32>, %b: memref<10xf32>) kernel {
      %t = gpu.thread_id x
      %x = memref.load %a[%t] : memref<10xf32>
      %y = memref.load %b[%t] : memref<10xf32>
      %s = arith.addf %x, %y : f32
      memref.store %s, %a[%t] : memref<10xf32>
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c10 = arith.constant 10 : index
    %zero = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %two = arith.constant 2.0 : f32
    %three = arith.constant 3.0 : f32
    %h = memref.alloc() : memref<10xf32>
    %t0 = gpu.wait async
    %a, %t1 = gpu.alloc async [%t0] () : memref<10xf32>
    %t2 = gpu.memset async [%t1] %a, %zero : memref<10xf32>, f32
    %t3 = scf.for %i = %c0 to %c4 step %c1 iter_args(%tok = %t2) -> !gpu.async.token {
      %tn = gpu.launch_func async [%tok] @k::@add blocks in (%c1, %c1, %c1)
          threads in (%c10, %c1, %c1) args(%a : memref<10xf32>, %one : f32)
      scf.yield %tn : !gpu.async.token
    }
    %yes = arith.cmpi eq, %c1, %c1 : index
    %t4 = scf.if %yes -> !gpu.async.token {
      %tn = gpu.launch_func async [%t3] @k::@add blocks in (%c1, %c1, %c1)
          threads in (%c10, %c1, %c1) args(%a : memref<10xf32>, %one : f32)
      scf.yield %tn : !gpu.async.token
    } else {
      %tn = gpu.launch_func async [%t3] @k::@add blocks in (%c1, %c1, %c1)
          threads in (%c10, %c1, %c1) args(%a : memref<10xf32>, %two : f32)
      scf.yield %tn : !gpu.async.token
    }
    %s0 = gpu.wait async
    %b, %s1 = gpu.alloc async [%s0] () : memref<10xf32>
    %s2 = gpu.memset async [%s1] %b, %three : memref<10xf32>, f32
    %both = gpu.wait async [%t4, %s2]
    %t5 = gpu.launch_func async [%both] @k::@accumulate blocks in (%c1, %c1, %c1)
        threads in (%c10, %c1, %c1) args(%a : memref<10xf32>, %b : memref<10xf32>)
    %t6 = gpu.memcpy async [%t5] %h, %a : memref<10xf32>, memref<10xf32>
    gpu.wait [%t6]
    gpu.dealloc %a : memref<10xf32>
    gpu.dealloc %b : memref<10xf32>
    %v = vector.transfer_read %h[%c0], %zero : memref<10xf32>, vector<10xf32>
    vector.print %v : vector<10xf32>
    return
  }
}
