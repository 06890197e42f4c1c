// A payload and its transform schedule in one module, as schedule-driven
// compilers hand them over: @__transform_main tiles the linalg.matmul of
// @matmul twice with scf.forall (4x4 tiles over blocks, then one element
// per thread), maps the outer forall to a generated gpu.launch (grid 2x2)
// and the inner one to threads (block 4x4), and lowers the remaining
// per-thread matmul to loops. gpucc runs the transform interpreter, erases
// the schedule, then outlines the launch as usual.
//   A(i,k) = i + k (8x16),  B(k,j) = 1 if k mod 8 = j else 0 (16x8)
//   C = A B: C(i,j) = A(i,j) + A(i,j+8) = 2i + 2j + 8
module attributes {transform.with_named_sequence} {
  func.func @matmul(%a: memref<8x16xf32>, %b: memref<16x8xf32>, %c: memref<8x8xf32>) {
    linalg.matmul ins(%a, %b : memref<8x16xf32>, memref<16x8xf32>) outs(%c : memref<8x8xf32>)
    return
  }

  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %zero = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %ha = memref.alloc() : memref<8x16xf32>
    %hb = memref.alloc() : memref<16x8xf32>
    %hc = memref.alloc() : memref<8x8xf32>
    scf.for %i = %c0 to %c8 step %c1 {
      scf.for %k = %c0 to %c16 step %c1 {
        %s = arith.addi %i, %k : index
        %si = arith.index_cast %s : index to i32
        %f = arith.sitofp %si : i32 to f32
        memref.store %f, %ha[%i, %k] : memref<8x16xf32>
      }
    }
    scf.for %k = %c0 to %c16 step %c1 {
      scf.for %j = %c0 to %c8 step %c1 {
        %km = arith.remui %k, %c8 : index
        %eq = arith.cmpi eq, %km, %j : index
        %v = arith.select %eq, %one, %zero : f32
        memref.store %v, %hb[%k, %j] : memref<16x8xf32>
      }
    }
    %a = gpu.alloc () : memref<8x16xf32>
    %b = gpu.alloc () : memref<16x8xf32>
    %c = gpu.alloc () : memref<8x8xf32>
    gpu.memcpy %a, %ha : memref<8x16xf32>, memref<8x16xf32>
    gpu.memcpy %b, %hb : memref<16x8xf32>, memref<16x8xf32>
    gpu.memset %c, %zero : memref<8x8xf32>, f32
    call @matmul(%a, %b, %c) : (memref<8x16xf32>, memref<16x8xf32>, memref<8x8xf32>) -> ()
    gpu.memcpy %hc, %c : memref<8x8xf32>, memref<8x8xf32>
    gpu.dealloc %a : memref<8x16xf32>
    gpu.dealloc %b : memref<16x8xf32>
    gpu.dealloc %c : memref<8x8xf32>
    %u = memref.cast %hc : memref<8x8xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    memref.dealloc %ha : memref<8x16xf32>
    memref.dealloc %hb : memref<16x8xf32>
    memref.dealloc %hc : memref<8x8xf32>
    return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root
        : (!transform.any_op) -> !transform.any_op
    %tile, %blocks = transform.structured.tile_using_forall %mm tile_sizes [4, 4]
        (mapping = [#gpu.block<y>, #gpu.block<x>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %elem, %threads = transform.structured.tile_using_forall %tile tile_sizes [1, 1]
        (mapping = [#gpu.thread<y>, #gpu.thread<x>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %loops = transform.structured.convert_to_loops %elem
        : (!transform.any_op) -> !transform.any_op
    %fn = transform.structured.match ops{["func.func"]} attributes {sym_name = "matmul"} in %root
        : (!transform.any_op) -> !transform.any_op
    %launch = transform.gpu.map_forall_to_blocks %fn generate_gpu_launch grid_dims = [2, 2, 1]
        : (!transform.any_op) -> !transform.any_op
    %mapped = transform.gpu.map_nested_forall_to_threads %launch block_dims = [4, 4, 1]
        : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
