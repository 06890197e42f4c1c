#!/bin/sh
# gpu.subgroup_mma on AMD chips without a matrix unit (gfx900, gfx906,
# gfx1030: gpucc's product over lane shuffles, device_mma_lanes.c) as the
# compiler reports it (glue around real tools):
#   lanes_targets.sh GPUCC OBJDUMP FATBIN SRCDIR
# 1. a tensor-core program builds for the three chips silently, wave64 on
#    gfx9 and wave32 on gfx1030 (the layout works in 32-lane groups, so
#    both), with no register spilled (the isa tests of CMakeLists.txt check
#    the instructions of every program);
# 2. a compute and a store in a kernel of unknown block size are guarded by
#    asserts that the block is whole 32-lane groups, whose messages (the
#    op's file:line, the target) are in the code object and end in s_trap;
#    with known_block_size a multiple of 32 the kernel has neither, nor any
#    scratch, and still its shuffles;
# 3. a fragment the layout does not hold (32x8) is a located error naming
#    op, target and shape;
# 4. --offload-arch=all (every target gpucc knows) builds a wmma program:
#    no target refuses it, and each AMD chip and the host carry its code.
set -eu
gpucc=$1 objdump=$2 fatbin=$3 src=$4
readelf=$(dirname "$objdump")/llvm-readelf
lib=$(cd "$(dirname "$0")/../lib" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export GPUCC_CACHE_DIR="$work/cache"
cd "$work"
. "$lib/hsaco_checks.sh"

# 1.
expect 0 --emit=hsaco --offload-arch=gfx900,gfx906,gfx1030 "$src/tc_matmul.mlir"
silent "tc_matmul on gfx900, gfx906, gfx1030"
for t in gfx900 gfx906 gfx1030; do
  "$readelf" --notes "tc_matmul-tc-$t.hsaco" >notes || fail "no hsaco for $t"
  case $t in gfx9*) wave=64 ;; *) wave=32 ;; esac
  grep -q "wavefront_size:[[:space:]]*$wave\$" notes || fail "tc_matmul on $t: not wave$wave"
  if grep "_spill_count:" notes | grep -qv ":[[:space:]]*0\$"; then fail "tc_matmul on $t: registers spilled"; fi
done

# 2. The program is compiled from a copy under a relative name, as
# hsaco_checks.sh explains.
cp "$src/mfma_known_block.mlir" .
for t in gfx906 gfx1030; do
  expect 0 --emit=hsaco --offload-arch="$t" mfma_known_block.mlir
  silent "mfma_known_block on $t"
  message mfma_known_block-k-"$t".hsaco "$t" "mfma_known_block.mlir:14: " \
    "Device-side assertion \`gpu.subgroup_mma_compute on target '$t' needs whole groups of 32 threads"
  message mfma_known_block-s-"$t".hsaco "$t" "mfma_known_block.mlir:34: " \
    "Device-side assertion \`gpu.subgroup_mma_store_matrix on target '$t' needs whole groups of 32"
  "$objdump" -d --mcpu="$t" mfma_known_block-n-"$t".hsaco >n.s
  grep -q ds_bpermute_b32 n.s || fail "$t: no shuffles in the kernel of known block size"
  if grep -q "s_trap\|v_mfma_\|v_wmma_" n.s; then fail "$t: a trap or matrix instruction in the kernel of known block size"; fi
  "$readelf" --notes mfma_known_block-n-"$t".hsaco | grep -q "private_segment_fixed_size: 0$" ||
    fail "$t: scratch in the kernel of known block size"
done

# 3.
expect 1 --emit=hsaco --offload-arch=gfx1030 "$src/mfma_shape.mlir"
has "mfma_shape.mlir:7:7: error: cannot lower 'gpu.subgroup_mma_store_matrix' for target 'gfx1030': gpucc's matrix lowering for chips without a matrix unit takes 16x16 matrices"
has "not 32x8xf16"

# 4.
expect 0 --offload-arch=all -c "$src/tc_matmul.mlir" -o all.o
if grep -q "error\|needs an" err; then cat err >&2; fail "--offload-arch=all: refused"; fi
"$fatbin" list all.o >list || fail "gpucc-fatbin list failed"
for t in gfx900 gfx906 gfx908 gfx90a gfx942 gfx950 gfx1030 gfx1100 gfx1101 gfx1102 gfx1200 gfx1201; do
  grep -q "^tc[[:space:]]*amd[[:space:]]*$t[[:space:]]*hsaco" list || fail "--offload-arch=all: no $t code"
done
grep -q "^tc[[:space:]]*host[[:space:]]*host" list || fail "--offload-arch=all: no host code"
echo "ok: lanes targets"
