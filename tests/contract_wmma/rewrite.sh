#!/bin/sh
# The rewrite itself (glue around real tools):
#   rewrite.sh REWRITE_TOOL GPUCC SRCDIR
# 1. contract_wmma_rewrite (device_contract_wmma.c as NVIDIA's device job
#    runs it) rewrites each contraction of uniform.mlir, none of
#    thread_dependent.mlir: its count per gpu.module is checked;
# 2. the guarded kernel checks activemask, the one with known_block_size
#    does not, and both keep the per-thread contraction for the other case;
# 3. the rewritten uniform.mlir compiled for the host target, where
#    gpu.subgroup_mma ops run on the CPU, prints uniform.out: the warp's
#    version computes what the per-thread one does.
set -eu
tool=$1 gpucc=$2 src=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/tmp"
export GPUCC_CACHE_DIR="$work/cache" TMPDIR="$work/tmp"
fail() { echo "FAIL: $*" >&2; exit 1; }

"$tool" "$src/uniform.mlir" "$work/uniform.mlir" >"$work/counts" || fail "rewrite of uniform.mlir failed"
printf 'guarded 1\nknown 1\n' | diff -u - "$work/counts" || fail "uniform.mlir: contractions rewritten"
"$tool" "$src/thread_dependent.mlir" "$work/td.mlir" >"$work/counts" || fail "rewrite of thread_dependent.mlir failed"
printf 'by_thread 0\ndivergent 0\nloaded 0\nlane 0\nother_use 0\nprivate 0\n' | diff -u - "$work/counts" ||
  fail "thread_dependent.mlir: contractions rewritten"
grep -q "gpu.subgroup_mma" "$work/td.mlir" && fail "thread_dependent.mlir got gpu.subgroup_mma ops"

# 2. one module's text at a time
module() { sed -n "/gpu.module @$1 /,/^  }/p" "$work/uniform.mlir"; }
for m in guarded known; do
  module $m >"$work/$m"
  for op in subgroup_mma_load_matrix subgroup_mma_compute subgroup_mma_store_matrix vector.contract "} else {"; do
    grep -q "$op" "$work/$m" || fail "@$m: no '$op' after the rewrite"
  done
done
grep -q "llvm.nvvm.activemask" "$work/guarded" || fail "@guarded: no full-warp check"
grep -q "llvm.nvvm.activemask" "$work/known" && fail "@known: a full-warp check known_block_size rules out"

# 3. the warp's version on the CPU
"$gpucc" --offload-arch=host "$work/uniform.mlir" -o "$work/app" || fail "gpucc failed on the rewritten program"
GPUCC_BACKEND=host "$work/app" >"$work/out" || fail "the rewritten program failed"
diff -u "$src/uniform.out" "$work/out" || fail "the rewritten program's output differs"
echo "ok"
