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
#   backend has started: the program dies of SIGSEGV (status 139), no line;
# - alloc_negative.mlir, alloc_overflow.mlir, memref_alloc_overflow.mlir:
#   an allocation whose dynamic size is negative or overflows: one runtime
#   error naming the op's file (without its folder):line:col and the sizes,
#   status 1, after "7";
# - dealloc_twice.mlir, dealloc_foreign.mlir: gpu.dealloc of a buffer freed
#   already, or from memref.alloc: one runtime error naming the gpu.dealloc,
#   status 1, after "7";
# - odd_names.mlir: a fault in a kernel of mangled names (@"bad k" of
#   @"my mod"): the line names them as the program spells them;
# - too_large.mlir: static shapes whose size overflows 64 bits: gpucc fails
#   with status 1 and one located error for each.
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

# exact_line NAME TEXT: stderr is that one line, as written (paths may hold
# regex characters).
exact_line() {
  [ "$(wc -l <"$work/$1.err")" -eq 1 ] && grep -Fqx "$2" "$work/$1.err"
}

# printed_before NAME: stdout is "7", printed before the error and flushed
# although it is a file.
printed_before() {
  printf '7\n' | diff -u - "$work/$1.out"
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

run odd_names
check odd_names.status test "$rc" -eq 1
check odd_names.message one_line odd_names \
  "gpucc: kernel 'bad k' \(module my mod\): illegal memory access at 0x[0-9a-f]+ in block \(0,0,0\) thread \(0,0,0\)"

run divide_by_zero
check divide_by_zero.status test "$rc" -eq 1
check divide_by_zero.message one_line divide_by_zero \
  "gpucc: kernel 'divide' \(module arith\): arithmetic fault in block \(0,0,0\)"
check divide_by_zero.stdout_flushed sh -c "printf '7\n' | diff -u - '$work/divide_by_zero.out'"

run host_fault
check host_fault.status test "$rc" -eq 139
check host_fault.no_line sh -c "! grep -q gpucc '$work/host_fault.err'"

# Sites name the file without its folder (objects do not depend on how the
# path was spelled).
rt="gpucc: runtime error: "
run alloc_negative
check alloc_negative.status test "$rc" -eq 1
check alloc_negative.message exact_line alloc_negative \
  "${rt}alloc_negative.mlir:14:12: gpu.alloc of a negative size (-4 x 4 bytes)"
check alloc_negative.stdout_flushed printed_before alloc_negative

run alloc_overflow
check alloc_overflow.status test "$rc" -eq 1
check alloc_overflow.message exact_line alloc_overflow \
  "${rt}alloc_overflow.mlir:12:12: gpu.alloc of an overflowing size (4611686018427387904 x 4 bytes)"
check alloc_overflow.stdout_flushed printed_before alloc_overflow

run memref_alloc_overflow
check memref_alloc_overflow.status test "$rc" -eq 1
check memref_alloc_overflow.message exact_line memref_alloc_overflow \
  "${rt}memref_alloc_overflow.mlir:18:10: memref.alloc of an overflowing size (5 x 1152921504606846976 x 2 x 1 bytes)"
check memref_alloc_overflow.stdout_flushed printed_before memref_alloc_overflow

# The address differs from run to run: a regex, with the path taken as it is.
freed=" was not allocated by gpu.alloc or was already freed"
dealloc_line() {
  [ "$(wc -l <"$work/$1.err")" -eq 1 ] && {
    line=$(cat "$work/$1.err")
    case $line in
    "$rt$1.mlir:$2: gpu.dealloc: 0x"*"$freed") ;;
    *) return 1 ;;
    esac
    echo "$line" | grep -Eq ": gpu.dealloc: 0x[0-9a-f]+$freed\$"
  }
}

run dealloc_twice
check dealloc_twice.status test "$rc" -eq 1
check dealloc_twice.message dealloc_line dealloc_twice 14:5
check dealloc_twice.stdout_flushed printed_before dealloc_twice

run dealloc_foreign
check dealloc_foreign.status test "$rc" -eq 1
check dealloc_foreign.message dealloc_line dealloc_foreign 11:5
check dealloc_foreign.stdout_flushed printed_before dealloc_foreign

# Compile-time: every too-large static shape, located; nothing built.
rc=0
"$gpucc" --offload-arch=host "$dir/too_large.mlir" -o "$work/too_large" 2>"$work/too_large.gpucc" ||
  rc=$?
echo "--- too_large: gpucc status $rc; stderr:"
cat "$work/too_large.gpucc"
too_large() {
  grep -Fqx "$dir/too_large.mlir:$1: error: $2 is too large: its size in bytes overflows 64 bits" \
    "$work/too_large.gpucc"
}
check too_large.status test "$rc" -eq 1
check too_large.global too_large 5:3 "memref<4611686018427387904xi16>"
check too_large.workgroup too_large 7:5 \
  "memref<4611686018427387904x4xf32, #gpu.address_space<workgroup>>"
check too_large.gpu_alloc too_large 12:12 "memref<100000000000x100000000000xf32>"
check too_large.memref_alloc too_large 14:10 "memref<3x3074457345618258603xi8>"
check too_large.only_those test "$(grep -c 'error:' "$work/too_large.gpucc")" -eq 4
check too_large.no_output test ! -e "$work/too_large"
[ "$fails" -eq 0 ] || exit 1
