#!/bin/sh
# --offload-arch=native against the runtime tests' fake CUDA and HIP drivers:
# the targets are the devices' (deduplicated), and no driver means a clear
# error. Usage: native.sh GPUCC FAKE_CUDA.so FAKE_HIP.so PROGRAM.mlir
set -eu
gpucc=$1 cuda=$2 hip=$3 prog=$4
export GPUCC_CACHE_DIR=
fails=0
targets() { "$gpucc" -### --offload-arch=native "$prog" -o x 2>&1 | sed -n 's/.* -cc1 device --offload-arch=\([^ ]*\) .*/\1/p' | tr '\n' ' '; }
expect() { # NAME WANT
  if [ "$2" = "$got" ]; then echo "ok   $1: $got"; else echo "FAIL $1: got '$got', want '$2'" >&2; fails=$((fails + 1)); fi
}
got=$(GPUCC_CUDA_LIBRARY="$cuda" FAKE_CUDA_CC=8.6 GPUCC_HIP_LIBRARY=/nonexistent targets)
expect cuda_only "sm_86 "
got=$(GPUCC_CUDA_LIBRARY=/nonexistent GPUCC_HIP_LIBRARY="$hip" FAKE_HIP_ARCH=gfx942:sramecc+:xnack- targets)
expect hip_only "gfx942 "
got=$(GPUCC_CUDA_LIBRARY="$cuda" FAKE_CUDA_CC=9.0 FAKE_CUDA_DEVICES=2 GPUCC_HIP_LIBRARY="$hip" FAKE_HIP_ARCH=gfx90a targets)
expect both_dedup "sm_90 gfx90a "
got=$(GPUCC_CUDA_LIBRARY="$cuda" FAKE_CUDA_DEVICES=0 GPUCC_HIP_LIBRARY=/nonexistent \
  "$gpucc" -### --offload-arch=native "$prog" -o x 2>&1 || true)
case $got in *"no GPU found on this machine (CUDA: no device; HIP: runtime library not found)"*) got=ok ;; esac
expect none "ok"
[ $fails -eq 0 ]
