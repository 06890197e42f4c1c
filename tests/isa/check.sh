#!/bin/sh
# One program of tests/isa/: does gpucc's PTX use the instruction meant?
#   check.sh GPUCC PROGRAM.mlir
# The program says what to compile and what to find, in comment lines:
#   // TARGETS: sm_80,sm_90a        --offload-arch for gpucc --emit=ptx
#   // PTX <module> <targets> <n> <regex>
#        in <stem>-<module>-<target>.ptx of each of <targets> (comma
#        separated), the lines that match the extended regex number exactly
#        <n>; <n> may also be `some` (one or more) or `none`.
# --emit=ptx needs no ptxas (gpucc warns and goes on), so nothing here is
# skipped. Exit 0 pass, 1 fail.
set -eu
gpucc=$1 prog=$2
case $gpucc in /*) ;; *) gpucc=$(pwd)/$gpucc ;; esac
case $prog in /*) ;; *) prog=$(pwd)/$prog ;; esac
name=$(basename "$prog")
stem=$(basename "$prog" .mlir)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/tmp"
export GPUCC_CACHE_DIR="$work/cache" TMPDIR="$work/tmp"
fail() { echo "FAIL: $name: $*" >&2; exit 1; }

targets=$(sed -n 's|^// TARGETS: *||p' "$prog" | head -n 1)
[ -n "$targets" ] || fail "no '// TARGETS:' line"
(cd "$work" && "$gpucc" --offload-arch="$targets" --emit=ptx "$prog") >"$work/gpucc.err" 2>&1 || {
  cat "$work/gpucc.err" >&2
  fail "gpucc failed"
}

checks=0
sed -n 's|^// PTX: *||p' "$prog" >"$work/checks"
while read -r module on want regex; do
  [ -n "$regex" ] || fail "bad PTX line: $module $on $want"
  for target in $(echo "$on" | tr , ' '); do
    ptx="$work/$stem-$module-$target.ptx"
    [ -f "$ptx" ] || fail "gpucc wrote no $(basename "$ptx")"
    n=$(grep -cE -e "$regex" "$ptx" || true)
    case $want in
    some) [ "$n" -gt 0 ] ;;
    none) [ "$n" -eq 0 ] ;;
    *) [ "$n" -eq "$want" ] ;;
    esac || fail "$module on $target: $n lines match '$regex', expected $want"
    checks=$((checks + 1))
  done
done <"$work/checks"
[ "$checks" -gt 0 ] || fail "no '// PTX:' lines"
echo "$name: $checks checks passed"
