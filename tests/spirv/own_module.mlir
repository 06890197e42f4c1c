// A program that carries its own SPIR-V: the spirv.module MLIR's
// convert-gpu-to-spirv makes of gpu.module @kernels, beside it (own_module.sh).
// Its @scale adds 1 where the gpu.func does not, so the output shows which
// code ran: the Vulkan backend runs the program's SPIR-V, the host backend
// the gpu.module. @shift is the conversion as it is (32-bit index): a
// dynamic buffer, an index, an argument nobody reads, a scalar.
module attributes {gpu.container_module} {
  spirv.module @__spv__kernels Logical GLSL450 {
    spirv.GlobalVariable @__builtin__WorkgroupSize__ built_in("WorkgroupSize") : !spirv.ptr<vector<3xi32>, Input>
    spirv.GlobalVariable @__builtin__WorkgroupId__ built_in("WorkgroupId") : !spirv.ptr<vector<3xi32>, Input>
    spirv.GlobalVariable @__builtin__LocalInvocationId__ built_in("LocalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
    spirv.func @scale(%arg0: !spirv.ptr<!spirv.struct<(!spirv.array<8 x f32, stride=4> [0])>, StorageBuffer> {spirv.interface_var_abi = #spirv.interface_var_abi<(0, 0)>}, %arg1: !spirv.ptr<!spirv.struct<(!spirv.array<8 x f32, stride=4> [0])>, StorageBuffer> {spirv.interface_var_abi = #spirv.interface_var_abi<(0, 1)>}, %arg2: f32 {spirv.interface_var_abi = #spirv.interface_var_abi<(0, 2), StorageBuffer>}) "None" attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [8, 1, 1]>} {
      %lid = spirv.mlir.addressof @__builtin__LocalInvocationId__ : !spirv.ptr<vector<3xi32>, Input>
      %id = spirv.Load "Input" %lid : vector<3xi32>
      %t = spirv.CompositeExtract %id[0 : i32] : vector<3xi32>
      %c0 = spirv.Constant 0 : i32
      %p = spirv.AccessChain %arg0[%c0, %t] : !spirv.ptr<!spirv.struct<(!spirv.array<8 x f32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<f32, StorageBuffer>
      %x = spirv.Load "StorageBuffer" %p : f32
      %y = spirv.FMul %x, %arg2 : f32
      %one = spirv.Constant 1.0 : f32
      %z = spirv.FAdd %y, %one : f32
      %q = spirv.AccessChain %arg1[%c0, %t] : !spirv.ptr<!spirv.struct<(!spirv.array<8 x f32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<f32, StorageBuffer>
      spirv.Store "StorageBuffer" %q, %z : f32
      spirv.Return
    }
    spirv.func @shift(%arg0: !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer> {spirv.interface_var_abi = #spirv.interface_var_abi<(0, 0)>}, %arg1: i32 {spirv.interface_var_abi = #spirv.interface_var_abi<(0, 1), StorageBuffer>}, %arg2: f32 {spirv.interface_var_abi = #spirv.interface_var_abi<(0, 2), StorageBuffer>}, %arg3: i32 {spirv.interface_var_abi = #spirv.interface_var_abi<(0, 3), StorageBuffer>}) "None" attributes {spirv.entry_point_abi = #spirv.entry_point_abi<>} {
      %lid = spirv.mlir.addressof @__builtin__LocalInvocationId__ : !spirv.ptr<vector<3xi32>, Input>
      %0 = spirv.Load "Input" %lid : vector<3xi32>
      %1 = spirv.CompositeExtract %0[0 : i32] : vector<3xi32>
      %wid = spirv.mlir.addressof @__builtin__WorkgroupId__ : !spirv.ptr<vector<3xi32>, Input>
      %2 = spirv.Load "Input" %wid : vector<3xi32>
      %3 = spirv.CompositeExtract %2[0 : i32] : vector<3xi32>
      %wsize = spirv.mlir.addressof @__builtin__WorkgroupSize__ : !spirv.ptr<vector<3xi32>, Input>
      %4 = spirv.Load "Input" %wsize : vector<3xi32>
      %5 = spirv.CompositeExtract %4[0 : i32] : vector<3xi32>
      %6 = spirv.IMul %3, %5 : i32
      %7 = spirv.IAdd %6, %1 : i32
      %8 = spirv.ULessThan %7, %arg1 : i32
      spirv.mlir.selection {
        spirv.BranchConditional %8, ^bb1, ^bb2
      ^bb1:  // pred: ^bb0
        %cst0_i32 = spirv.Constant 0 : i32
        %cst0_i32_0 = spirv.Constant 0 : i32
        %cst1_i32 = spirv.Constant 1 : i32
        %9 = spirv.AccessChain %arg0[%cst0_i32, %7] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<f32, StorageBuffer>
        %10 = spirv.Load "StorageBuffer" %9 : f32
        %11 = spirv.ConvertSToF %arg3 : i32 to f32
        %12 = spirv.FAdd %10, %11 : f32
        %cst0_i32_1 = spirv.Constant 0 : i32
        %cst0_i32_2 = spirv.Constant 0 : i32
        %cst1_i32_3 = spirv.Constant 1 : i32
        %13 = spirv.AccessChain %arg0[%cst0_i32_1, %7] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<f32, StorageBuffer>
        spirv.Store "StorageBuffer" %13, %12 : f32
        spirv.Branch ^bb2
      ^bb2:  // 2 preds: ^bb0, ^bb1
        spirv.mlir.merge
      }
      spirv.Return
    }
  }
  gpu.module @kernels {
    gpu.func @scale(%in: memref<8xf32>, %out: memref<8xf32>, %f: f32) kernel {
      %t = gpu.thread_id x
      %x = memref.load %in[%t] : memref<8xf32>
      %y = arith.mulf %x, %f : f32
      memref.store %y, %out[%t] : memref<8xf32>
      gpu.return
    }
    gpu.func @shift(%a: memref<?xf32>, %n: index, %unused: f32, %k: i32) kernel {
      %t = gpu.thread_id x
      %b = gpu.block_id x
      %d = gpu.block_dim x
      %bd = arith.muli %b, %d : index
      %i = arith.addi %bd, %t : index
      %in = arith.cmpi ult, %i, %n : index
      scf.if %in {
        %x = memref.load %a[%i] : memref<?xf32>
        %kf = arith.sitofp %k : i32 to f32
        %y = arith.addf %x, %kf : f32
        memref.store %y, %a[%i] : memref<?xf32>
      }
      gpu.return
    }
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c6 = arith.constant 6 : index
    %c8 = arith.constant 8 : index
    %f = arith.constant 3.0 : f32
    %k = arith.constant 10 : i32
    %h = memref.alloc() : memref<8xf32>
    scf.for %i = %c0 to %c8 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %v = arith.sitofp %ii : i32 to f32
      memref.store %v, %h[%i] : memref<8xf32>
    }
    %a = gpu.alloc () : memref<8xf32>
    %b = gpu.alloc () : memref<8xf32>
    gpu.memcpy %a, %h : memref<8xf32>, memref<8xf32>
    gpu.launch_func @kernels::@scale blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%a : memref<8xf32>, %b : memref<8xf32>, %f : f32)
    %bd = memref.cast %b : memref<8xf32> to memref<?xf32>
    gpu.launch_func @kernels::@shift blocks in (%c2, %c1, %c1) threads in (%c4, %c1, %c1) args(%bd : memref<?xf32>, %c6 : index, %f : f32, %k : i32)
    gpu.memcpy %h, %b : memref<8xf32>, memref<8xf32>
    %u = memref.cast %h : memref<8xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
}
