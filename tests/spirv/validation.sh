#!/bin/sh
# gpucc's SPIR-V and the Vulkan backend's use of it under the Khronos
# validation layer: programs built for spirv run on Vulkan (lavapipe here)
# with the layer loaded, exit 0 and draw no message from it.
#   validation.sh GPUCC TESTS_DIR
# Skips (77) where no Vulkan device answers.
set -eu
gpucc=$1 tests=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
export GPUCC_CACHE_DIR="$work/cache"
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-/tmp}"
export GPUCC_BACKEND=vulkan VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation
. "$tests/lib/check.sh"

first=1
for p in spirv/own_module spirv/vadd spirv/scalars spirv/atomics spirv/types spirv/extended \
  spirv/known_block e2e/shared_barrier e2e/grid_3d e2e/two_modules e2e/async_gpu; do
  prog=$(basename "$p")
  "$gpucc" --offload-arch=spirv "$tests/$p.mlir" -o "$prog" 2>err && rc=0 || rc=$?
  check "build_$prog" test "$rc" -eq 0
  [ "$rc" -eq 0 ] || { cat err >&2; continue; }
  "./$prog" >"$prog.out" 2>&1 && rc=0 || rc=$?
  if [ "$first" -eq 1 ] && [ "$rc" -ne 0 ] && grep -q "is not a backend\|no GPU found\|libvulkan" "$prog.out"; then
    echo "skip: $(head -1 "$prog.out")"
    exit 77
  fi
  first=0
  check "clean_$prog" sh -c "test $rc -eq 0 && ! grep -q 'VUID\|Validation Error\|UNASSIGNED' $prog.out"
  grep 'VUID\|Validation Error\|UNASSIGNED' "$prog.out" | head -3 >&2 || true
done
checks_done
