#!/bin/sh
# run.sh: the runner of gpucc's GPU check kit (built by scripts/gpu-kit.sh).
#
#   sh run.sh            on a machine with an NVIDIA GPU and its driver
#
# Needs only POSIX sh, awk, sed, cmp and diff (no LLVM, no gpucc): every
# program in bin/ was linked with gpucc's static runtime and needs the C
# library and the GPU driver alone. It runs each program with
# GPUCC_BACKEND=cuda and compares what it prints with expect/ (exactly for
# the e2e programs, with filecheck.awk for the upstream ones), runs the GPU
# benchmarks, builds their CUDA C twins in cuda/ with nvcc and runs those,
# then prints one line per check and the ratios gpucc / CUDA C.
#
# Environment:
#   GPUKIT_BACKEND=cuda     the runtime's backend (host: run the kit on the
#                           CPU, which is how it is tested where it is built)
#   GPUKIT_MODE=full        smoke: only require that every program runs to
#                           its end without a runtime error, for drivers that
#                           execute no kernel (the tests' fake CUDA driver)
#   GPUKIT_NVCC=nvcc        the CUDA compiler; "none" skips the CUDA C part
#   GPUKIT_NVCC_ARCH=sm_90  its -arch (default: from nvidia-smi, else sm_90)
#   GPUKIT_TIMEOUT=120      seconds a program may run (with timeout(1))
#   GPUKIT_RESULTS=<dir>    where outputs and diffs go (default: a new
#                           directory under $TMPDIR, printed at the end)
# Exit status: 0 when nothing failed, 1 otherwise.
set -u

here=$(cd "$(dirname "$0")" && pwd)
backend=${GPUKIT_BACKEND:-cuda}
mode=${GPUKIT_MODE:-full}
limit=${GPUKIT_TIMEOUT:-120}
results=${GPUKIT_RESULTS:-}
if [ -z "$results" ]; then
  results=$(mktemp -d "${TMPDIR:-/tmp}/gpu-kit.XXXXXX") || exit 1
fi
mkdir -p "$results/bin" || exit 1
case $mode in full | smoke) ;; *) echo "run.sh: GPUKIT_MODE must be full or smoke" >&2; exit 2 ;; esac

timeout_cmd=
if command -v timeout >/dev/null 2>&1; then timeout_cmd="timeout $limit"; fi

passed=0 failed=0 skipped=0
start=$(date +%s)

# One line per check: verdict, name, and why when it is not a pass.
report() { # verdict name [detail]
  case $1 in PASS) passed=$((passed + 1)) ;; FAIL) failed=$((failed + 1)) ;; SKIP) skipped=$((skipped + 1)) ;; esac
  if [ $# -ge 3 ]; then printf '%-5s %-34s %s\n' "$1" "$2" "$3"; else printf '%-5s %s\n' "$1" "$2"; fi
}

# Runs a program with stdout and stderr in $results/<tag>.out/.err; sets rc.
run_prog() { # tag binary
  # $timeout_cmd is a command and its argument by design.
  # shellcheck disable=SC2086
  GPUCC_BACKEND=$backend $timeout_cmd "$2" </dev/null >"$results/$1.out" 2>"$results/$1.err"
  rc=$?
}

# Why a run went wrong, in a few words, or nothing when it did not.
run_trouble() { # tag
  if [ "$rc" -eq 124 ] && [ -n "$timeout_cmd" ]; then echo "timed out after ${limit}s"; return; fi
  if [ "$rc" -gt 128 ]; then echo "killed by signal $((rc - 128))"; return; fi
  if grep -q "gpucc: runtime error" "$results/$1.err"; then
    grep "gpucc: runtime error" "$results/$1.err" | head -n 1 | cut -c 1-160
  fi
}

first_err() { # tag
  head -n 1 "$results/$1.err" | cut -c 1-120
}

# e2e: exit status 0 and exactly the expected output (memref addresses masked).
check_e2e() { # name
  tag=e2e-$1
  run_prog "$tag" "$here/bin/e2e/$1"
  trouble=$(run_trouble "$tag")
  if [ "$mode" = smoke ]; then
    if [ -n "$trouble" ]; then report FAIL "e2e/$1" "$trouble"; else report PASS "e2e/$1" "(smoke)"; fi
    return
  fi
  case $trouble in timed* | killed*) report FAIL "e2e/$1" "$trouble"; return ;; esac
  if [ "$rc" -ne 0 ]; then report FAIL "e2e/$1" "exit status $rc: $(first_err "$tag")"; return; fi
  sed 's/base@ = 0x[0-9a-f]*/base@ = ADDR/' "$results/$tag.out" >"$results/$tag.masked"
  want=$here/expect/e2e/$1.out
  [ -f "$want" ] || want=/dev/null
  if cmp -s "$want" "$results/$tag.masked"; then report PASS "e2e/$1"; return; fi
  diff -u "$want" "$results/$tag.masked" >"$results/$tag.diff" 2>&1
  if [ "$(sort "$want" | cksum)" = "$(sort "$results/$tag.masked" | cksum)" ]; then
    report FAIL "e2e/$1" "the expected lines in another order: $results/$tag.diff"
  else
    report FAIL "e2e/$1" "output differs: $results/$tag.diff"
  fi
}

# upstream: the program's own CHECK lines (filecheck.awk), its exit status
# and stderr as its spec file says (from its EXIT: and STDERR: directives).
check_upstream() { # name
  tag=upstream-$1
  run_prog "$tag" "$here/bin/upstream/$1"
  trouble=$(run_trouble "$tag")
  spec=$here/expect/upstream/$1.spec
  want_exit=0 with_stderr=no
  if grep -q '^exit nonzero$' "$spec" 2>/dev/null; then want_exit=nonzero; fi
  if grep -q '^stderr yes$' "$spec" 2>/dev/null; then with_stderr=yes; fi
  if [ "$mode" = smoke ]; then
    case $trouble in
      "" | gpucc:*) [ "$want_exit" = nonzero ] && trouble= ;;
    esac
    if [ -n "$trouble" ]; then report FAIL "upstream/$1" "$trouble"; else report PASS "upstream/$1" "(smoke)"; fi
    return
  fi
  case $trouble in timed* | killed*) report FAIL "upstream/$1" "$trouble"; return ;; esac
  if [ "$want_exit" = nonzero ]; then
    [ "$rc" -ne 0 ] || { report FAIL "upstream/$1" "exit status 0, a failure was expected"; return; }
  elif [ "$rc" -ne 0 ]; then
    report FAIL "upstream/$1" "exit status $rc: $(first_err "$tag")"
    return
  fi
  if [ "$with_stderr" = yes ]; then cat "$results/$tag.err" >>"$results/$tag.out"; fi
  if awk -f "$here/filecheck.awk" "$here/expect/upstream/$1.check" "$results/$tag.out" 2>"$results/$tag.diff"; then
    report PASS "upstream/$1"
  else
    report FAIL "upstream/$1" "$(head -n 1 "$results/$tag.diff" | cut -c 1-160)"
  fi
}

# Appends a benchmark's "<metric> <value>" lines to $results/metrics as
# "<side> <metric> <value>".
record_metrics() { # side tag
  awk -v side="$1" 'NF == 2 && $1 ~ /_(gbps|gflops|us)$/ { print side, $1, $2 }' \
    "$results/$2.out" >>"$results/metrics"
}

check_bench() { # name
  tag=bench-$1
  run_prog "$tag" "$here/bin/bench/$1"
  trouble=$(run_trouble "$tag")
  if [ "$mode" = smoke ]; then
    if [ -n "$trouble" ]; then report FAIL "bench/$1" "$trouble"; else report PASS "bench/$1" "(smoke)"; fi
    return
  fi
  case $trouble in timed* | killed*) report FAIL "bench/$1" "$trouble"; return ;; esac
  if [ "$rc" -ne 0 ]; then report FAIL "bench/$1" "exit status $rc: $(first_err "$tag")"; return; fi
  if ! grep -qx "check ok" "$results/$tag.out"; then report FAIL "bench/$1" "wrong results"; return; fi
  record_metrics gpucc "$tag"
  report PASS "bench/$1" "$(awk 'NF == 2 && $1 != "check" { printf "%s %s  ", $1, $2 }' "$results/$tag.out")"
}

# The CUDA C twin of a benchmark, built here with nvcc at the same sizes.
nvcc=${GPUKIT_NVCC:-}
if [ -z "$nvcc" ]; then
  if command -v nvcc >/dev/null 2>&1; then nvcc=nvcc
  elif [ -x /usr/local/cuda/bin/nvcc ]; then nvcc=/usr/local/cuda/bin/nvcc
  else nvcc=none
  fi
fi
arch=${GPUKIT_NVCC_ARCH:-}
if [ -z "$arch" ]; then
  cap=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -n 1 | tr -d ' .')
  case $cap in [0-9][0-9] | [0-9][0-9][0-9]) arch=sm_$cap ;; *) arch=sm_90 ;; esac
fi

check_cuda() { # name
  tag=cuda-$1
  if [ "$nvcc" = none ]; then report SKIP "cuda/$1" "no nvcc"; return; fi
  # The flags file holds -D options only, one word each.
  # shellcheck disable=SC2046
  if ! "$nvcc" -O3 -arch="$arch" $(cat "$here/cuda/bench_$1.flags") -I"$here/cuda" \
      -o "$results/bin/bench_$1" "$here/cuda/bench_$1.cu" >"$results/$tag.build" 2>&1; then
    report FAIL "cuda/$1" "nvcc failed: $(head -n 1 "$results/$tag.build" | cut -c 1-120)"
    return
  fi
  run_prog "$tag" "$results/bin/bench_$1"
  if [ "$rc" -eq 77 ]; then report SKIP "cuda/$1" "$(head -n 1 "$results/$tag.out" | sed 's/^skip: //')"; return; fi
  if [ "$rc" -ne 0 ]; then report FAIL "cuda/$1" "exit status $rc: $(first_err "$tag")"; return; fi
  if ! grep -qx "check ok" "$results/$tag.out"; then report FAIL "cuda/$1" "wrong results"; return; fi
  record_metrics cuda "$tag"
  report PASS "cuda/$1" "$(awk 'NF == 2 && $1 != "check" { printf "%s %s  ", $1, $2 }' "$results/$tag.out")"
}

# The ratios, from $results/metrics: every metric gpucc / CUDA C, and the
# kernels' bandwidth against the device-to-device copy rate on each side.
print_ratios() {
  [ -s "$results/metrics" ] || return 0
  echo "ratios (gpucc / CUDA C: above 1 is better for GB/s and GFLOP/s, below 1 for us):"
  awk '
    { v[$1, $2] = $3; if (!($2 in seen)) { seen[$2] = 1; order[++n] = $2 } }
    function num(x) { return x + 0 }
    END {
      for (i = 1; i <= n; i++) {
        m = order[i]
        g = (("gpucc", m) in v) ? v["gpucc", m] : ""
        c = (("cuda", m) in v) ? v["cuda", m] : ""
        line = sprintf("  %-20s gpucc %10s   CUDA C %10s", m, g == "" ? "-" : g, c == "" ? "-" : c)
        if (g != "" && c != "" && num(c) != 0) line = line sprintf("   %.2fx", num(g) / num(c))
        print line
      }
      split("vecadd_gbps saxpy_gbps", ks, " ")
      for (k = 1; k <= 2; k++) {
        m = ks[k]
        line = ""
        if ((("gpucc", m) in v) && (("gpucc", "copy_gbps") in v) && num(v["gpucc", "copy_gbps"]) > 0)
          line = sprintf("gpucc %.2fx", num(v["gpucc", m]) / num(v["gpucc", "copy_gbps"]))
        if ((("cuda", m) in v) && (("cuda", "copy_gbps") in v) && num(v["cuda", "copy_gbps"]) > 0)
          line = line sprintf("   CUDA C %.2fx", num(v["cuda", m]) / num(v["cuda", "copy_gbps"]))
        if (line != "") printf "  %-16s %s of the device-to-device copy rate\n", substr(m, 1, index(m, "_") - 1) " / copy", line
      }
    }' "$results/metrics"
}

gpu=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -n 1)
count=$(grep -c . "$here/programs")
echo "gpucc GPU check kit: $count programs, backend $backend, mode $mode${gpu:+, GPU: $gpu}"
echo "  built by $(cat "$here/BUILT" 2>/dev/null)"
: >"$results/metrics"
benches=
while read -r kind name; do
  case $kind in
    e2e) check_e2e "$name" ;;
    upstream) check_upstream "$name" ;;
    bench) check_bench "$name"; benches="$benches $name" ;;
    *) report FAIL "$kind/$name" "unknown kind in programs" ;;
  esac
done <"$here/programs"
for name in $benches; do
  check_cuda "$name"
done
print_ratios
echo "gpu-kit: $passed passed, $failed failed, $skipped skipped in $(($(date +%s) - start)) s; outputs in $results"
[ "$failed" -eq 0 ]
