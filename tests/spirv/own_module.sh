#!/bin/sh
# A program that carries its own SPIR-V (the spirv.module MLIR's
# convert-gpu-to-spirv makes of its gpu.module, beside it): the spirv
# target uses it, given gpucc's kernel ABI; every other target ignores it.
#   own_module.sh GPUCC TESTS_DIR
# own_module.mlir's SPIR-V adds 1 where its gpu.func does not, so the
# output says whose code ran. Also: the cache key covers the program's
# SPIR-V; SPIR-V for OpenCL is set aside with a warning; a spirv.module of
# no gpu.module is dropped with a warning; what cannot be matched is a
# located error. The Vulkan runs skip where no Vulkan device answers.
set -eu
gpucc=$1 tests=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
export GPUCC_CACHE_DIR="$work/cache"
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-/tmp}"
. "$tests/lib/check.sh"
src="$tests/spirv/own_module.mlir"
gpus='^\[10,  13,  16,  19,  22,  25,  18,  21\]$'  # the gpu.module's kernels
own='^\[11,  14,  17,  20,  23,  26,  19,  22\]$'   # the program's SPIR-V

# vulkan_runs NAME APP PATTERN: the app's output on Vulkan matches, unless
# no Vulkan device answers here.
vulkan_runs() {
  GPUCC_BACKEND=vulkan "./$2" >"$1.out" 2>&1 && rc=0 || rc=$?
  if [ "$rc" -ne 0 ] && grep -q "is not a backend\|no GPU found\|libvulkan" "$1.out"; then
    echo "skip $1: $(head -1 "$1.out")"
    return
  fi
  check "$1" sh -c "test $rc -eq 0 && grep -q '$3' $1.out"
  grep -q "$3" "$1.out" || cat "$1.out" >&2
}

# refused NAME FILE PATTERN: the spirv target fails with PATTERN, writing
# nothing; the host target still builds the program.
refused() {
  "$gpucc" --emit=spirv --offload-arch=spirv "$2" 2>"$1.err" && rc=0 || rc=$?
  check "$1" sh -c "test $rc -eq 1 && grep -q \"$3\" $1.err && ! ls $(basename "$2" .mlir)-*.spirv >/dev/null 2>&1"
  grep -q "$3" "$1.err" || cat "$1.err" >&2
}
"$gpucc" --offload-arch=spirv,host "$src" -o app 2>err && rc=0 || rc=$?
check builds sh -c "test $rc -eq 0 && ! test -s err"
[ "$rc" -eq 0 ] || cat err >&2
GPUCC_BACKEND=host ./app >host.out 2>&1 || true
check host_runs_gpu_module grep -q "$gpus" host.out
vulkan_runs vulkan_runs_own_spirv app "$own"

"$gpucc" --emit=spirv --offload-arch=spirv "$src" 2>err && rc=0 || rc=$?
check emits_spirv sh -c "test $rc -eq 0 && test -f own_module-kernels-spirv.spirv"
if command -v spirv-dis >/dev/null 2>&1; then
  spirv-val --target-env vulkan1.2 own_module-kernels-spirv.spirv
  check spirv_valid spirv-val --target-env vulkan1.2 own_module-kernels-spirv.spirv
  spirv-dis own_module-kernels-spirv.spirv >dis
  # The program's workgroup size, and gpucc's parameters (push constants,
  # buffer device addresses) in place of its descriptors.
  check own_local_size grep -q 'OpExecutionMode %scale LocalSize 8 1 1' dis
  check push_constants grep -q 'OpVariable %[A-Za-z0-9_]* PushConstant' dis
  check no_descriptors sh -c "! grep -q 'DescriptorSet\|Pointer StorageBuffer ' dis"
fi

# The other kinds ignore it (the NVIDIA one as far as PTX, without ptxas).
"$gpucc" --emit=ptx --offload-arch=sm_90 "$src" 2>err && rc=0 || rc=$?
check nvidia_ignores sh -c "test $rc -eq 0 && grep -q '.entry scale' own_module-kernels-sm_90.ptx && ! test -s err"

# A change to the program's SPIR-V alone is a new build, not a cache hit.
sed 's/spirv.Constant 1.0 : f32/spirv.Constant 5.0 : f32/' "$src" >changed.mlir
"$gpucc" --offload-arch=spirv,host changed.mlir -o changed 2>err && rc=0 || rc=$?
check changed_builds test "$rc" -eq 0
vulkan_runs cache_sees_spirv_change changed '^\[15,  18,  21,  24,  27,  30,  23,  26\]$'
"$gpucc" --emit=spirv --offload-arch=spirv changed.mlir 2>err
check changed_module_differs sh -c "! cmp -s changed-kernels-spirv.spirv own_module-kernels-spirv.spirv"

# What spirv refuses in a gpu.module (printf) is no matter where the
# program brings its own SPIR-V for that module.
sed 's/^      %y = arith.mulf %x, %f : f32$/&\n      gpu.printf "y %f\\n", %y : f32/' "$src" >printf.mlir
"$gpucc" --offload-arch=spirv,host printf.mlir -o printf 2>err && rc=0 || rc=$?
check printf_module_builds sh -c "test $rc -eq 0 && grep -q gpu.printf printf.mlir"
[ "$rc" -eq 0 ] || cat err >&2
vulkan_runs printf_module_runs_own_spirv printf "$own"
sed 's/spirv.module @__spv__kernels /spirv.module @__spv__other /' printf.mlir >printf_alone.mlir
refused printf_still_refused printf_alone.mlir "'gpu.printf' needs a target with device printf"

# SPIR-V for OpenCL is no use to Vulkan: gpucc lowers the gpu.module.
sed 's/spirv.module @__spv__kernels Logical GLSL450 {/spirv.module @__spv__kernels Physical64 OpenCL requires #spirv.vce<v1.0, [Kernel, Addresses], []> {/' \
  "$src" >opencl.mlir
"$gpucc" --offload-arch=spirv,host opencl.mlir -o opencl 2>err && rc=0 || rc=$?
check opencl_warns sh -c "test $rc -eq 0 && grep -q 'opencl.mlir:8:3: warning: .*SPIR-V for OpenCL.*lowers gpu.module .@kernels. itself' err"
vulkan_runs opencl_runs_gpu_module opencl "$gpus"

# A spirv.module that lowers no gpu.module: dropped, with a warning.
sed 's/@__spv__kernels/@__spv__elsewhere/' "$src" >stray.mlir
"$gpucc" --offload-arch=host stray.mlir -o stray 2>err && rc=0 || rc=$?
check stray_warns sh -c "test $rc -eq 0 && grep -q \"stray.mlir:8:3: warning: spirv.module '@__spv__elsewhere' lowers no gpu.module\" err"
"$gpucc" -Werror --offload-arch=host stray.mlir -o stray2 2>err && rc=0 || rc=$?
check stray_werror sh -c "test $rc -eq 1 && ! test -e stray2"
sed 's/spirv.module @__spv__kernels /spirv.module /' "$src" >anonymous.mlir
"$gpucc" --offload-arch=host anonymous.mlir -o anonymous 2>err && rc=0 || rc=$?
check anonymous_warns sh -c "test $rc -eq 0 && grep -q 'anonymous.mlir:8:3: warning: spirv.module lowers no gpu.module' err"

sed 's/spirv.func @shift(/spirv.func @shift_renamed(/' "$src" >noentry.mlir
refused no_entry noentry.mlir "noentry.mlir:[0-9]*:5: error: kernel 'shift' has no entry point in the program's spirv.module '@__spv__kernels'"
# An entry point declared, not defined.
sed 's/^    spirv.func @scale(.*/    spirv.func @scale(%arg0: f32) "None" attributes {spirv.entry_point_abi = #spirv.entry_point_abi<>, linkage_attributes=#spirv.linkage_attributes<linkage_name="scale", linkage_type=<Import>>}\n    spirv.func @scale_body(%arg0: !spirv.ptr<!spirv.struct<(!spirv.array<8 x f32, stride=4> [0])>, StorageBuffer>, %arg1: !spirv.ptr<!spirv.struct<(!spirv.array<8 x f32, stride=4> [0])>, StorageBuffer>, %arg2: f32) "None" {/' "$src" >declared.mlir
refused declared_only declared.mlir "declared.mlir:[0-9]*:5: error: entry point 'scale' of the program's SPIR-V has no body"
# The SPIR-V reads the argument the gpu.func never reads (no launch passes it).
sed 's/%11 = spirv.ConvertSToF %arg3 : i32 to f32/%11 = spirv.FMul %arg2, %arg2 : f32/' "$src" >unread.mlir
refused reads_unpassed unread.mlir "unread.mlir:[0-9]*:5: error: the program's SPIR-V kernel 'shift' reads argument 2, which its gpu.func never reads"
# A scalar where the gpu.func has a memref.
sed 's/gpu.func @scale(%in: memref<8xf32>, %out: memref<8xf32>, %f: f32)/gpu.func @scale(%in: memref<8xf32>, %out: memref<8xf32>, %f: memref<1xf32>)/; s/%y = arith.mulf %x, %f : f32/%fv = memref.load %f[%t] : memref<1xf32>\n      %y = arith.mulf %x, %fv : f32/' \
  "$src" | sed '/launch_func @kernels::@scale/d; /launch_func @kernels::@shift/d' >mismatch.mlir
refused kind_mismatch mismatch.mlir "error: argument 2 of the program's SPIR-V kernel 'scale' is not a buffer, but the gpu.func's is a memref"
# Already through spirv-lower-abi-attrs (own_module_lowered.mlir): the
# entry points get their arguments back, and the same code runs.
lowered="$tests/spirv/own_module_lowered.mlir"
"$gpucc" --offload-arch=spirv,host "$lowered" -o lowered 2>err && rc=0 || rc=$?
check lowered_builds sh -c "test $rc -eq 0 && ! test -s err"
[ "$rc" -eq 0 ] || cat err >&2
vulkan_runs lowered_runs_own_spirv lowered "$own"
if command -v spirv-dis >/dev/null 2>&1; then
  "$gpucc" --emit=spirv --offload-arch=spirv "$lowered" 2>err
  check lowered_valid spirv-val --target-env vulkan1.2 own_module_lowered-kernels-spirv.spirv
  spirv-dis own_module_lowered-kernels-spirv.spirv >ldis
  check lowered_local_size grep -q 'OpExecutionMode %scale LocalSize 8 1 1' ldis
  check lowered_no_descriptors sh -c "! grep -q 'DescriptorSet\\|Pointer StorageBuffer ' ldis"
fi
# An entry point no kernel of the gpu.module is: nothing launches it, and
# it goes with its descriptors (which would keep the module from loading).
cat >extra.txt <<'END'
    spirv.GlobalVariable @extra_arg_0 bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.array<8 x f32, stride=4> [0])>, StorageBuffer>
    spirv.func @extra() "None" {
      %a = spirv.mlir.addressof @extra_arg_0 : !spirv.ptr<!spirv.struct<(!spirv.array<8 x f32, stride=4> [0])>, StorageBuffer>
      spirv.Return
    }
    spirv.EntryPoint "GLCompute" @extra
END
sed '/spirv.module @__spv__kernels Logical GLSL450 {/r extra.txt' "$lowered" >extra.mlir
"$gpucc" --offload-arch=spirv,host extra.mlir -o extra 2>err && rc=0 || rc=$?
check stray_entry_builds sh -c "test $rc -eq 0 && grep -q '@extra' extra.mlir"
vulkan_runs stray_entry_runs extra "$own"
# A descriptor set other than 0 is no argument of MLIR's conversion.
sed 's/@shift_arg_1 bind(0, 1)/@shift_arg_1 bind(1, 1)/' "$lowered" >set1.mlir
refused lowered_set1 set1.mlir "set1.mlir:[0-9]*:5: error: the program's SPIR-V kernel 'shift' reads a descriptor outside set 0"
checks_done
