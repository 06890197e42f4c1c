#!/bin/sh
# -fsanitize=bounds (issue 23): MLIR's run-time checks of memref and
# tensor ops, asked for at compile time. Each program breaks one op's
# promise; built with the flag it must print the check's report (the op,
# what is wrong, its location) on stderr and stop, keeping what it printed
# before; built without, the checks must not be there.
#   run.sh GPUCC DIR
set -u
gpucc=$1 dir=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
fails=0
check() { # check NAME CONDITION-COMMAND...
  name=$1
  shift
  if "$@"; then echo "ok   $name"; else echo "FAIL $name"; fails=$((fails + 1)); fi
}
# case PROGRAM STATUS STDOUT WHAT LOCATION: build with the flag, run, and
# check the status, the stdout and the report's lines.
case_of() {
  prog=$1 status=$2 out=$3 what=$4 loc=$5
  "$gpucc" -fsanitize=bounds --offload-arch=host "$dir/$prog.mlir" -o "$prog" 2>"$prog.cerr" ||
    { check "${prog}_builds" false; cat "$prog.cerr"; return; }
  "./$prog" >"$prog.out" 2>"$prog.err"
  rc=$?
  check "${prog}_status_$status" test "$rc" -eq "$status"
  check "${prog}_stdout_kept" test "$(cat "$prog.out")" = "$out"
  check "${prog}_reports" grep -q "ERROR: Runtime op verification failed" "$prog.err"
  check "${prog}_says_what" grep -q "^\\^ $what" "$prog.err"
  check "${prog}_located" grep -q "Location: loc(\".*/$loc)" "$prog.err"
}
# Host code: the report, then abort() as C's assert (status 134).
case_of store_oob 134 1 "out-of-bounds access" "store_oob.mlir\":8:3"
case_of cast_mismatch 134 2 "size mismatch of dim 0" "cast_mismatch.mlir\":8:8"
case_of tensor_extract_oob 134 1 "out-of-bounds access" "tensor_extract_oob.mlir\":9:8"
# A kernel: each failing thread reports, the launch fails (status 1).
case_of kernel_oob 1 1 "out-of-bounds access" "kernel_oob.mlir\":9:7"
check kernel_oob_threads test "$(grep -c 'thread: \[[4-7],0,0\] Assertion' kernel_oob.err)" -eq 4
check kernel_oob_launch_fails grep -q "kernel 'f' failed on the CPU: a device-side assertion failed" kernel_oob.err
# The GPU targets take the checks too (device asserts).
"$gpucc" -fsanitize=bounds --offload-arch=sm_90,gfx942 "$dir/kernel_oob.mlir" -o gpu_app 2>err
check kernel_checks_build_for_gpus test $? -eq 0
# Without the flag the program has no checks.
"$gpucc" --offload-arch=host --emit=mlir-host "$dir/store_oob.mlir" -o plain.mlir 2>err
"$gpucc" -fsanitize=bounds --offload-arch=host --emit=mlir-host "$dir/store_oob.mlir" -o checked.mlir 2>>err
check checks_only_with_the_flag sh -c "! grep -q 'Runtime op verification' plain.mlir &&
  grep -q 'Runtime op verification' checked.mlir"
"$gpucc" --help >help
check flag_in_help grep -q -- '-fsanitize=bounds' help
"$gpucc" -fsanitize=address --offload-arch=host "$dir/store_oob.mlir" -o asan 2>err
check other_sanitizers_refused sh -c "test $? -eq 2 && grep -q \"unsupported argument 'address' to -fsanitize=\" err"
[ "$fails" -eq 0 ] || { echo "$fails check(s) failed" >&2; exit 1; }
