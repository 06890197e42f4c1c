#!/bin/sh
# `cmake --install` gives bin/gpucc, bin/gpucc-fatbin, lib/libgpucc_rt.so and
# lib/libgpucc_rt.a under a prefix, and the installed gpucc finds its
# installed runtime with no environment variable. Usage: install.sh CMAKE BUILD_DIR PROGRAM.mlir
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
[ -e "$work/prefix/lib/libgpucc_rt.a" ] || { echo "FAIL: lib/libgpucc_rt.a not installed" >&2; exit 1; }
# An executable carries the static runtime: nothing of gpucc's is needed
# where it runs.
env -u LD_LIBRARY_PATH "$work/prefix/bin/gpucc" --offload-arch=host "$prog" -o app
if ldd ./app | grep -q "libgpucc_rt"; then ldd ./app >&2; echo "FAIL: an executable needs libgpucc_rt.so" >&2; exit 1; fi
./app | grep -q '^\[3,  3,' || { echo "FAIL: installed build does not run" >&2; exit 1; }
# With --gpucc-rt=shared it must use the installed runtime, not the build tree's.
env -u LD_LIBRARY_PATH "$work/prefix/bin/gpucc" --gpucc-rt=shared --offload-arch=host "$prog" -o app_shared
ldd ./app_shared | grep -q "libgpucc_rt.so.* => $work/prefix/lib/" || { ldd ./app_shared >&2; echo "FAIL: not linked against the installed runtime" >&2; exit 1; }
./app_shared | grep -q '^\[3,  3,' || { echo "FAIL: installed shared-runtime build does not run" >&2; exit 1; }
echo "ok: installed gpucc builds static executables and, with --gpucc-rt=shared, ones that use its installed runtime"
