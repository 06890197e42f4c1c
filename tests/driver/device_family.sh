#!/bin/sh
# One optimization per chip family (lowering/device_family.c): sm_80 and
# sm_90, gfx90a and gfx942 are lowered and optimized once per family, code
# generated per chip. Each chip's objects must be the same bytes as its own
# build gives, whether the family shares the optimization (plain.mlir), only
# the lowering (math.mlir: device-library calls, optimized per chip), or
# nothing (lanes.mlir: lane ops, whose lowering reads the chip).
# Usage: device_family.sh GPUCC PLAIN.mlir MATH.mlir LANES.mlir
set -eu
gpucc=$1 plain=$2 math=$3 lanes=$4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export GPUCC_CACHE_DIR=
fail=0

# Builds $2 for the targets $3 in $work/$1, keeping the device files; the
# number of device-code rows of -ftime-report (one per device job) in rows.
build() {
  mkdir -p "$work/$1"
  (cd "$work/$1" && "$gpucc" -O2 --offload-arch="$3" -save-temps -ftime-report -c "$2" -o p.o \
    2>report.txt) || { cat "$work/$1/report.txt" >&2; echo "FAIL: $3 build of $2" >&2; exit 1; }
  rows=$(grep -c '^  device code' "$work/$1/report.txt" || true)
}

# The objects of each chip on its own (sm_80 with gfx90a, sm_90 with
# gfx942: no two of one family) against the family build in $work/$1.
compare() {
  fam=$1 prog=$2
  for pair in sm_80,gfx90a sm_90,gfx942; do
    build "$fam-$pair" "$prog" "$pair"
    [ "$rows" -eq 2 ] || { echo "FAIL: $pair of $prog: $rows device jobs, expected 2" >&2; fail=1; }
    n=0
    for f in "$work/$fam-$pair"/p-*; do
      case $f in *.ptx | *.cubin | *.hsaco) n=$((n + 1)) ;; *) continue ;; esac
      if cmp -s "$f" "$work/$fam/$(basename "$f")"; then :; else
        echo "FAIL: $(basename "$f") of $prog differs between its own build and the family's" >&2
        fail=1
      fi
    done
    [ $n -ge 2 ] || { echo "FAIL: $pair of $prog: $n device files compared" >&2; fail=1; }
  done
}

build plain "$plain" sm_80,sm_90,gfx90a,gfx942
[ "$rows" -eq 2 ] || { echo "FAIL: $plain: $rows device jobs for two families, expected 2" >&2; fail=1; }
compare plain "$plain"

build math "$math" sm_80,sm_90,gfx90a,gfx942
[ "$rows" -eq 2 ] || { echo "FAIL: $math: $rows device jobs for two families, expected 2" >&2; fail=1; }
compare math "$math"

build lanes "$lanes" gfx90a,gfx942
[ "$rows" -eq 2 ] || { echo "FAIL: $lanes uses lane ops: $rows device jobs, expected one per chip" >&2; fail=1; }

[ $fail -eq 0 ] && echo "ok: family objects are byte-identical to each chip's own"
exit $fail
