#!/bin/sh
# A test-only target kind (dummy_target.c: kind "test", chips test1-3, its
# own vendor, format, lowering and tool) compiles through the same driver
# and device code as the real ones, bundles, and its objects are chosen and
# run by the test-only backend of a runtime built with it
# (tests/runtime/backend_test.c): a kind is a row and a file on each side.
# Glue around real tools.
# Usage: dummy_target.sh GPUCC_DUMMY GPUCC FATBIN_TOOL RUNTIME PROGRAM.mlir
#   FATBIN_TOOL: gpucc-fatbin with the test vendor's row;
#   RUNTIME: the shared runtime with the test backend (libgpucc_rt_testrow).
set -eu
dummy=$1 gpucc=$2 fatbin=$3 rt=$4 prog=$5
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
# The program's objects, linked by hand against the test runtime.
link() { # link OBJECT EXE
  cc -o "$2" "$1" "$rt" -Wl,-rpath,"$(dirname "$rt")" -lm
}

"$dummy" --help >help
check listed grep -q 'known targets: .*, host, test1, test2, test3$' help

# Bundled beside the host's: the test vendor's own format, in the archive
# and in the listing of a gpucc-fatbin that has its row.
"$dummy" --offload-arch=test2,host -c "$prog" -o p.o 2>err || cat err >&2
"$fatbin" list p.o >list 2>&1 || cat list >&2
check bundled grep -Eq '^tk +testvendor +test2 +testso ' list
check bundled_host grep -Eq '^tk +host +host +so ' list

# Chosen and run by the test backend: its log, its launch lines, and the
# numbers the kernels computed, thread by thread.
expect='7, 3008, 11, 3016, 23, 3032, 43, 3056, 71, 3088, 107, 3128, 151, 3176, 203, 3232, 263, 3296, 331, 3368, 407, 3448, 491, 3536'
link p.o app 2>err || cat err >&2
GPUCC_LOG=1 ./app >out 2>log || cat out log >&2
check ran_values sh -c "tr -s ' ' <out | grep -qF '[$expect]'"
check ran_test_backend grep -q "using backend test, device 0 'test device' (test2)" log
check chose_testso grep -q 'chose test2 test shared object: exact match for test2' log
check launched grep -q 'test backend: launch fill of a test shared object, grid 3,1,1 block 4,2,1' log
check launched_second grep -q 'test backend: launch bump of a test shared object, grid 3,1,1 block 8,1,1' log
# The same program on the host backend: the same numbers.
GPUCC_BACKEND=host GPUCC_LOG=1 ./app >out_host 2>log_host || cat out_host log_host >&2
check host_values sh -c "tr -s ' ' <out_host | grep -qF '[$expect]'"
check host_not_test sh -c '! grep -q "test backend" log_host'

# Only a newer chip than the device: nothing runs, and the message says
# which target to build for, by the test backend's rules.
"$dummy" --offload-arch=test3 -c "$prog" -o n.o 2>err || cat err >&2
link n.o newer 2>err || cat err >&2
./newer >out 2>log && rc=0 || rc=$?
check none_runs sh -c "[ $rc -ne 0 ] && grep -q 'carries code for: test3; rebuild with --offload-arch=test2' log"

"$dummy" --offload-arch=test2 --emit=test-obj "$prog" 2>err || cat err >&2
check emit_device sh -c "ls | grep -q '^$stem-.*-test2\.test-obj$'"
"$dummy" --offload-arch=test2 --emit=test-so "$prog" 2>err || cat err >&2
check emit_finished sh -c "ls | grep -q '^$stem-.*-test2\.test-so$'"

"$dummy" -### --offload-arch=test2 "$prog" -o x >plan 2>&1
check planned grep -q '\.test-so .*\.test-o' plan

# Its target-id syntax is its own: test2:quiet+ compiles, other features
# are refused with the kind's name, and the host kind still takes none.
"$dummy" --offload-arch=test2:quiet+ -c "$prog" -o q.o 2>err || cat err >&2
check own_feature test -s q.o
"$dummy" --offload-arch=test2:loud+ -c "$prog" -o r.o 2>err && rc=0 || rc=$?
check refused_feature sh -c "[ $rc -ne 0 ] && grep -q \"test targets take no ':' features\" err && [ ! -e r.o ]"
"$dummy" --offload-arch=host:quiet+ -c "$prog" -o r.o 2>err && rc=0 || rc=$?
check host_no_feature sh -c "[ $rc -ne 0 ] && grep -q \"host targets take no ':' features\" err"

# Its own rule: its threads run one by one, so a barrier is refused
# before any job, at the op, naming the target.
cat >barrier.mlir <<'EOF'
module attributes {gpu.container_module} {
  gpu.module @b {
    gpu.func @k() kernel {
      gpu.barrier
      gpu.return
    }
  }
}
EOF
"$dummy" --offload-arch=test2 -c barrier.mlir -o b.o 2>err && rc=0 || rc=$?
check barrier_refused sh -c "[ $rc -ne 0 ] && grep -q \"barrier.mlir:4:7: error: 'gpu.barrier' needs a target whose threads run together\" err && grep -q 'test2' err && [ ! -e b.o ]"

# The real gpucc does not know it.
"$gpucc" --offload-arch=test2 "$prog" -o y 2>err && rc=0 || rc=$?
check unknown_elsewhere test "$rc" -eq 2

[ "$fails" -eq 0 ] || { echo "$fails check(s) failed" >&2; exit 1; }
