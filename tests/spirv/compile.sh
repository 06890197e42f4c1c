#!/bin/sh
# The spirv target's modules against gpucc's Vulkan kernel ABI (glue
# around spirv-val and spirv-dis from SPIRV-Tools):
#   compile.sh GPUCC GPUCC_FATBIN TESTS_DIR
# 1. each program below compiles with --emit=spirv, and every module it
#    gives validates for Vulkan 1.2 (spirv-val --target-env vulkan1.2);
# 2. every module: SPIR-V 1.3, PhysicalStorageBuffer64 addressing, GLCompute
#    entry points, no descriptor set or binding anywhere;
# 3. vadd: one push-constant Block with members at 0, 8, 16 (buffers), 24
#    (f32) and 32 (index); the workgroup size is the composite of SpecId
#    0, 1, 2 decorated BuiltIn WorkgroupSize;
# 4. scalars: i8, i16, f64, i32 members at 8, 10, 16, 24, with the 8- and
#    16-bit push-constant capabilities; types: 8- and 16-bit storage and
#    Float64 declared;
# 5. atomics: on buffer device addresses (no StorageBuffer pointer left),
#    Int64Atomics for the 64-bit ones; known_block: LocalSize from known_block_size, no spec constants in a
#    module whose kernels all fix their size;
# 6. -c with spirv,host bundles the module as vendor vulkan, format spirv;
# 7. spirv is a known target (--list-gpu-arch) but neither in "all" nor in
#    the default targets: it refuses printf, atomics, subgroup and matrix
#    ops, which "all" would then refuse.
# Skips (77) without spirv-val or spirv-dis.
set -eu
gpucc=$1 fatbin=$2 tests=$3
command -v spirv-val >/dev/null 2>&1 && command -v spirv-dis >/dev/null 2>&1 || {
  echo "skip: spirv-val or spirv-dis missing (Debian: spirv-tools)"
  exit 77
}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
export GPUCC_CACHE_DIR="$work/cache"
. "$tests/lib/check.sh"

programs="spirv/vadd spirv/scalars spirv/atomics spirv/math spirv/types spirv/extended spirv/known_block spirv/timing e2e/shared_barrier
  e2e/tree_reduce e2e/attributions e2e/affine_kernel e2e/two_modules e2e/strided_views
  e2e/complex_kernel e2e/device_ids_in_functions e2e/workgroup_alloc e2e/subview_dynamic e2e/async_gpu e2e/grid_3d e2e/f16_math"
for p in $programs; do
  prog=$(basename "$p")
  "$gpucc" --emit=spirv --offload-arch=spirv "$tests/$p.mlir" 2>err && rc=0 || rc=$?
  check "compile_$prog" sh -c "test $rc -eq 0 && ! test -s err"
  [ "$rc" -eq 0 ] || { cat err >&2; continue; }
  for m in "$prog"-*.spirv; do
    check "exists_$m" test -f "$m"
    spirv-val --target-env vulkan1.2 "$m" 2>val.err && rc=0 || rc=$?
    check "valid_$m" test "$rc" -eq 0
    [ "$rc" -eq 0 ] || cat val.err >&2
    spirv-dis "$m" >"$m.dis"
    check "version_$m" grep -q '^; Version: 1\.3$' "$m.dis"
    check "addressing_$m" grep -q 'OpMemoryModel PhysicalStorageBuffer64 GLSL450' "$m.dis"
    check "entry_$m" grep -q 'OpEntryPoint GLCompute' "$m.dis"
    check "no_descriptors_$m" sh -c "! grep -q 'DescriptorSet\|Binding' '$m.dis'"
  done
done

# The members' offsets of the struct the PushConstant pointer points to.
push_offsets() {
  st=$(sed -n 's/.*= OpTypePointer PushConstant \(%[A-Za-z0-9_]*\).*/\1/p' "$1" | head -1)
  grep "OpMemberDecorate $st [0-9]* Offset" "$1" | awk '{printf "%s%s:%s", (NR > 1 ? " " : ""), $3, $5}'
}
check vadd_offsets test "$(push_offsets vadd-kernels-spirv.spirv.dis)" = "0:0 1:8 2:16 3:24 4:32"
check vadd_block grep -q "OpDecorate $(sed -n 's/.*= OpTypePointer PushConstant \(%[A-Za-z0-9_]*\).*/\1/p' \
  vadd-kernels-spirv.spirv.dis | head -1) Block" vadd-kernels-spirv.spirv.dis
check vadd_one_push_variable test "$(grep -c 'OpVariable %[A-Za-z0-9_]* PushConstant' vadd-kernels-spirv.spirv.dis)" -eq 1
for id in 0 1 2; do
  check "vadd_spec_id_$id" grep -q "OpDecorate %[A-Za-z0-9_]* SpecId $id\$" vadd-kernels-spirv.spirv.dis
done
check vadd_workgroup_size_builtin grep -q 'OpDecorate %[A-Za-z0-9_]* BuiltIn WorkgroupSize' vadd-kernels-spirv.spirv.dis
check vadd_composite grep -q 'OpSpecConstantComposite %v3uint' vadd-kernels-spirv.spirv.dis
check vadd_no_local_size sh -c "! grep -q LocalSize vadd-kernels-spirv.spirv.dis"
check scalars_offsets test "$(push_offsets scalars-kernels-spirv.spirv.dis)" = "0:0 1:8 2:10 3:16 4:24"
for cap in StoragePushConstant8 StoragePushConstant16; do
  check "scalars_cap_$cap" grep -q "OpCapability $cap\$" scalars-kernels-spirv.spirv.dis
done
check types_offsets test "$(push_offsets types-kernels-spirv.spirv.dis)" = "0:0 1:8 2:16 3:24"
for cap in StorageBuffer8BitAccess StorageBuffer16BitAccess Float64 Int8 Float16; do
  check "types_cap_$cap" grep -q "OpCapability $cap\$" types-kernels-spirv.spirv.dis
done
check known_local_size grep -q 'OpExecutionMode %fixed LocalSize 64 1 1' known_block-kernels-spirv.spirv.dis
check known_fixed_only grep -q 'OpExecutionMode %fixed2 LocalSize 32 2 1' known_block-fixed_only-spirv.spirv.dis
check known_fixed_only_no_spec sh -c "! grep -q 'SpecId' known_block-fixed_only-spirv.spirv.dis"
check known_any_spec grep -q 'BuiltIn WorkgroupSize' known_block-kernels-spirv.spirv.dis
check atomics_int64 grep -q 'OpCapability Int64Atomics$' atomics-kernels-spirv.spirv.dis
check atomics_on_addresses sh -c "grep -q 'OpAtomicIAdd' atomics-kernels-spirv.spirv.dis && ! grep -q 'OpTypePointer StorageBuffer' atomics-kernels-spirv.spirv.dis"
check extended_ops grep -q 'OpUMulExtended' extended-kernels-spirv.spirv.dis
check extended_signed grep -q 'OpSMulExtended' extended-kernels-spirv.spirv.dis
check math_glsl grep -q 'Exp\|Sqrt' math-kernels-spirv.spirv.dis

# 6.
"$gpucc" -c --offload-arch=spirv,host "$tests/spirv/vadd.mlir" -o vadd.o 2>err && rc=0 || rc=$?
check bundle_compiles sh -c "test $rc -eq 0 && ! test -s err"
"$fatbin" list vadd.o >list 2>&1 || true
check bundle_lists grep -q '^kernels[[:space:]]*vulkan[[:space:]]*spirv[[:space:]]*spirv' list

# 7.
"$gpucc" --list-gpu-arch >archs
check listed grep -qx spirv archs
"$gpucc" -### --offload-arch=all "$tests/spirv/vadd.mlir" -o all >all.cmds 2>&1 || true
check not_in_all sh -c "grep -q 'offload-arch=host' all.cmds && ! grep -q 'offload-arch=spirv' all.cmds"
"$gpucc" -### "$tests/spirv/vadd.mlir" -o default >default.cmds 2>&1 || true
check not_default sh -c "grep -q 'offload-arch=host' default.cmds && ! grep -q 'offload-arch=spirv' default.cmds"
# Its --emit stage is named where the stages are (from the kinds' rows).
"$gpucc" --help >help.txt
check emit_help grep -q -- '--emit=<stage> .*hsaco, spirv, fatbin' help.txt
"$gpucc" --emit=nothing "$tests/spirv/vadd.mlir" 2>emit.err || true
check emit_error grep -q "expected .*hsaco, spirv, fatbin or obj" emit.err
checks_done
