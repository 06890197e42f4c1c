// gpu.subgroup_mma in double precision (m8n8k4, NVIDIA sm_80 and newer, and
// the host): an 8x8 result from an 8x4 and a 4x8 matrix plus an 8x8
// accumulator, one subgroup. a[i][k] = i - k, b[k][j] = k * j + 1,
// c[i][j] = 0.5 * (i + j), so d[i][j] = sum_k (i - k) (k j + 1) + c[i][j]:
// exact in f64. The host prints d.
module attributes {gpu.container_module} {
  gpu.module @tc {
    gpu.func @dmma(%a: memref<8x4xf64>, %b: memref<4x8xf64>, %c: memref<8x8xf64>) kernel {
      %c0 = arith.constant 0 : index
      %fa = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 4 : index} : memref<8x4xf64> -> !gpu.mma_matrix<8x4xf64, "AOp">
      %fb = gpu.subgroup_mma_load_matrix %b[%c0, %c0] {leadDimension = 8 : index} : memref<4x8xf64> -> !gpu.mma_matrix<4x8xf64, "BOp">
      %fc = gpu.subgroup_mma_load_matrix %c[%c0, %c0] {leadDimension = 8 : index} : memref<8x8xf64> -> !gpu.mma_matrix<8x8xf64, "COp">
      %d = gpu.subgroup_mma_compute %fa, %fb, %fc : !gpu.mma_matrix<8x4xf64, "AOp">, !gpu.mma_matrix<4x8xf64, "BOp"> -> !gpu.mma_matrix<8x8xf64, "COp">
      gpu.subgroup_mma_store_matrix %d, %c[%c0, %c0] {leadDimension = 8 : index} : !gpu.mma_matrix<8x8xf64, "COp">, memref<8x8xf64>
      gpu.return
    }
  }
  func.func private @printMemrefF64(memref<*xf64>)
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    %one = arith.constant 1.0 : f64
    %half = arith.constant 0.5 : f64
    %a = memref.alloc() : memref<8x4xf64>
    %b = memref.alloc() : memref<4x8xf64>
    %c = memref.alloc() : memref<8x8xf64>
    scf.for %i = %c0 to %c8 step %c1 {
      %ii = arith.index_cast %i : index to i64
      %fi = arith.sitofp %ii : i64 to f64
      scf.for %k = %c0 to %c4 step %c1 {
        %ki = arith.index_cast %k : index to i64
        %fk = arith.sitofp %ki : i64 to f64
        %v = arith.subf %fi, %fk : f64
        memref.store %v, %a[%i, %k] : memref<8x4xf64>
        %kj = arith.mulf %fk, %fi : f64
        %w = arith.addf %kj, %one : f64
        // here i plays j: b[k][i] = k * i + 1
        memref.store %w, %b[%k, %i] : memref<4x8xf64>
      }
      scf.for %j = %c0 to %c8 step %c1 {
        %ji = arith.index_cast %j : index to i64
        %fj = arith.sitofp %ji : i64 to f64
        %s = arith.addf %fi, %fj : f64
        %h = arith.mulf %s, %half : f64
        memref.store %h, %c[%i, %j] : memref<8x8xf64>
      }
    }
    %da = gpu.alloc () : memref<8x4xf64>
    %db = gpu.alloc () : memref<4x8xf64>
    %dc = gpu.alloc () : memref<8x8xf64>
    gpu.memcpy %da, %a : memref<8x4xf64>, memref<8x4xf64>
    gpu.memcpy %db, %b : memref<4x8xf64>, memref<4x8xf64>
    gpu.memcpy %dc, %c : memref<8x8xf64>, memref<8x8xf64>
    gpu.launch_func @tc::@dmma blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%da : memref<8x4xf64>, %db : memref<4x8xf64>, %dc : memref<8x8xf64>)
    gpu.memcpy %c, %dc : memref<8x8xf64>, memref<8x8xf64>
    %u = memref.cast %c : memref<8x8xf64> to memref<*xf64>
    call @printMemrefF64(%u) : (memref<*xf64>) -> ()
    return
  }
}
