#!/bin/sh
# run_e2e.sh: runs one end-to-end async program and checks what it did.
#
#   run_e2e.sh PROGRAM EXPECTED_STDOUT EXPECTED_STATUS
#
# Fails when the program (or anything it loads) pulls in MLIR's or LLVM's
# libraries, when it does not exit with EXPECTED_STATUS within 10 seconds
# (134: SIGABRT), when its stdout differs from the file EXPECTED_STDOUT, or
# when a sanitizer reports anything on its stderr.
set -u
prog=$1 expected=$2 status=$3
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT

if ! loaded=$(LD_TRACE_LOADED_OBJECTS=1 "$prog"); then
  echo "cannot list the libraries of '$prog'"
  exit 1
fi
if printf '%s\n' "$loaded" | grep -E 'libmlir|libMLIR|libLLVM'; then
  echo "FAIL: '$prog' loads MLIR or LLVM libraries"
  exit 1
fi

timeout 10 "$prog" >"$dir/stdout" 2>"$dir/stderr"
rc=$?
cat "$dir/stderr"
fail=0
if [ "$rc" -ne "$status" ]; then
  echo "FAIL: exit status $rc, expected $status"
  fail=1
fi
if ! diff -u "$expected" "$dir/stdout"; then
  echo "FAIL: stdout differs from '$expected'"
  fail=1
fi
if grep -q Sanitizer "$dir/stderr"; then
  echo "FAIL: a sanitizer reported an error"
  fail=1
fi
[ "$fail" -eq 0 ] && echo ok
exit "$fail"
