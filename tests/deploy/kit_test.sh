#!/bin/sh
# kit_test.sh REPO BUILD FAKE_CUDA: the GPU check kit, tested where it is
# built (no GPU). scripts/gpu-kit.sh builds a small kit (a subset of the
# programs, tiny benchmark sizes); its runner then runs
#   1. on the host backend: every output compared (e2e exactly, upstream
#      through filecheck.awk), every benchmark's check, the ratios printed;
#   2. against the fake CUDA driver (tests/runtime/fake_cuda.c) in smoke
#      mode: every program starts, finds the driver through
#      GPUCC_CUDA_LIBRARY, loads its sm_90 object and launches its kernels
#      without a runtime error (the fake runs no kernel, so outputs are not
#      compared);
#   3. once more on the host backend with one expected output and one CHECK
#      line broken: the runner must report both and exit 1.
# The CUDA C benchmarks are built with nvcc where there is one and reported
# skipped when they find no GPU (GPUKIT_NVCC=none where there is none).
# The full kit (every program, real sizes) is `scripts/gpu-kit.sh` by hand.
set -eu
repo=$1 build=$2 fake=$3
fail() { echo "FAIL: $*" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# A private device cache: tests must not read or fill the user's.
export GPUCC_CACHE_DIR="$work/cache"
unset GPUKIT_BACKEND GPUKIT_MODE GPUKIT_RESULTS GPUCC_LOG GPUCC_DEVICE 2>/dev/null || true

# Two programs of each kind that matter most on a GPU, the e2e and upstream
# printf_formats (same name, both kept), and every benchmark.
subset="atomics shared_barrier printf_formats vector_print two_modules async_gpu
        allreduce_region assert_kernel shuffle_modes bandwidth matmul reduce launch"
sh "$repo/scripts/gpu-kit.sh" -B "$build" -o "$work/kit" --small --only "$subset" >build.log 2>&1 ||
  { cat build.log >&2; fail "gpu-kit.sh failed"; }
cat build.log
kit=$work/kit
count=$(wc -l <"$kit/programs")
[ "$count" -eq 14 ] || fail "the kit has $count programs, not 14: $(cat "$kit/programs")"
for f in run.sh filecheck.awk programs README BUILT cuda/kit_cuda.h cuda/bench_matmul.cu \
         cuda/bench_matmul.flags expect/e2e/atomics.out expect/upstream/assert_kernel.spec; do
  [ -f "$kit/$f" ] || fail "the kit lacks $f"
done
nvcc=none
if command -v nvcc >/dev/null 2>&1 || [ -x /usr/local/cuda/bin/nvcc ]; then nvcc=; fi

# 1. host backend, full comparison; from a copy, to show the kit stands alone
cp -R "$kit" "$work/copy"
rm -rf "$kit"
set +e
GPUKIT_BACKEND=host GPUKIT_RESULTS="$work/host" GPUKIT_NVCC=$nvcc GPUKIT_TIMEOUT=60 \
  sh "$work/copy/run.sh" >host.log 2>&1
rc=$?
set -e
cat host.log
[ "$rc" -eq 0 ] || fail "the runner failed on the host backend (status $rc)"
[ "$(grep -c '^PASS' host.log)" -eq 14 ] || fail "not every program passed on the host backend"
grep -q '^  matmul_gflops  *gpucc' host.log || fail "no ratio lines"
grep -q '^  saxpy / copy' host.log || fail "no bandwidth-against-copy line"
if [ -z "$nvcc" ]; then
  grep -q -E '^(PASS|SKIP) +cuda/matmul' host.log || fail "the CUDA C matmul was not built"
  if grep -q '^FAIL *cuda/' host.log; then fail "a CUDA C benchmark failed to build"; fi
fi

# 2. the fake CUDA driver, smoke mode
set +e
GPUKIT_MODE=smoke GPUKIT_RESULTS="$work/fake" GPUKIT_NVCC=none GPUKIT_TIMEOUT=60 \
  GPUCC_CUDA_LIBRARY="$fake" FAKE_CUDA_LOG="$work/fake.log" FAKE_CUDA_CC=9.0 \
  sh "$work/copy/run.sh" >fake.log 2>&1
rc=$?
set -e
cat fake.log
[ "$rc" -eq 0 ] || fail "the runner failed against the fake CUDA driver (status $rc)"
[ "$(grep -c '^PASS' fake.log)" -eq 14 ] || fail "not every program ran against the fake driver"
loads=$(grep -c '^cuModuleLoadData' "$work/fake.log" || true)
launches=$(grep -c '^cuLaunchKernel' "$work/fake.log" || true)
echo "fake driver: $loads module loads, $launches kernel launches"
# one module per program but vector_print (host code only) and two for
# two_modules; each of those launches at least one kernel
[ "$loads" -ge 14 ] || fail "only $loads modules loaded on the fake driver"
[ "$launches" -ge 14 ] || fail "only $launches kernels launched on the fake driver"
if grep -q '^cuModuleLoadDataEx' "$work/fake.log"; then
  grep -q 'no ptxas found' build.log || fail "PTX was JIT-loaded although cubins were built"
fi

# 3. a wrong expected output and a wrong CHECK line are caught
sed 's/16384/16385/' "$work/copy/expect/e2e/atomics.out" >atomics.out
cp atomics.out "$work/copy/expect/e2e/atomics.out"
sed 's/20540/20541/' "$work/copy/expect/upstream/allreduce_region.check" >region.check
cp region.check "$work/copy/expect/upstream/allreduce_region.check"
set +e
GPUKIT_BACKEND=host GPUKIT_RESULTS="$work/bad" GPUKIT_NVCC=none GPUKIT_TIMEOUT=60 \
  sh "$work/copy/run.sh" >bad.log 2>&1
rc=$?
set -e
[ "$rc" -eq 1 ] || { cat bad.log; fail "the runner did not fail on wrong expectations (status $rc)"; }
grep -q '^FAIL  *e2e/atomics  *output differs' bad.log || { cat bad.log; fail "no FAIL for e2e/atomics"; }
grep -q '^FAIL  *upstream/allreduce_region' bad.log || { cat bad.log; fail "no FAIL for allreduce_region"; }
[ "$(grep -c '^FAIL' bad.log)" -eq 2 ] || { cat bad.log; fail "other checks failed too"; }
echo "ok: the kit builds, runs on the host backend and on the fake CUDA driver, and catches wrong output"
