// own_module.mlir after MLIR's spirv-lower-abi-attrs (mlir-opt-22
// --pass-pipeline='builtin.module(spirv.module(spirv-lower-abi-attrs))', with
// the target environment it needs): entry points without arguments,
// descriptor-bound variables, spirv.EntryPoint and spirv.ExecutionMode (own_module.sh).
module attributes {gpu.container_module, spirv.target_env = #spirv.target_env<#spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>} {
  spirv.module @__spv__kernels Logical GLSL450 {
    spirv.GlobalVariable @__builtin__WorkgroupSize__ built_in("WorkgroupSize") : !spirv.ptr<vector<3xi32>, Input>
    spirv.GlobalVariable @__builtin__WorkgroupId__ built_in("WorkgroupId") : !spirv.ptr<vector<3xi32>, Input>
    spirv.GlobalVariable @__builtin__LocalInvocationId__ built_in("LocalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
    spirv.GlobalVariable @scale_arg_0 bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.array<8 x f32, stride=4> [0])>, StorageBuffer>
    spirv.GlobalVariable @scale_arg_1 bind(0, 1) : !spirv.ptr<!spirv.struct<(!spirv.array<8 x f32, stride=4> [0])>, StorageBuffer>
    spirv.GlobalVariable @scale_arg_2 bind(0, 2) : !spirv.ptr<!spirv.struct<(f32 [0])>, StorageBuffer>
    spirv.func @scale() "None" {
      %scale_arg_0_addr = spirv.mlir.addressof @scale_arg_0 : !spirv.ptr<!spirv.struct<(!spirv.array<8 x f32, stride=4> [0])>, StorageBuffer>
      %scale_arg_1_addr = spirv.mlir.addressof @scale_arg_1 : !spirv.ptr<!spirv.struct<(!spirv.array<8 x f32, stride=4> [0])>, StorageBuffer>
      %scale_arg_2_addr = spirv.mlir.addressof @scale_arg_2 : !spirv.ptr<!spirv.struct<(f32 [0])>, StorageBuffer>
      %cst0_i32 = spirv.Constant 0 : i32
      %0 = spirv.AccessChain %scale_arg_2_addr[%cst0_i32] : !spirv.ptr<!spirv.struct<(f32 [0])>, StorageBuffer>, i32 -> !spirv.ptr<f32, StorageBuffer>
      %1 = spirv.Load "StorageBuffer" %0 : f32
      %__builtin__LocalInvocationId___addr = spirv.mlir.addressof @__builtin__LocalInvocationId__ : !spirv.ptr<vector<3xi32>, Input>
      %2 = spirv.Load "Input" %__builtin__LocalInvocationId___addr : vector<3xi32>
      %3 = spirv.CompositeExtract %2[0 : i32] : vector<3xi32>
      %cst0_i32_0 = spirv.Constant 0 : i32
      %4 = spirv.AccessChain %scale_arg_0_addr[%cst0_i32_0, %3] : !spirv.ptr<!spirv.struct<(!spirv.array<8 x f32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<f32, StorageBuffer>
      %5 = spirv.Load "StorageBuffer" %4 : f32
      %6 = spirv.FMul %5, %1 : f32
      %cst_f32 = spirv.Constant 1.000000e+00 : f32
      %7 = spirv.FAdd %6, %cst_f32 : f32
      %8 = spirv.AccessChain %scale_arg_1_addr[%cst0_i32_0, %3] : !spirv.ptr<!spirv.struct<(!spirv.array<8 x f32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<f32, StorageBuffer>
      spirv.Store "StorageBuffer" %8, %7 : f32
      spirv.Return
    }
    spirv.GlobalVariable @shift_arg_0 bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
    spirv.GlobalVariable @shift_arg_1 bind(0, 1) : !spirv.ptr<!spirv.struct<(i32 [0])>, StorageBuffer>
    spirv.GlobalVariable @shift_arg_2 bind(0, 2) : !spirv.ptr<!spirv.struct<(f32 [0])>, StorageBuffer>
    spirv.GlobalVariable @shift_arg_3 bind(0, 3) : !spirv.ptr<!spirv.struct<(i32 [0])>, StorageBuffer>
    spirv.func @shift() "None" {
      %shift_arg_0_addr = spirv.mlir.addressof @shift_arg_0 : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
      %shift_arg_1_addr = spirv.mlir.addressof @shift_arg_1 : !spirv.ptr<!spirv.struct<(i32 [0])>, StorageBuffer>
      %cst0_i32 = spirv.Constant 0 : i32
      %0 = spirv.AccessChain %shift_arg_1_addr[%cst0_i32] : !spirv.ptr<!spirv.struct<(i32 [0])>, StorageBuffer>, i32 -> !spirv.ptr<i32, StorageBuffer>
      %1 = spirv.Load "StorageBuffer" %0 : i32
      %shift_arg_2_addr = spirv.mlir.addressof @shift_arg_2 : !spirv.ptr<!spirv.struct<(f32 [0])>, StorageBuffer>
      %cst0_i32_0 = spirv.Constant 0 : i32
      %2 = spirv.AccessChain %shift_arg_2_addr[%cst0_i32_0] : !spirv.ptr<!spirv.struct<(f32 [0])>, StorageBuffer>, i32 -> !spirv.ptr<f32, StorageBuffer>
      %3 = spirv.Load "StorageBuffer" %2 : f32
      %shift_arg_3_addr = spirv.mlir.addressof @shift_arg_3 : !spirv.ptr<!spirv.struct<(i32 [0])>, StorageBuffer>
      %cst0_i32_1 = spirv.Constant 0 : i32
      %4 = spirv.AccessChain %shift_arg_3_addr[%cst0_i32_1] : !spirv.ptr<!spirv.struct<(i32 [0])>, StorageBuffer>, i32 -> !spirv.ptr<i32, StorageBuffer>
      %5 = spirv.Load "StorageBuffer" %4 : i32
      %__builtin__LocalInvocationId___addr = spirv.mlir.addressof @__builtin__LocalInvocationId__ : !spirv.ptr<vector<3xi32>, Input>
      %6 = spirv.Load "Input" %__builtin__LocalInvocationId___addr : vector<3xi32>
      %7 = spirv.CompositeExtract %6[0 : i32] : vector<3xi32>
      %__builtin__WorkgroupId___addr = spirv.mlir.addressof @__builtin__WorkgroupId__ : !spirv.ptr<vector<3xi32>, Input>
      %8 = spirv.Load "Input" %__builtin__WorkgroupId___addr : vector<3xi32>
      %9 = spirv.CompositeExtract %8[0 : i32] : vector<3xi32>
      %__builtin__WorkgroupSize___addr = spirv.mlir.addressof @__builtin__WorkgroupSize__ : !spirv.ptr<vector<3xi32>, Input>
      %10 = spirv.Load "Input" %__builtin__WorkgroupSize___addr : vector<3xi32>
      %11 = spirv.CompositeExtract %10[0 : i32] : vector<3xi32>
      %12 = spirv.IMul %9, %11 : i32
      %13 = spirv.IAdd %12, %7 : i32
      %14 = spirv.ULessThan %13, %1 : i32
      spirv.mlir.selection {
        spirv.BranchConditional %14, ^bb1, ^bb2
      ^bb1:  // pred: ^bb0
        %cst0_i32_2 = spirv.Constant 0 : i32
        %cst0_i32_3 = spirv.Constant 0 : i32
        %cst1_i32 = spirv.Constant 1 : i32
        %15 = spirv.AccessChain %shift_arg_0_addr[%cst0_i32_2, %13] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<f32, StorageBuffer>
        %16 = spirv.Load "StorageBuffer" %15 : f32
        %17 = spirv.ConvertSToF %5 : i32 to f32
        %18 = spirv.FAdd %16, %17 : f32
        %cst0_i32_4 = spirv.Constant 0 : i32
        %cst0_i32_5 = spirv.Constant 0 : i32
        %cst1_i32_6 = spirv.Constant 1 : i32
        %19 = spirv.AccessChain %shift_arg_0_addr[%cst0_i32_4, %13] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<f32, StorageBuffer>
        spirv.Store "StorageBuffer" %19, %18 : f32
        spirv.Branch ^bb2
      ^bb2:  // 2 preds: ^bb0, ^bb1
        spirv.mlir.merge
      }
      spirv.Return
    }
    spirv.EntryPoint "GLCompute" @scale, @__builtin__LocalInvocationId__
    spirv.ExecutionMode @scale "LocalSize", 8, 1, 1
    spirv.EntryPoint "GLCompute" @shift, @__builtin__LocalInvocationId__, @__builtin__WorkgroupId__, @__builtin__WorkgroupSize__
  }
  gpu.module @kernels {
    gpu.func @scale(%arg0: memref<8xf32>, %arg1: memref<8xf32>, %arg2: f32) kernel {
      %thread_id_x = gpu.thread_id  x
      %0 = memref.load %arg0[%thread_id_x] : memref<8xf32>
      %1 = arith.mulf %0, %arg2 : f32
      memref.store %1, %arg1[%thread_id_x] : memref<8xf32>
      gpu.return
    }
    gpu.func @shift(%arg0: memref<?xf32>, %arg1: index, %arg2: f32, %arg3: i32) kernel {
      %thread_id_x = gpu.thread_id  x
      %block_id_x = gpu.block_id  x
      %block_dim_x = gpu.block_dim  x
      %0 = arith.muli %block_id_x, %block_dim_x : index
      %1 = arith.addi %0, %thread_id_x : index
      %2 = arith.cmpi ult, %1, %arg1 : index
      scf.if %2 {
        %3 = memref.load %arg0[%1] : memref<?xf32>
        %4 = arith.sitofp %arg3 : i32 to f32
        %5 = arith.addf %3, %4 : f32
        memref.store %5, %arg0[%1] : memref<?xf32>
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
    %cst = arith.constant 3.000000e+00 : f32
    %c10_i32 = arith.constant 10 : i32
    %alloc = memref.alloc() : memref<8xf32>
    scf.for %arg0 = %c0 to %c8 step %c1 {
      %0 = arith.index_cast %arg0 : index to i32
      %1 = arith.sitofp %0 : i32 to f32
      memref.store %1, %alloc[%arg0] : memref<8xf32>
    }
    %memref = gpu.alloc  () : memref<8xf32>
    %memref_0 = gpu.alloc  () : memref<8xf32>
    gpu.memcpy  %memref, %alloc : memref<8xf32>, memref<8xf32>
    gpu.launch_func  @kernels::@scale blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1)  args(%memref : memref<8xf32>, %memref_0 : memref<8xf32>, %cst : f32)
    %cast = memref.cast %memref_0 : memref<8xf32> to memref<?xf32>
    gpu.launch_func  @kernels::@shift blocks in (%c2, %c1, %c1) threads in (%c4, %c1, %c1)  args(%cast : memref<?xf32>, %c6 : index, %cst : f32, %c10_i32 : i32)
    gpu.memcpy  %alloc, %memref_0 : memref<8xf32>, memref<8xf32>
    %cast_1 = memref.cast %alloc : memref<8xf32> to memref<*xf32>
    call @printMemrefF32(%cast_1) : (memref<*xf32>) -> ()
    return
  }
}

