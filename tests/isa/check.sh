#!/bin/sh
# One program of tests/isa/: does gpucc's device code use the instruction
# meant?
#   check.sh GPUCC PROGRAM.mlir [LLVM_BINDIR]
# The program says what to compile and what to find, in comment lines:
#   // TARGETS: sm_80,sm_90a        --offload-arch for gpucc --emit=ptx
#   // PTX: <module> <targets> <n> <regex>
#        in <stem>-<module>-<target>.ptx of each of <targets> (comma
#        separated), the lines that match the extended regex number exactly
#        <n>; <n> may also be `some` (one or more) or `none`.
#   // AMD-TARGETS: gfx942          --offload-arch for gpucc --emit=hsaco
#   // AMD: <module> <targets> <n> <regex>
#        the same in the code object's metadata notes (llvm-readelf --notes)
#        and disassembly (llvm-objdump -d) from LLVM_BINDIR.
# --emit=ptx needs no ptxas (gpucc warns and goes on), so nothing here is
# skipped. Exit 0 pass, 1 fail.
set -eu
gpucc=$1 prog=$2 llvm=${3:-}
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

# The AMD code objects, as text: metadata notes and disassembly.
amd_targets=$(sed -n 's|^// AMD-TARGETS: *||p' "$prog" | head -n 1)
if [ -n "$amd_targets" ]; then
  [ -x "$llvm/llvm-readelf" ] || fail "AMD checks need LLVM_BINDIR with llvm-readelf"
  (cd "$work" && "$gpucc" --offload-arch="$amd_targets" --emit=hsaco "$prog") >"$work/gpucc.err" 2>&1 || {
    cat "$work/gpucc.err" >&2
    fail "gpucc --emit=hsaco failed"
  }
  for hsaco in "$work"/*.hsaco; do
    chip=$(echo "$hsaco" | sed 's|.*-||; s|\.hsaco$||; s|:.*||')
    { "$llvm/llvm-readelf" --notes "$hsaco" && "$llvm/llvm-objdump" -d --mcpu="$chip" "$hsaco"; } \
      >"${hsaco%.hsaco}.amd" || fail "cannot read $(basename "$hsaco")"
  done
fi

checks=0
{ sed -n 's|^// PTX: *|ptx |p' "$prog"; sed -n 's|^// AMD: *|amd |p' "$prog"; } >"$work/checks"
while read -r kind module on want regex; do
  [ -n "$regex" ] || fail "bad $kind line: $module $on $want"
  for target in $(echo "$on" | tr , ' '); do
    ptx="$work/$stem-$module-$target.$kind"
    [ -f "$ptx" ] || fail "gpucc wrote no $kind code for @$module on $target"
    n=$(grep -cE -e "$regex" "$ptx" || true)
    case $want in
    some) [ "$n" -gt 0 ] ;;
    none) [ "$n" -eq 0 ] ;;
    *) [ "$n" -eq "$want" ] ;;
    esac || fail "$module on $target: $n lines match '$regex', expected $want"
    checks=$((checks + 1))
  done
done <"$work/checks"
[ "$checks" -gt 0 ] || fail "no '// PTX:' or '// AMD:' lines"
echo "$name: $checks checks passed"
