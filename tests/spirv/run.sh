#!/bin/sh
# The programs that fit SPIR-V, built for spirv and the host, run on
# Vulkan (GPUCC_BACKEND=vulkan: lavapipe here) with the host backend's
# output:
#   run.sh GPUCC TESTS_DIR
# Skips (77) where the runtime has no Vulkan backend or no Vulkan device
# answers (the runtime's message says which).
set -eu
gpucc=$1 tests=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
export GPUCC_CACHE_DIR="$work/cache"
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-/tmp}"
. "$tests/lib/check.sh"

programs="spirv/vadd spirv/scalars spirv/atomics spirv/math spirv/types spirv/extended spirv/known_block spirv/timing e2e/shared_barrier
  e2e/tree_reduce e2e/attributions e2e/affine_kernel e2e/two_modules e2e/strided_views
  e2e/complex_kernel e2e/device_ids_in_functions e2e/workgroup_alloc e2e/subview_dynamic e2e/async_gpu e2e/grid_3d"
first=1
for p in $programs; do
  prog=$(basename "$p")
  "$gpucc" --offload-arch=spirv,host "$tests/$p.mlir" -o "$prog" 2>err && rc=0 || rc=$?
  check "build_$prog" test "$rc" -eq 0
  [ "$rc" -eq 0 ] || { cat err >&2; continue; }
  GPUCC_BACKEND=host "./$prog" >"$prog.host" 2>&1 || true
  GPUCC_BACKEND=vulkan "./$prog" >"$prog.vk" 2>&1 && rc=0 || rc=$?
  if [ "$first" -eq 1 ] && [ "$rc" -ne 0 ] &&
    grep -q "is not a backend\|no GPU found\|libvulkan" "$prog.vk"; then
    echo "skip: $(head -1 "$prog.vk")"
    exit 77
  fi
  first=0
  # printMemref's first line names the buffer's host address.
  sed 's/base@ = 0x[0-9a-f]*/base@ = ADDR/' "$prog.host" >"$prog.host.n"
  sed 's/base@ = 0x[0-9a-f]*/base@ = ADDR/' "$prog.vk" >"$prog.vk.n"
  check "same_$prog" sh -c "test $rc -eq 0 && cmp -s $prog.host.n $prog.vk.n"
  cmp -s "$prog.host.n" "$prog.vk.n" || diff "$prog.host.n" "$prog.vk.n" | head -5 >&2 || true
done
checks_done
