#!/bin/sh
# gpu-kit.sh: builds gpucc's GPU check kit, on a machine without a GPU, for a
# machine with one that has neither LLVM nor gpucc (its driver and, for the
# CUDA C comparison, nvcc).
#
#   scripts/gpu-kit.sh [-B BUILD] [-o KIT] [--small] [--only "NAME ..."]
#
#   -B BUILD   gpucc's build tree (default: build): BUILD/bin/gpucc and the
#              static runtime BUILD/lib/libgpucc_rt.a
#   -o KIT     the kit folder to write (default: BUILD/gpu-kit); replaced
#   --small    tiny benchmark sizes: a kit for testing the kit on the CPU
#   --only L   only the programs named in L (e2e, upstream or benchmark
#              names: atomics, printf_formats, bandwidth, ...)
#
# The kit is one folder of at most 64 MiB:
#   bin/e2e/       every e2e program (tests/e2e, the e2e_programs list) and
#                  the tensor-core programs built for sm_90 (tests/tensorcore),
#   bin/upstream/  every tests/upstream program of MODE run, and
#   bin/bench/     the GPU benchmarks (tests/deploy/kit/bench_*.mlir), built
#                  for sm_90 and host and linked with the static runtime:
#                  they need the C library alone; bench_codegen times the
#                  kernels of tests/bench/codegen, spliced in from there
#   expect/     expected outputs (e2e/*.out), CHECK lines (upstream/*.check)
#               and exit/stderr rules (upstream/*.spec)
#   cuda/       the benchmarks in CUDA C with their sizes, built there
#   run.sh      the runner (POSIX sh), filecheck.awk, programs, BUILT, README
# Copy it over and run `sh run.sh` there; see README.md, "Deploying".
#
# Environment: GPUCC_CACHE_DIR as for gpucc; CC (default cc) links.
set -eu

repo=$(cd "$(dirname "$0")/.." && pwd)
build=$repo/build
kit=
small=no
only=
while [ $# -gt 0 ]; do
  case $1 in
    -B) build=$2; shift 2 ;;
    -o) kit=$2; shift 2 ;;
    --small) small=yes; shift ;;
    --only) only=$2; shift 2 ;;
    -h | --help) sed -n '2,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "gpu-kit.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
case $build in /*) ;; *) build=$(pwd)/$build ;; esac
[ -n "$kit" ] || kit=$build/gpu-kit
case $kit in /*) ;; *) kit=$(pwd)/$kit ;; esac

gpucc=$build/bin/gpucc
runtime=$build/lib/libgpucc_rt.a
cc=${CC:-cc}
targets=sm_90,host
src=$repo/tests/deploy/kit
codegen=$repo/tests/bench/codegen
die() { echo "gpu-kit.sh: $*" >&2; exit 1; }
[ -x "$gpucc" ] || die "no gpucc at '$gpucc' (build first, or give -B)"
[ -f "$runtime" ] || die "no static runtime at '$runtime' (build first, or give -B)"
start=$(date +%s)

# The words of a set(<name> ...) in a CMakeLists.txt, comments left out.
cmake_list() { # file name
  awk -v name="$2" '
    $0 ~ "set\\(" name "([ \t]|$)" { on = 1; sub(".*set\\(" name, "") }
    on { line = $0; sub(/#.*/, "", line); done = sub(/\).*/, "", line)
         n = split(line, w, /[ \t]+/); for (i = 1; i <= n; i++) if (w[i] != "") print w[i]
         if (done) exit }' "$1"
}
wanted() { # name
  [ -z "$only" ] && return 0
  for w in $only; do [ "$w" = "$1" ] && return 0; done
  return 1
}

# Benchmark sizes: full ones for an H200-class GPU (each benchmark well under
# a second of GPU time), tiny ones for the CPU.
sizes_of() { # benchmark
  if [ "$small" = yes ]; then
    case $1 in
      bandwidth) echo "N=4096 REPS=3" ;;
      matmul) echo "N=64 REPS=2" ;;
      reduce) echo "N=8192 REPS=2" ;;
      launch) echo "REPS=20 SYNC_REPS=5" ;;
      codegen) echo "N=8192 M=64 WT=2 REPS=2" ;;
    esac
  else
    case $1 in
      bandwidth) echo "N=67108864 REPS=100" ;;
      matmul) echo "N=4096 REPS=5" ;;
      reduce) echo "N=67108864 REPS=50" ;;
      launch) echo "REPS=20000 SYNC_REPS=2000" ;;
      codegen) echo "N=16777216 M=2048 WT=64 REPS=20" ;;
    esac
  fi
}

# bench_codegen.mlir times the kernels tests/bench/codegen compares with
# nvcc's statically, from one copy: the gpu.modules between the "BEGIN/END
# bench kernels" lines of kernels.mlir and wmma.mlir go where its @KERNELS@
# line stands, and its CUDA C twin includes kernels.cu as codegen_kernels.cu.
splice_kernels() { # file
  awk '/\/\/ END bench kernels/ { on = 0 } on { print } /\/\/ BEGIN bench kernels/ { on = 1 }' \
    "$codegen/kernels.mlir" "$codegen/wmma.mlir" >"$b/kernels.mlir"
  [ -s "$b/kernels.mlir" ] || die "no kernels between the BEGIN/END lines in $codegen"
  awk -v k="$b/kernels.mlir" '/\/\/ @KERNELS@/ { while ((getline l <k) > 0) print l; next } { print }' \
    "$1" >"$1.spliced" && mv "$1.spliced" "$1"
  cp "$codegen/kernels.cu" "$work/cuda/codegen_kernels.cu"
}

work=$kit.tmp
rm -rf "$work"
mkdir -p "$work/bin/e2e" "$work/bin/upstream" "$work/bin/bench" "$work/expect/e2e" \
  "$work/expect/upstream" "$work/cuda" "$work/.build/src" "$work/.build/log"
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM HUP
b=$work/.build

# The job list, one line per program: kind name source "gpucc flags".
: >"$b/jobs"
for name in $(cmake_list "$repo/tests/e2e/CMakeLists.txt" e2e_programs); do
  wanted "$name" || continue
  echo "e2e $name $repo/tests/e2e/$name.mlir" >>"$b/jobs"
  if [ -f "$repo/tests/e2e/$name.out" ]; then cp "$repo/tests/e2e/$name.out" "$work/expect/e2e/"; fi
done
# Tensor-core programs (name:targets): those meant for sm_90.
for entry in $(cmake_list "$repo/tests/tensorcore/CMakeLists.txt" tensorcore_programs); do
  name=${entry%%:*}
  case ",${entry#*:}," in *,sm_90,*) ;; *) continue ;; esac
  wanted "$name" || continue
  echo "e2e $name $repo/tests/tensorcore/$name.mlir" >>"$b/jobs"
  cp "$repo/tests/tensorcore/$name.out" "$work/expect/e2e/"
done
for name in $(cmake_list "$repo/tests/upstream/CMakeLists.txt" upstream_programs); do
  wanted "$name" || continue
  prog=$repo/tests/upstream/$name.mlir
  directive() { sed -n "s|^// $1: *||p" "$prog" | head -n 1; }
  [ "$(directive MODE)" = run ] || continue
  # Its own flags, with our targets instead of its --offload-arch.
  flags=$(directive GPUCC | tr ' ' '\n' | grep -v '^--offload-arch' | tr '\n' ' ')
  echo "upstream $name $prog $flags" >>"$b/jobs"
  want=$work/expect/upstream/$name
  grep 'CHECK' "$prog" >"$want.check" || die "$name: no CHECK lines"
  : >"$want.spec"
  if [ "$(directive EXIT)" = nonzero ]; then echo "exit nonzero" >>"$want.spec"; fi
  if [ "$(directive STDERR)" = yes ]; then echo "stderr yes" >>"$want.spec"; fi
done
for name in bandwidth matmul reduce launch codegen; do
  wanted "$name" || continue
  script=
  flags=
  for kv in $(sizes_of "$name"); do
    script="$script s/@${kv%%=*}@/${kv#*=}/g;"
    flags="$flags -D$kv"
  done
  sed "$script" "$src/bench_$name.mlir" >"$b/src/bench_$name.mlir"
  if grep -q '@KERNELS@' "$b/src/bench_$name.mlir"; then splice_kernels "$b/src/bench_$name.mlir"; fi
  echo "bench $name $b/src/bench_$name.mlir" >>"$b/jobs"
  cp "$src/bench_$name.cu" "$work/cuda/"
  echo "$flags" >"$work/cuda/bench_$name.flags"
done
[ -s "$b/jobs" ] || die "no program matches --only '$only'"
cp "$src/kit_cuda.h" "$work/cuda/"

# One program: gpucc -c for our targets, then the static link the driver's
# --gpucc-rt=static does, and a check that nothing but the C library family
# is needed where the kit goes.
build_one() { # kind name source flags...
  kind=$1 name=$2 source=$3
  shift 3
  log=$b/log/$kind-$name
  exe=$work/bin/$kind/$name
  {
    # $@ holds the program's own flags.
    "$gpucc" "--offload-arch=$targets" "$@" -c "$source" -o "$b/$kind-$name.o" &&
      "$cc" -o "$exe" "$b/$kind-$name.o" "$runtime" \
        '-Wl,--export-dynamic-symbol=gpuccHost*' -lm -lpthread -ldl &&
      strip --strip-debug "$exe"
  } >"$log" 2>&1 || { echo "$kind/$name: build failed" >>"$log"; return 1; }
  needed=$(readelf -d "$exe" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' |
    grep -v -E '^(libc\.so\.6|libm\.so\.6|libpthread\.so\.0|libdl\.so\.2|ld-linux-x86-64\.so\.2)$' || true)
  if [ -n "$needed" ]; then
    echo "$kind/$name needs more than the C library: $needed" >>"$log"
    return 1
  fi
}

# As many builds at once as there are cores (gpucc runs its device jobs in
# parallel too, so this only fills the gaps).
jobs=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
running=0
: >"$b/failed"
while read -r kind name source flags; do
  # $flags is a word list by design (no quoting in directives).
  # shellcheck disable=SC2086
  (build_one "$kind" "$name" "$source" $flags || echo "$kind-$name" >>"$b/failed") </dev/null &
  running=$((running + 1))
  if [ "$running" -ge "$jobs" ]; then wait; running=0; fi
done <"$b/jobs"
wait
if [ -s "$b/failed" ]; then
  while read -r name; do cat "$b/log/$name" >&2; done <"$b/failed"
  die "$(wc -l <"$b/failed") program(s) failed to build"
fi

awk '{ print $1, $2 }' "$b/jobs" >"$work/programs"
cp "$src/run.sh" "$src/filecheck.awk" "$work/"
echo "gpucc $("$gpucc" --version 2>/dev/null | head -n 1 | sed 's/^gpucc //'), targets $targets,$([ "$small" = yes ] && echo ' small sizes,') on $(uname -n) $(date -u +%Y-%m-%dT%H:%MZ)" >"$work/BUILT"
cat >"$work/README" <<'EOF'
gpucc GPU check kit

Run on a machine with an NVIDIA GPU and its driver (nvcc optional, for the
CUDA C comparison):

    sh run.sh

It prints one line per check (PASS, FAIL, SKIP), then the benchmark ratios
gpucc / CUDA C, and exits with 0 when nothing failed. GPUKIT_* variables
(see the head of run.sh) choose the backend, nvcc, its -arch and timeouts.
Nothing here needs LLVM or gpucc: the programs in bin/ are linked with
gpucc's static runtime and need only the C library and the GPU driver.
EOF
rm -rf "$b"

size_kb=$(du -sk "$work" | awk '{ print $1 }')
[ "$size_kb" -le 65536 ] || die "the kit is $size_kb KiB, over its 64 MiB"
rm -rf "$kit"
mv "$work" "$kit"
trap - EXIT
echo "gpu-kit: $(wc -l <"$kit/programs") programs, $size_kb KiB, built in $(($(date +%s) - start)) s: $kit"
