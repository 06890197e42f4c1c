#!/bin/sh
# The lane layout of AMD chips without a matrix unit, executed: lanes_program
# writes a program whose kernels run the lowering's own MLIR text (fragment
# positions, compute with its shuffles), gpucc builds it for the host, whose
# lanes shuffle as a GPU's do, and each combination must match main's plain
# matrix product (glue around real tools):
#   lanes_run.sh GPUCC LANES_PROGRAM [COMBINATION...]
# (f16f32 f64 i8i32 f16f16; all without any. The host backend compiles the
# unrolled products slowly, f64's twice as many shuffles slowest, so CTest
# runs f16f32 only.)
set -eu
gpucc=$1 writer=$2
shift 2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export GPUCC_CACHE_DIR="$work/cache"
fail() { echo "FAIL: $*" >&2; exit 1; }
cd "$work"
"$writer" "$@" >lanes.mlir || fail "lanes_program failed"
"$gpucc" --offload-arch=host lanes.mlir -o app || fail "gpucc failed"
LD_BIND_NOW=1 ./app >out || fail "the program failed"
cat out
[ -s out ] || fail "no output"
if grep -v " mismatches: 0\$" out; then fail "products differ from the plain matrix product"; fi
echo "ok: lanes run"
