#!/bin/sh
# A failed cf.assert in host code (host_assert.mlir): the message goes to
# stderr with its file and line, after everything printed before it, even
# with stdout on a file, and the program aborts (LLVM's lowering put the
# message into stdout's buffer, which abort() dropped).
#   host_assert.sh GPUCC PROGRAM.mlir
set -eu
gpucc=$1 prog=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export GPUCC_CACHE_DIR="$work/cache"
fails=0
check() {
  name=$1
  shift
  if "$@"; then echo "ok   $name"; else echo "FAIL $name" >&2; fails=$((fails + 1)); fi
}
cp "$prog" "$work/host_assert.mlir"
cd "$work"
"$gpucc" host_assert.mlir -o app 2>err || { cat err >&2; exit 1; }
rc=0
./app >out 2>err || rc=$?
check aborts test "$rc" -eq 134
check earlier_output_kept grep -qx before out
check nothing_after sh -c "! grep -q after out"
check message_on_stderr grep -qx 'host_assert.mlir:15: Assertion failed: a must exceed b' err
check holding_assert_silent sh -c "! grep -q 'below' err out"
[ "$fails" -eq 0 ] || exit 1
