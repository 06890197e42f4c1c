#!/bin/sh
# One program's rewrite for each chip asked (glue around real tools):
#   rewrite_one.sh REWRITE_TOOL GPUCC SRCDIR PROGRAM CHIP=COUNTS... [run=CHIP]
# 1. contract_wmma_rewrite (device_contract_wmma.c as NVIDIA's device job
#    runs it for CHIP, e.g. sm_90) rewrites PROGRAM.mlir's contractions:
#    its "module count" lines, joined by spaces, must be COUNTS
#    (e.g. sm_75="bf16 0 loop 0"): the chip limits hold;
# 2. with run=CHIP, the program as rewritten for CHIP compiled for the host
#    target, where gpu.subgroup_mma ops run on the CPU, prints PROGRAM.out:
#    the warp's version computes what the per-thread one does. (bf16's warp
#    version calls NVIDIA's intrinsics: no host run for it.)
set -eu
tool=$1 gpucc=$2 src=$3 prog=$4
shift 4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/tmp"
export GPUCC_CACHE_DIR="$work/cache" TMPDIR="$work/tmp"
fail() { echo "FAIL: $prog: $*" >&2; exit 1; }

run=
for arg in "$@"; do
  case $arg in
  run=*) run=${arg#run=} ;;
  *=*)
    chip=${arg%%=*} want=${arg#*=}
    "$tool" "$src/$prog.mlir" "$work/$chip.mlir" "$chip" >"$work/counts" || fail "rewrite for $chip failed"
    got=$(paste -sd' ' "$work/counts")
    [ "$got" = "$want" ] || fail "$chip: rewritten '$got', expected '$want'"
    ;;
  *) fail "bad argument '$arg'" ;;
  esac
done

if [ -n "$run" ]; then
  [ -f "$work/$run.mlir" ] || fail "run=$run names no chip rewritten above"
  grep -q "gpu.subgroup_mma_compute" "$work/$run.mlir" || fail "no gpu.subgroup_mma_compute for $run"
  "$gpucc" --offload-arch=host "$work/$run.mlir" -o "$work/app" || fail "gpucc failed on the rewritten program"
  GPUCC_BACKEND=host "$work/app" >"$work/out" || fail "the rewritten program failed"
  diff -u "$src/$prog.out" "$work/out" || fail "the rewritten program's output differs"
fi
echo "ok"
