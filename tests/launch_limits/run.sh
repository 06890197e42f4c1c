#!/bin/sh
# A launch outside what its kernel was compiled for, end to end:
#   run.sh GPUCC GPUCC_FATBIN PROGRAM.mlir
# 1. gpucc builds PROGRAM (known_block.mlir) for gfx942 and the host;
# 2. its manifest records each kernel's limits: transpose for blocks of
#    (256, 1, 1) only, with its 1024 bytes of workgroup memory; any_shape
#    for up to 1024 threads in any shape;
# 3. on the CPU (host backend) the launch that fits runs and prints 510, and
#    the one with 1024 threads stops the program with status 1 and the
#    message naming the GPU target that would refuse it, before "after".
set -eu
gpucc=$1 fatbin=$2 prog=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export GPUCC_CACHE_DIR="$work/cache"
fails=0
check() {
  name=$1
  shift
  if "$@"; then echo "ok   $name"; else echo "FAIL $name" >&2; fails=$((fails + 1)); fi
}

"$gpucc" --offload-arch=gfx942,host "$prog" -o "$work/app" 2>"$work/gpucc.err" || {
  cat "$work/gpucc.err" >&2
  echo "FAIL gpucc"
  exit 1
}

"$fatbin" info "$work/app" >"$work/info"
# The kernel lines, one "key value" group each, in name order.
sed -n '/^  kernel /,$p' "$work/info" >"$work/kernels"
cat >"$work/want" <<'WANT'
  kernel       any_shape
    module     kernels
    target     all
    threads    at most 1024 per block
    block      any shape
    shared     0 bytes of its own
  kernel       transpose
    module     kernels
    target     all
    threads    at most 256 per block
    block      (256, 1, 1) only
    shared     1024 bytes of its own
WANT
check manifest diff -u "$work/want" "$work/kernels"

rc=0
GPUCC_BACKEND=host "$work/app" >"$work/out" 2>"$work/err" || rc=$?
check exit_status test "$rc" -eq 1
check fitting_launch_ran grep -qx '510' "$work/out"
check stopped_there sh -c "! grep -q '^1$' '$work/out'"
printf '%s\n' "gpucc: runtime error: mgpuLaunchKernel: kernel 'transpose' launched with 1024 threads per block; it was compiled for at most 256 (gfx942)" >"$work/want_err"
check message diff -u "$work/want_err" "$work/err"
[ "$fails" -eq 0 ] || exit 1
