#!/bin/sh
# gpu.subgroup_mma on CDNA as the compiler reports it (glue around real
# tools):
#   mfma_targets.sh GPUCC OBJDUMP SRCDIR
# 1. a program for 64-thread blocks builds for gfx90a and gfx942 (the
#    default AMD targets), silently: the old "needs an NVIDIA, gfx11, gfx12
#    or host target" refusal is gone;
# 2. a chip without a matrix unit (gfx906) compiles it too, silently,
#    with gpucc's lane-shuffle product (lanes_targets.sh checks those
#    chips further);
# 3. a fragment no MFMA holds (32x8) and ui8 operands (MFMA multiplies
#    signed bytes only) get located errors naming op and target;
# 4. a compute and a store in a kernel of unknown block size are guarded
#    by asserts whose messages (file:line of the op, the target) are in the
#    code object and end in s_trap; with known_block_size a multiple of 64
#    the kernel has neither, nor any scratch.
set -eu
gpucc=$1 objdump=$2 src=$3
readelf=$(dirname "$objdump")/llvm-readelf
lib=$(cd "$(dirname "$0")/../lib" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export GPUCC_CACHE_DIR="$work/cache"
cd "$work"
. "$lib/hsaco_checks.sh"

# 1.
expect 0 --emit=hsaco --offload-arch=gfx90a,gfx942 "$src/tc_wave64.mlir"
[ ! -s err ] || { cat err >&2; fail "messages for gfx90a,gfx942"; }
ls tc_wave64-tc-gfx90a.hsaco tc_wave64-tc-gfx942.hsaco >/dev/null || fail "no hsaco for gfx90a, gfx942"

# 2.
expect 0 --emit=hsaco --offload-arch=gfx906 "$src/tc_wave64.mlir"
[ ! -s err ] || { cat err >&2; fail "messages for gfx906"; }
if grep -q "needs an NVIDIA" err; then fail "the old refusal"; fi

# 3.
expect 1 --emit=hsaco --offload-arch=gfx942 "$src/mfma_shape.mlir"
has "mfma_shape.mlir:7:7: error: cannot lower 'gpu.subgroup_mma_store_matrix' for target 'gfx942': MFMA takes 16x16 matrices"
has "not 32x8xf16"
expect 1 --emit=hsaco --offload-arch=gfx90a "$src/mfma_ui8.mlir"
has "mfma_ui8.mlir:11:13: error: cannot lower 'gpu.subgroup_mma_compute' for target 'gfx90a': MFMA multiplies signed 8-bit integers only (si8), not ui8"

# 4. The program is compiled from a copy under a relative name, as
# hsaco_checks.sh explains.
cp "$src/mfma_known_block.mlir" .
for t in gfx90a gfx942; do
  expect 0 --emit=hsaco --offload-arch="$t" mfma_known_block.mlir
  message mfma_known_block-k-"$t".hsaco "$t" "mfma_known_block.mlir:14: " \
    "Device-side assertion \`gpu.subgroup_mma_compute on target '$t' needs whole wavefronts of"
  message mfma_known_block-s-"$t".hsaco "$t" "mfma_known_block.mlir:34: " \
    "Device-side assertion \`gpu.subgroup_mma_store_matrix on target '$t' needs whole wavefronts of"
  "$objdump" -d --mcpu="$t" mfma_known_block-k-"$t".hsaco | grep -q v_mfma_ || fail "$t: no v_mfma"
  "$objdump" -d --mcpu="$t" mfma_known_block-n-"$t".hsaco >n.s
  grep -q v_mfma_ n.s || fail "$t: no v_mfma in the kernel of known block size"
  if grep -q s_trap n.s; then fail "$t: a trap although known_block_size is whole wavefronts"; fi
  "$readelf" --notes mfma_known_block-n-"$t".hsaco | grep -q "private_segment_fixed_size: 0$" ||
    fail "$t: scratch in the kernel of known block size"
done
echo "ok: mfma targets"
