#!/bin/sh
# Faults in kernels on the host backend, end to end:
#   run.sh GPUCC DIR
# Each program of DIR is built with --offload-arch=host and run on the CPU:
# - oob_store.mlir: thread 17 of block 3 stores at index 1 << 40: status 1,
#   the "illegal memory access" line for that block, after the host's and
#   gpu.printf's output (flushed, although stdout is a file), before "8";
# - trap.mlir: llvm.intr.trap in block 1 of one-thread blocks: the "trap"
#   line, naming the thread too;
# - divide_by_zero.mlir: arith.divsi by a kernel argument that is 0: the
#   "arithmetic fault" line;
# - host_fault.mlir: a store far out of bounds in main, once the host
#   backend has started: the program dies of SIGSEGV (status 139), no line.
# No core files: ulimit -c 0.
set -eu
gpucc=$1 dir=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export GPUCC_CACHE_DIR="$work/cache"
ulimit -c 0
fails=0
check() {
  name=$1
  shift
  if "$@"; then echo "ok   $name"; else echo "FAIL $name" >&2; fails=$((fails + 1)); fi
}

# run NAME: builds DIR/NAME.mlir, runs it; status in $rc, output in
# $work/NAME.out and $work/NAME.err.
run() {
  "$gpucc" --offload-arch=host "$dir/$1.mlir" -o "$work/$1" 2>"$work/$1.gpucc" || {
    cat "$work/$1.gpucc" >&2
    echo "FAIL gpucc $1"
    exit 1
  }
  rc=0
  GPUCC_BACKEND=host "$work/$1" >"$work/$1.out" 2>"$work/$1.err" || rc=$?
  echo "--- $1: status $rc; stdout:"
  cat "$work/$1.out"
  echo "--- stderr:"
  cat "$work/$1.err"
}

# one_line NAME REGEX: stderr is that one line.
one_line() {
  [ "$(wc -l <"$work/$1.err")" -eq 1 ] && grep -Eqx "$2" "$work/$1.err"
}

run oob_store
check oob_store.status test "$rc" -eq 1
check oob_store.message one_line oob_store \
  "gpucc: kernel 'store_far' \(module kernels\): illegal memory access at 0x[0-9a-f]+ in block \(3,0,0\)"
printf '7\nhello from thread 0\nhello from thread 1\n' >"$work/want"
check oob_store.stdout_flushed sh -c "sort '$work/oob_store.out' | diff -u '$work/want' -"

run trap
check trap.status test "$rc" -eq 1
check trap.message one_line trap \
  "gpucc: kernel 'trapper' \(module traps\): trap in block \(1,0,0\) thread \(0,0,0\)"
check trap.stdout_flushed sh -c "printf '7\n' | diff -u - '$work/trap.out'"

run divide_by_zero
check divide_by_zero.status test "$rc" -eq 1
check divide_by_zero.message one_line divide_by_zero \
  "gpucc: kernel 'divide' \(module arith\): arithmetic fault in block \(0,0,0\)"
check divide_by_zero.stdout_flushed sh -c "printf '7\n' | diff -u - '$work/divide_by_zero.out'"

run host_fault
check host_fault.status test "$rc" -eq 139
check host_fault.no_line sh -c "! grep -q gpucc '$work/host_fault.err'"
[ "$fails" -eq 0 ] || exit 1
