#!/bin/sh
# Deeply nested input gives a located error, never a crash: 4,000 nested
# scf.if, an attribute nested 8,000 deep, a type nested 3,000,000 deep
# (more than any stack holds); brackets in strings and comments do not
# count, and nesting within the limit compiles.
# Usage: nesting.sh GPUCC
set -eu
gpucc=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/tmp"
export GPUCC_CACHE_DIR=
fail=0

ifs() { # depth, extra line inside
  echo 'func.func @main() {'
  echo '  %c = arith.constant true'
  i=0; while [ $i -lt "$1" ]; do echo 'scf.if %c {'; i=$((i + 1)); done
  echo "$2"
  i=0; while [ $i -lt "$1" ]; do echo '}'; i=$((i + 1)); done
  echo '  return'
  echo '}'
}
repeat() { awk -v s="$1" -v n="$2" 'BEGIN { for (i = 0; i < n; i++) printf "%s", s }'; }

ifs 4000 '' >"$work/if.mlir"
{ printf 'module attributes {x.a = '; repeat '[' 8000; printf 1; repeat ']' 8000; echo '} {}'; } >"$work/attr.mlir"
{ printf 'module attributes {x.a = '; repeat 'tuple<' 3000000; printf i32; repeat '>' 3000000; echo '} {}'; } >"$work/type.mlir"

expect_error() { # file, location
  rc=0
  TMPDIR="$work/tmp" "$gpucc" --offload-arch=host -c "$work/$1" -o "$work/out.o" 2>"$work/err" || rc=$?
  if [ "$rc" -ne 1 ] || ! grep -q "^$work/$1:$2: error: nesting too deep (limit 256)$" "$work/err"; then
    echo "FAIL: $1: exit status $rc, want 1 and an error at $2" >&2
    head -c 2000 "$work/err" >&2
    fail=1
  fi
  [ -z "$(ls -A "$work/tmp")" ] || { echo "FAIL: $1: temp files left" >&2; fail=1; }
  [ ! -e "$work/out.o" ] || { echo "FAIL: $1: output written" >&2; fail=1; }
}
expect_error if.mlir 258:11
expect_error attr.mlir 1:281
expect_error type.mlir 1:1561

# 250 levels, with brackets in a string and a comment that would cross
# the limit if they counted.
ifs 250 "  // $(repeat '{' 300)
  %s = llvm.mlir.addressof @str : !llvm.ptr" >"$work/ok.mlir"
echo "llvm.mlir.global internal constant @str(\"$(repeat '[' 300)\\22\") {addr_space = 0 : i32}" >>"$work/ok.mlir"
if ! TMPDIR="$work/tmp" "$gpucc" --offload-arch=host -c "$work/ok.mlir" -o "$work/ok.o" 2>"$work/err"; then
  echo "FAIL: 250 levels do not compile" >&2
  head -c 2000 "$work/err" >&2
  fail=1
fi
[ $fail -eq 0 ] && echo "ok: deep nesting is a located error; 250 levels compile"
exit $fail
