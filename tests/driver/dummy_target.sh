#!/bin/sh
# A test-only target kind (dummy_target.c) compiles through the same driver
# and device code as the real ones: a kind is a row. Glue around real tools.
# Usage: dummy_target.sh GPUCC_DUMMY GPUCC FATBIN_TOOL PROGRAM.mlir
set -eu
dummy=$1 gpucc=$2 fatbin=$3 prog=$4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export GPUCC_CACHE_DIR="$work/cache" TMPDIR="$work"
cd "$work"
fails=0
check() { # check NAME CONDITION-COMMAND...
  name=$1
  shift
  if "$@"; then echo "ok   $name"; else echo "FAIL $name" >&2; fails=$((fails + 1)); fi
}
stem=$(basename "$prog" .mlir)

"$dummy" --help >help
check listed grep -q 'known targets: .*, host, dummy$' help

"$dummy" --offload-arch=dummy,host -c "$prog" -o p.o 2>err || cat err >&2
"$fatbin" list p.o >list 2>&1 || true
check bundled grep -Eq '^[^ ]+ +host +dummy +(so|soref) ' list
check bundled_host grep -Eq '^[^ ]+ +host +host +(so|soref) ' list

"$dummy" --offload-arch=dummy --emit=dummy-obj "$prog" 2>err || cat err >&2
check emit_device sh -c "ls | grep -q '^$stem-.*-dummy\.dummy-obj$'"
"$dummy" --offload-arch=dummy --emit=dummy-so "$prog" 2>err || cat err >&2
check emit_finished sh -c "ls | grep -q '^$stem-.*-dummy\.dummy-so$'"

"$dummy" -### --offload-arch=dummy "$prog" -o x >plan 2>&1
check planned grep -q '\.dummy-so .*\.dummy-o' plan

# Its target-id syntax is its own: dummy:quiet+ compiles, other features
# are refused with the kind's name, and the host kind still takes none.
"$dummy" --offload-arch=dummy:quiet+ -c "$prog" -o q.o 2>err || cat err >&2
check own_feature test -s q.o
"$dummy" --offload-arch=dummy:loud+ -c "$prog" -o r.o 2>err && rc=0 || rc=$?
check refused_feature sh -c "[ $rc -ne 0 ] && grep -q \"dummy targets take no ':' features\" err && [ ! -e r.o ]"
"$dummy" --offload-arch=host:quiet+ -c "$prog" -o r.o 2>err && rc=0 || rc=$?
check host_no_feature sh -c "[ $rc -ne 0 ] && grep -q \"host targets take no ':' features\" err"

# The real gpucc does not know it.
"$gpucc" --offload-arch=dummy "$prog" -o y 2>err && rc=0 || rc=$?
check unknown_elsewhere test "$rc" -eq 2

[ "$fails" -eq 0 ] || { echo "$fails check(s) failed" >&2; exit 1; }
