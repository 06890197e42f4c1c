#!/bin/sh
# A program that carries its own top-level spirv.module beside its
# gpu.module (as some MLIR compilers emit): every target but spirv ignores
# it, and spirv compiles the gpu.module (gpucc's ABI; the program's module
# speaks upstream's descriptor ABI, which gpucc's runtime does not):
#   own_module.sh GPUCC TESTS_DIR
set -eu
gpucc=$1 tests=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
export GPUCC_CACHE_DIR="$work/cache"
. "$tests/lib/check.sh"

"$gpucc" --offload-arch=host "$tests/spirv/own_module.mlir" -o app 2>err && rc=0 || rc=$?
check host_builds sh -c "test $rc -eq 0 && ! test -s err"
[ "$rc" -eq 0 ] || cat err >&2
GPUCC_BACKEND=host ./app >out 2>&1 || true
check host_runs grep -q '^\[2.5,  2.5,  2.5,  2.5,  2.5,  2.5,  2.5,  2.5\]$' out
"$gpucc" --emit=spirv --offload-arch=spirv "$tests/spirv/own_module.mlir" 2>err && rc=0 || rc=$?
check spirv_builds sh -c "test $rc -eq 0 && test -f own_module-kernels-spirv.spirv"
if command -v spirv-dis >/dev/null 2>&1; then
  spirv-dis own_module-kernels-spirv.spirv >dis
  # gpucc's kernel (a push-constant block), not the program's (no store).
  check spirv_is_gpuccs grep -q 'OpVariable %[A-Za-z0-9_]* PushConstant' dis
fi
checks_done
