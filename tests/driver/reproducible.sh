#!/bin/sh
# The same input and flags give byte-identical objects, fat binaries and
# executables, whatever the working directory, the temp directory, the way
# the input path is spelled, the time, or how many jobs run at once (-j).
# Usage: reproducible.sh GPUCC PROGRAM.mlir
set -eu
gpucc=$1 prog=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/a/tmp" "$work/b/deep/dir" "$work/b/tmp"
# No device cache: both builds must really compile.
export GPUCC_CACHE_DIR=
cp "$prog" "$work/a/p.mlir"
cp "$prog" "$work/b/deep/dir/p.mlir"
flags="--offload-arch=sm_80,sm_90,gfx90a,gfx942,host"

(cd "$work/a" && TMPDIR="$work/a/tmp" "$gpucc" $flags -c p.mlir -o p.o &&
  TMPDIR="$work/a/tmp" "$gpucc" $flags --emit=fatbin p.mlir &&
  TMPDIR="$work/a/tmp" "$gpucc" $flags p.mlir -o app)
sleep 1 # a different second, in case anything stamps the time
(cd "$work/b" && TMPDIR="$work/b/tmp" "$gpucc" $flags -j 1 -c "$work/b/deep/dir/p.mlir" -o p.o &&
  TMPDIR="$work/b/tmp" "$gpucc" $flags -j 3 --emit=fatbin deep/dir/p.mlir &&
  TMPDIR="$work/b/tmp" "$gpucc" $flags -j 1 deep/dir/p.mlir -o app)

fail=0
for f in p.o app; do
  cmp "$work/a/$f" "$work/b/$f" || { echo "FAIL: $f differs between the two builds" >&2; fail=1; }
done
for f in "$work"/a/*.gpucc-fatbin; do
  cmp "$f" "$work/b/$(basename "$f")" || { echo "FAIL: $(basename "$f") differs" >&2; fail=1; }
done
[ $fail -eq 0 ] && echo "ok: object, fat binaries and executable are byte-identical"
exit $fail
