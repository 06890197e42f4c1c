// gpu.subgroup_reduce in a block of 40 threads: the first subgroup has 32
// lanes, the second only 8, and each reduces over its own lanes (the
// butterfly used to count the missing partners' share with the lane's own
// value: 32 instead of 8 for a sum of ones). Per thread t (x = t + 1):
//   row 0: add of x (i32):        528 for t < 32, 292 for t >= 32
//   row 1: add of 0.5 (f32):      16 and 4
//   row 2: add of x in clusters of 4: the sum of x over t's cluster
//   row 3: maxsi of x:            32 and 40
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @reduce(%o: memref<4x40xi32>) kernel {
      %t = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %ti = arith.index_cast %t : index to i32
      %one = arith.constant 1 : i32
      %x = arith.addi %ti, %one : i32
      %half = arith.constant 0.5 : f32
      %s = gpu.subgroup_reduce add %x uniform : (i32) -> i32
      %f = gpu.subgroup_reduce add %half uniform : (f32) -> f32
      %fi = arith.fptosi %f : f32 to i32
      %c = gpu.subgroup_reduce add %x uniform cluster(size = 4) : (i32) -> i32
      %m = gpu.subgroup_reduce maxsi %x uniform : (i32) -> i32
      memref.store %s, %o[%c0, %t] : memref<4x40xi32>
      memref.store %fi, %o[%c1, %t] : memref<4x40xi32>
      memref.store %c, %o[%c2, %t] : memref<4x40xi32>
      memref.store %m, %o[%c3, %t] : memref<4x40xi32>
      gpu.return
    }
  }
  func.func private @printMemrefI32(memref<*xi32>)
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c40 = arith.constant 40 : index
    %h = memref.alloc() : memref<4x40xi32>
    %d = gpu.alloc () : memref<4x40xi32>
    gpu.launch_func @k::@reduce blocks in (%c1, %c1, %c1) threads in (%c40, %c1, %c1)
        args(%d : memref<4x40xi32>)
    gpu.memcpy %h, %d : memref<4x40xi32>, memref<4x40xi32>
    %u = memref.cast %h : memref<4x40xi32> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    return
  }
}
