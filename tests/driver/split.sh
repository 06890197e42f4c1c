#!/bin/sh
# Per-arch split: `--device-only --offload-arch=X -c` per target, then
# `--bundle` gives the same object as the one-shot build, byte for byte, and
# that object links and runs. Usage: split.sh GPUCC PROGRAM.mlir
set -eu
gpucc=$1 prog=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
export GPUCC_CACHE_DIR=
all=sm_80,sm_90,gfx90a,gfx942,host
"$gpucc" --offload-arch=$all -c "$prog" -o oneshot.o
for t in sm_80 sm_90 gfx90a gfx942 host; do
  "$gpucc" --device-only --offload-arch=$t -c "$prog" -o "p.$t.gpucc-device"
done
"$gpucc" --offload-arch=$all --bundle -c "$prog" p.*.gpucc-device -o split.o
cmp oneshot.o split.o || { echo "FAIL: split build differs from the one-shot build" >&2; exit 1; }
"$gpucc" split.o -o app
GPUCC_BACKEND=host ./app | grep -q '^\[11,  11,' || { echo "FAIL: split build does not run" >&2; exit 1; }
# Misuse is an error with a message, not a crash.
if "$gpucc" --bundle -c "$prog" -o x.o 2>err; then echo "FAIL: --bundle without inputs accepted" >&2; exit 1; fi
grep -q "needs .gpucc-device inputs" err || { cat err >&2; exit 1; }
if "$gpucc" --device-only "$prog" 2>err; then echo "FAIL: --device-only without -c accepted" >&2; exit 1; fi
echo "ok: split and one-shot objects are identical and run"
