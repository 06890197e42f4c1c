// gpu.subgroup_mma on the operand types CDNA multiplies without a 16x16x16
// f16 MFMA, in 64-thread blocks: f32 (four 16x16x4 MFMAs) and si8 -> i32
// (16x16x16 up to gfx90a; on gfx942 and gfx950 one 16x16x32 with zeros in
// half of each lane's operand). NVIDIA's wmma has no f32 operands, so
// these build for AMD and the host. One 16x16 tile each:
//   @f32mm  D = A * B + C, A[i][k] = (i + 2k) mod 7 - 3, B[k][j] =
//           (k + j) mod 4 - 1, C[i][j] = i - j;
//   @i8mm   the same with A, B as i8 (signed, negatives included) and an
//           i32 accumulator loaded from C.
// The host compares both with its own loops and prints the mismatch
// count and row 3 of the f32 result.
// ISA gfx908: v_mfma_f32_16x16x4f32 v_mfma_i32_16x16x16i8
// ISA gfx90a: v_mfma_f32_16x16x4f32 v_mfma_i32_16x16x16i8
// ISA gfx942: v_mfma_f32_16x16x4_f32 v_mfma_i32_16x16x32_i8
// ISA gfx950: v_mfma_f32_16x16x4_f32 v_mfma_i32_16x16x32_i8
// ISA gfx906: ds_bpermute_b32 v_fmac_f32_e32 v_mul_lo_u32
// ISA gfx1030: ds_bpermute_b32 v_fmac_f32_e32 v_mul_lo_u32
module attributes {gpu.container_module} {
  gpu.module @tc {
    gpu.func @f32mm(%a: memref<16x16xf32>, %b: memref<16x16xf32>, %c: memref<16x16xf32>, %d: memref<16x16xf32>) kernel {
      %c0 = arith.constant 0 : index
      %fa = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf32> -> !gpu.mma_matrix<16x16xf32, "AOp">
      %fb = gpu.subgroup_mma_load_matrix %b[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf32> -> !gpu.mma_matrix<16x16xf32, "BOp">
      %fc = gpu.subgroup_mma_load_matrix %c[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf32> -> !gpu.mma_matrix<16x16xf32, "COp">
      %fd = gpu.subgroup_mma_compute %fa, %fb, %fc : !gpu.mma_matrix<16x16xf32, "AOp">, !gpu.mma_matrix<16x16xf32, "BOp"> -> !gpu.mma_matrix<16x16xf32, "COp">
      gpu.subgroup_mma_store_matrix %fd, %d[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<16x16xf32>
      gpu.return
    }
    gpu.func @i8mm(%a: memref<16x16xi8>, %b: memref<16x16xi8>, %c: memref<16x16xi32>, %d: memref<16x16xi32>) kernel {
      %c0 = arith.constant 0 : index
      %fa = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xi8> -> !gpu.mma_matrix<16x16xsi8, "AOp">
      %fb = gpu.subgroup_mma_load_matrix %b[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xi8> -> !gpu.mma_matrix<16x16xsi8, "BOp">
      %fc = gpu.subgroup_mma_load_matrix %c[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xi32> -> !gpu.mma_matrix<16x16xi32, "COp">
      %fd = gpu.subgroup_mma_compute %fa, %fb, %fc : !gpu.mma_matrix<16x16xsi8, "AOp">, !gpu.mma_matrix<16x16xsi8, "BOp"> -> !gpu.mma_matrix<16x16xi32, "COp">
      gpu.subgroup_mma_store_matrix %fd, %d[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xi32, "COp">, memref<16x16xi32>
      gpu.return
    }
  }

  func.func private @printMemrefF32(memref<*xf32>)

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c7 = arith.constant 7 : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    %a = memref.alloc() : memref<16x16xf32>
    %b = memref.alloc() : memref<16x16xf32>
    %c = memref.alloc() : memref<16x16xf32>
    %d = memref.alloc() : memref<16x16xf32>
    %ai = memref.alloc() : memref<16x16xi8>
    %bi = memref.alloc() : memref<16x16xi8>
    %ci = memref.alloc() : memref<16x16xi32>
    %di = memref.alloc() : memref<16x16xi32>
    scf.for %i = %c0 to %c16 step %c1 {
      scf.for %j = %c0 to %c16 step %c1 {
        %j2 = arith.muli %j, %c2 : index
        %s = arith.addi %i, %j2 : index
        %m = arith.remui %s, %c7 : index
        %m32 = arith.index_cast %m : index to i32
        %three = arith.constant 3 : i32
        %va = arith.subi %m32, %three : i32
        %s2 = arith.addi %i, %j : index
        %n = arith.remui %s2, %c4 : index
        %n32 = arith.index_cast %n : index to i32
        %one = arith.constant 1 : i32
        %vb = arith.subi %n32, %one : i32
        %i32 = arith.index_cast %i : index to i32
        %jj = arith.index_cast %j : index to i32
        %vc = arith.subi %i32, %jj : i32
        %fa = arith.sitofp %va : i32 to f32
        %fb = arith.sitofp %vb : i32 to f32
        %fc = arith.sitofp %vc : i32 to f32
        memref.store %fa, %a[%i, %j] : memref<16x16xf32>
        memref.store %fb, %b[%i, %j] : memref<16x16xf32>
        memref.store %fc, %c[%i, %j] : memref<16x16xf32>
        %ia = arith.trunci %va : i32 to i8
        %ib = arith.trunci %vb : i32 to i8
        memref.store %ia, %ai[%i, %j] : memref<16x16xi8>
        memref.store %ib, %bi[%i, %j] : memref<16x16xi8>
        memref.store %vc, %ci[%i, %j] : memref<16x16xi32>
      }
    }
    %da = gpu.alloc () : memref<16x16xf32>
    %db = gpu.alloc () : memref<16x16xf32>
    %dc = gpu.alloc () : memref<16x16xf32>
    %dd = gpu.alloc () : memref<16x16xf32>
    %dai = gpu.alloc () : memref<16x16xi8>
    %dbi = gpu.alloc () : memref<16x16xi8>
    %dci = gpu.alloc () : memref<16x16xi32>
    %ddi = gpu.alloc () : memref<16x16xi32>
    gpu.memcpy %da, %a : memref<16x16xf32>, memref<16x16xf32>
    gpu.memcpy %db, %b : memref<16x16xf32>, memref<16x16xf32>
    gpu.memcpy %dc, %c : memref<16x16xf32>, memref<16x16xf32>
    gpu.memcpy %dai, %ai : memref<16x16xi8>, memref<16x16xi8>
    gpu.memcpy %dbi, %bi : memref<16x16xi8>, memref<16x16xi8>
    gpu.memcpy %dci, %ci : memref<16x16xi32>, memref<16x16xi32>
    gpu.launch_func @tc::@f32mm blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%da : memref<16x16xf32>, %db : memref<16x16xf32>, %dc : memref<16x16xf32>, %dd : memref<16x16xf32>)
    gpu.launch_func @tc::@i8mm blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%dai : memref<16x16xi8>, %dbi : memref<16x16xi8>, %dci : memref<16x16xi32>, %ddi : memref<16x16xi32>)
    gpu.memcpy %d, %dd : memref<16x16xf32>, memref<16x16xf32>
    gpu.memcpy %di, %ddi : memref<16x16xi32>, memref<16x16xi32>
    %bad = scf.for %i = %c0 to %c16 step %c1 iter_args(%nb = %c0) -> (index) {
      %nb2 = scf.for %j = %c0 to %c16 step %c1 iter_args(%nbj = %nb) -> (index) {
        %c0i = arith.constant 0 : i32
        %dot = scf.for %k = %c0 to %c16 step %c1 iter_args(%acc = %c0i) -> (i32) {
          %x = memref.load %ai[%i, %k] : memref<16x16xi8>
          %y = memref.load %bi[%k, %j] : memref<16x16xi8>
          %xw = arith.extsi %x : i8 to i32
          %yw = arith.extsi %y : i8 to i32
          %p = arith.muli %xw, %yw : i32
          %s = arith.addi %acc, %p : i32
          scf.yield %s : i32
        }
        %cv = memref.load %ci[%i, %j] : memref<16x16xi32>
        %want = arith.addi %dot, %cv : i32
        %goti = memref.load %di[%i, %j] : memref<16x16xi32>
        %wantf = arith.sitofp %want : i32 to f32
        %gotf = memref.load %d[%i, %j] : memref<16x16xf32>
        %oki = arith.cmpi eq, %want, %goti : i32
        %okf = arith.cmpf oeq, %wantf, %gotf : f32
        %ok = arith.andi %oki, %okf : i1
        %inc = arith.select %ok, %c0, %c1 : index
        %nbn = arith.addi %nbj, %inc : index
        scf.yield %nbn : index
      }
      scf.yield %nb2 : index
    }
    vector.print str "mismatches: "
    vector.print %bad : index
    %row3 = memref.subview %d[3, 0] [1, 16] [1, 1] : memref<16x16xf32> to memref<16xf32, strided<[1], offset: 48>>
    %u = memref.cast %row3 : memref<16xf32, strided<[1], offset: 48>> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
}
