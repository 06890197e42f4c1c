#!/bin/sh
# `cmake --install` gives bin/gpucc, bin/gpucc-fatbin and lib/libgpucc_rt.so
# under a prefix, and the installed gpucc finds its installed runtime with no
# environment variable. Usage: install.sh CMAKE BUILD_DIR PROGRAM.mlir
set -eu
cmake=$1 build=$2 prog=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# A private device cache: tests must not read or fill the user's.
export GPUCC_CACHE_DIR="$work/cache"
"$cmake" --install "$build" --prefix "$work/prefix" >"$work/log" 2>&1 || { cat "$work/log" >&2; exit 1; }
for f in bin/gpucc bin/gpucc-fatbin lib/libgpucc_rt.so; do
  [ -e "$work/prefix/$f" ] || { echo "FAIL: $f not installed" >&2; exit 1; }
done
cd "$work"
env -u LD_LIBRARY_PATH "$work/prefix/bin/gpucc" --offload-arch=host "$prog" -o app
# The executable must use the installed runtime, not the build tree's.
ldd ./app | grep -q "libgpucc_rt.so.* => $work/prefix/lib/" || { ldd ./app >&2; echo "FAIL: not linked against the installed runtime" >&2; exit 1; }
./app | grep -q '^\[3,  3,' || { echo "FAIL: installed build does not run" >&2; exit 1; }
echo "ok: installed gpucc builds and runs against its installed runtime"
