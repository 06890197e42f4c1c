#!/bin/sh
# Damaged MLIR bytecode (issue 22): the e2e programs as bytecode (mlir-opt
# --emit-bytecode), then fuzz.sh's checks on mutants with bits flipped,
# bytes lost, the file cut short and varints (lengths, counts) maxed out.
# Each must be a clean error or build: no signal, no exit 70, no litter.
#   bytecode.sh GPUCC MUTATE MLIR_OPT E2E_DIR
set -u
gpucc=$1 mutate=$2 mlir_opt=$3 e2e=$4
[ -x "$mlir_opt" ] || { echo "no mlir-opt: skipped"; exit 77; }
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# A few programs suffice: the reader sees the same sections in each.
for p in big_block atomics reduce_dynsmem tensor_gpu_calls kernel_abi workgroup_alloc; do
  "$mlir_opt" --emit-bytecode "$e2e/$p.mlir" -o "$work/$p.mlir" 2>/dev/null || rm -f "$work/$p.mlir"
done
[ -n "$(ls "$work")" ] || { echo "FAIL: mlir-opt made no bytecode"; exit 1; }
# What the reader says of a damaged file must be an error of that file.
sh "$here/fuzz.sh" "$gpucc" "$mutate" "$work" flip,delete,truncate,varint || exit 1
"$mutate" truncate 7 <"$(ls "$work"/*.mlir | head -n 1)" >"$work/cut.mlirbc"
mkdir "$work/tmp"
TMPDIR="$work/tmp" "$gpucc" --offload-arch=host "$work/cut.mlirbc" -o "$work/app" 2>"$work/err"
rc=$?
if [ "$rc" -ne 1 ] || ! grep -q "cut.mlirbc: error: invalid MLIR bytecode" "$work/err" ||
   [ -e "$work/app" ] || [ -n "$(ls -A "$work/tmp")" ]; then
  echo "FAIL: truncated bytecode: exit $rc"; cat "$work/err"; exit 1
fi
echo "ok   truncated bytecode: $(grep -m1 'invalid MLIR bytecode' "$work/err")"
# A reader that crashes (planted: damaged bytecode corrupted gpucc's heap or
# segfaulted in MLIR's reader) ends the child only: one error, exit 1,
# nothing left behind.
TMPDIR="$work/tmp" GPUCC_TEST_CRASH=bytecode "$gpucc" --offload-arch=host "$work/cut.mlirbc" -o "$work/app" 2>"$work/err"
rc=$?
if [ "$rc" -ne 1 ] || ! grep -q "cut.mlirbc: error: invalid MLIR bytecode (the reader died of signal 11" "$work/err" ||
   [ -e "$work/app" ] || [ -n "$(ls -A "$work/tmp")" ]; then
  echo "FAIL: crashing bytecode reader: exit $rc"; cat "$work/err"; exit 1
fi
echo "ok   crashing reader: $(grep -m1 'invalid MLIR bytecode' "$work/err")"
