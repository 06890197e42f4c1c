#!/bin/bash
# bench_scale.sh: how gpucc's compile time grows with the size of a program,
# against mlir-opt doing comparable work on the same input, side by side in
# one run (issue 22, "linear scale": goal gpucc <= 2x mlir-opt).
#
# Usage: bench_scale.sh GPUCC GEN_SCALE MLIR_OPT WORKDIR
# Sizes come from the environment (small defaults for CI; the issue's full
# size is GPUCC_SCALE_MODULES=1000 GPUCC_SCALE_KERNELS=10000
# GPUCC_SCALE_MB=50):
#   GPUCC_SCALE_MODULES  gpu.modules            (default 100)
#   GPUCC_SCALE_KERNELS  kernels, spread evenly (default 1000)
#   GPUCC_SCALE_MB       megabytes of MLIR text (default 2)
#
# What is compared (one target each, -O2, no cache):
#   mlir-opt parse:    reading and printing the input, no passes;
#   mlir-opt lower:    --gpu-lower-to-nvvm-pipeline with cubin-format=isa:
#                      parse, lower device and host code to the LLVM
#                      dialect, and LLVM's PTX code generation for every
#                      gpu.module (the upstream counterpart of a compile; no
#                      ptxas, no object file for the host code);
#   gpucc host:        gpucc -c --offload-arch=host: parse, normalize, lower
#                      host and device code, x86 code generation for both,
#                      the kernels' shared object, the fat binaries, ld -r;
#   gpucc sm_90 PTX:   --emit=ptx for sm_90: parse, normalize, lower and
#                      LLVM's PTX code generation per gpu.module, which is
#                      what mlir-opt lower does;
#   gpucc sm_90:       the same for sm_90, with ptxas per gpu.module when
#                      /usr/local/cuda has it (inherent: ptxas takes one
#                      module at a time; reported apart);
# then links and runs the host program once, which checks its sum. Wall time
# and CPU time (user + system, children included) are printed; the machine
# may be shared, so CPU time is the steadier one. No time is asserted: the
# exit status says whether every command worked.
set -u
gpucc=$1 gen=$2 mlir_opt=$3 work=$4
# The PTX row runs gpucc from another directory: the path must not be relative.
case $gpucc in /*) ;; */*) gpucc=$PWD/$gpucc ;; *) gpucc=$(command -v "$gpucc") || exit 1 ;; esac
modules=${GPUCC_SCALE_MODULES:-100}
kernels=${GPUCC_SCALE_KERNELS:-1000}
mb=${GPUCC_SCALE_MB:-2}
rm -rf "$work" && mkdir -p "$work" || exit 1
in=$work/scale.mlir
expect=$("$gen" "$modules" "$kernels" "$mb" "$in") || exit 1
size=$(wc -c <"$in")

# Runs a command; sets wall and cpu (seconds) or fails the bench.
TIMEFORMAT='%R %U %S'
measure() {
  local t
  if ! t=$( { time "$@" >/dev/null 2>"$work/err"; } 2>&1); then
    echo "failed: $*" >&2
    cat "$work/err" >&2
    exit 1
  fi
  t=${t##*$'\n'}
  read -r wall user sys <<<"$t"
  cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
}

row() { printf '%-16s %8.2f s wall %8.2f s cpu  %s\n' "$1" "$wall" "$cpu" "$2"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2fx", (b > 0 ? a / b : 0) }'; }

printf 'scale: %s gpu.modules, %s kernels, %.1f MB of MLIR\n' "$modules" "$kernels" \
  "$(awk -v s="$size" 'BEGIN { print s / 1e6 }')"

measure "$mlir_opt" "$in" -o /dev/null
row "mlir-opt parse" "(parse and print, no passes)"
measure "$mlir_opt" "$in" -o /dev/null \
  '--gpu-lower-to-nvvm-pipeline=cubin-format=isa cubin-chip=sm_90 cubin-features=+ptx80 opt-level=2'
opt_wall=$wall opt_cpu=$cpu
row "mlir-opt lower" "(gpu-lower-to-nvvm-pipeline, PTX per module)"

measure "$gpucc" -c --no-cache -O2 --offload-arch=host "$in" -o "$work/host.o"
row "gpucc host" "$(ratio "$wall" "$opt_wall") wall, $(ratio "$cpu" "$opt_cpu") cpu of mlir-opt lower"

# The same work as mlir-opt lower: PTX per gpu.module, no ptxas (gpucc writes
# one .ptx file per module into the current directory).
mkdir -p "$work/ptx"
measure sh -c 'cd "$1" && shift && exec "$@"' sh "$work/ptx" "$gpucc" --emit=ptx --no-cache -O2 \
  --offload-arch=sm_90 "$in"
row "gpucc sm_90 PTX" "$(ratio "$wall" "$opt_wall") wall, $(ratio "$cpu" "$opt_cpu") cpu (--emit=ptx: what mlir-opt lower does)"
rm -rf "$work/ptx"

if [ -x /usr/local/cuda/bin/ptxas ]; then
  measure "$gpucc" -c --no-cache -O2 --offload-arch=sm_90 "$in" -o "$work/sm90.o"
  row "gpucc sm_90" "$(ratio "$wall" "$opt_wall") wall, $(ratio "$cpu" "$opt_cpu") cpu (ptxas per module included)"
else
  echo "gpucc sm_90      skipped: no /usr/local/cuda/bin/ptxas"
fi

# The program must still work: every kernel adds its chain to each element.
"$gpucc" --no-cache --offload-arch=host "$in" -o "$work/app" 2>"$work/err" || { cat "$work/err" >&2; exit 1; }
got=$(GPUCC_BACKEND=host "$work/app") || { echo "the scale program failed" >&2; exit 1; }
if [ "$got" != "$expect" ]; then
  echo "the scale program printed '$got', expected '$expect'" >&2
  exit 1
fi
echo "host program: ran all $kernels kernels, sum $got as expected"
