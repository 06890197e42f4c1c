#!/bin/sh
# The device object cache: a second build compiles no device code, a
# host-only change compiles no device code, a kernel change does, results
# are identical with and without the cache, the CUDA toolkit keys only NVIDIA
# code, concurrent builds are safe, the size limit holds, and damaged entries
# are found, removed and compiled again. Usage: cache.sh GPUCC PROGRAM.mlir
set -eu
gpucc=$1 prog=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
export GPUCC_CACHE_DIR="$work/cache"
flags="--offload-arch=sm_90,gfx90a,host -v"
. "$(dirname "$0")/../lib/check.sh"
compiled() { grep -c 's  device code for' "$1" || true; }
fetched() { grep -c 's  cached device code for' "$1" || true; }
host_compiled() { grep -c 's  host code: ' "$1" || true; }
host_fetched() { grep -c 's  cached host code: ' "$1" || true; }

cp "$prog" p.mlir
"$gpucc" $flags p.mlir -o app1 2>log1
check first_build_compiles test "$(compiled log1)" -eq 3
"$gpucc" $flags p.mlir -o app2 2>log2
check second_build_fetches sh -c "test $(compiled log2) -eq 0 && test $(fetched log2) -eq 3"
check same_result cmp app1 app2
check first_build_host_compiled test "$(host_compiled log1)" -eq 1
# The CUDA toolkit keys NVIDIA code only: another toolkit (here none, so PTX
# only) or other -Xptxas options recompile sm_90 and leave gfx90a and host
# cached.
mkdir nocuda
"$gpucc" $flags --cuda-path=nocuda p.mlir -o app_nc 2>log_nc
check other_cuda_recompiles_nvidia_only sh -c "test $(compiled log_nc) -eq 1 && test $(fetched log_nc) -eq 2 && grep -q 's  device code for sm_90' log_nc"
"$gpucc" $flags -Xptxas -O3 p.mlir -o app_x 2>log_x
check Xptxas_recompiles_nvidia_only sh -c "test $(compiled log_x) -eq 1 && test $(fetched log_x) -eq 2"
# Each kind keys its own tools and libraries (struct target_kind's
# cache_inputs). AMD: the device libraries found. A copy of them elsewhere,
# then one of them changed, recompiles gfx90a only; an empty library
# directory is not served the objects built with full ones.
bitcode=
for d in /usr/lib/x86_64-linux-gnu/amdgcn/bitcode /opt/rocm/amdgcn/bitcode; do
  [ -d "$d" ] && bitcode=$d && break
done
if [ -n "$bitcode" ]; then
  mkdir -p rocm/amdgcn/bitcode empty/amdgcn/bitcode
  cp "$bitcode"/*.bc rocm/amdgcn/bitcode/
  "$gpucc" $flags --rocm-path=rocm p.mlir -o app_r1 2>log_r1
  check rocm_copy_recompiles_amd_only sh -c "test $(compiled log_r1) -eq 1 && grep -q 's  device code for gfx90a' log_r1"
  "$gpucc" $flags --rocm-path=rocm p.mlir -o app_r2 2>log_r2
  check rocm_same_libraries_fetch test "$(compiled log_r2)" -eq 0
  one=$(ls rocm/amdgcn/bitcode/*.bc | head -n 1)
  touch -d '2001-02-03 04:05:06' "$one"
  "$gpucc" $flags --rocm-path=rocm p.mlir -o app_r3 2>log_r3
  check rocm_changed_library_recompiles sh -c "test $(compiled log_r3) -eq 1 && grep -q 's  device code for gfx90a' log_r3"
  "$gpucc" $flags --rocm-path=empty p.mlir -o app_e 2>log_e || true
  check rocm_empty_not_served sh -c "grep -q 's  device code for gfx90a' log_e && ! grep -q 'cached device code for gfx90a' log_e"
else
  echo "skip rocm_*: no AMD device libraries on this machine"
fi
# Host: the C compiler that links the kernels' shared object (another cc
# along PATH recompiles the host target only).
mkdir wrap
printf '#!/bin/sh\nexec %s "$@"\n' "$(command -v cc)" >wrap/cc
chmod +x wrap/cc
PATH="$work/wrap:$PATH" "$gpucc" $flags p.mlir -o app_cc 2>log_cc
check other_cc_recompiles_host_only sh -c "test $(compiled log_cc) -eq 1 && grep -q 's  device code for host' log_cc"

check second_build_host_fetched sh -c "test $(host_compiled log2) -eq 0 && test $(host_fetched log2) -eq 1"
# -g: line tables come from locations the cache key does not hold.
"$gpucc" $flags -g p.mlir -o app_g1 2>log_g1
"$gpucc" $flags -g p.mlir -o app_g2 2>log_g2
check debug_host_not_cached test "$(host_compiled log_g2)" -eq 1
GPUCC_CACHE_DIR= "$gpucc" $flags p.mlir -o app3 2>log3
check no_cache_same_result cmp app1 app3
"$gpucc" $flags --no-cache p.mlir -o app4 2>log4
check no_cache_flag test "$(compiled log4)" -eq 3

# A host-only change: the memset value 2.0 becomes 5.0.
sed 's/arith.constant 2.0 : f32/arith.constant 5.0 : f32/' p.mlir >host_change.mlir
check host_change_differs sh -c "! cmp -s p.mlir host_change.mlir"
"$gpucc" $flags host_change.mlir -o app5 2>log5
check host_change_no_device_work test "$(compiled log5)" -eq 0
check host_change_host_compiled test "$(host_compiled log5)" -eq 1
check host_change_runs sh -c "GPUCC_BACKEND=host ./app5 | grep -q '^\\[6,  6,'"

# A kernel change: add 1.0 becomes add 1.5.
sed 's/%one = arith.constant 1.0 : f32/%one = arith.constant 1.5 : f32/' p.mlir >kernel_change.mlir
"$gpucc" $flags kernel_change.mlir -o app6 2>log6
check kernel_change_recompiles test "$(compiled log6)" -eq 3
check kernel_change_runs sh -c "GPUCC_BACKEND=host ./app6 | grep -q '^\\[3.5,  3.5,'"

# Two builds at once into an empty cache.
export GPUCC_CACHE_DIR="$work/cache2"
"$gpucc" $flags p.mlir -o c1 2>/dev/null &
a=$!
"$gpucc" $flags p.mlir -o c2 2>/dev/null &
b=$!
ra=0; rb=0
wait $a || ra=$?
wait $b || rb=$?
check concurrent_builds sh -c "test $ra -eq 0 && test $rb -eq 0 && cmp -s c1 app1 && cmp -s c2 app1"
check concurrent_no_partial_entries sh -c "! find '$work/cache2' -name '*.tmp.*' | grep -q ."

# The size limit: with a limit of one byte no entry may stay (the
# statistics stay: cache_stats.sh).
export GPUCC_CACHE_DIR="$work/cache3"
GPUCC_CACHE_SIZE=1 "$gpucc" $flags p.mlir -o c3 2>/dev/null
check size_limit sh -c "test -z \"\$(find '$work/cache3' -type f ! -name stats ! -name stats.lock)\""
# Trimming deletes cache entries only: not the files beside the cache
# directory (".." has two characters, like a shard's name: it deleted them)
# nor other files in a shard.
mkdir -p "$work/beside/c/ab"
echo keep >"$work/beside/user.txt"
echo keep >"$work/beside/c/ab/notes.txt"
echo keep >"$work/beside/c/ab/ab-not-an-entry"
GPUCC_CACHE_DIR="$work/beside/c" GPUCC_CACHE_SIZE=1 "$gpucc" $flags p.mlir -o c4 2>/dev/null
check trim_spares_others sh -c "test -f '$work/beside/user.txt' && test -f '$work/beside/c/ab/notes.txt' && test -f '$work/beside/c/ab/ab-not-an-entry'"
check trim_still_trims sh -c "! find '$work/beside/c' -name '*.dev' | grep -q ."

# A damaged entry is a miss: each kind (device file, finished object, host
# object) damaged each way (cut short, zeroed, bytes changed in the middle)
# gives one warning per entry, a build identical to a clean one, and good
# entries again (the next build fetches everything and says nothing).
export GPUCC_CACHE_DIR="$work/cache_d"
"$gpucc" $flags p.mlir -o d0 2>/dev/null
damage() { # damage HOW FILE
  size=$(wc -c <"$2")
  case $1 in
  cut) head -c $((size / 2)) "$2" >"$2.cut" && mv "$2.cut" "$2" ;;
  zero) head -c "$size" /dev/zero >"$2" ;;
  flip) printf '\001\002\003\004\005\006\007\010' |
    dd of="$2" bs=1 seek=$((size / 2)) conv=notrunc 2>/dev/null ;;
  esac
}
for part in dev lnk host; do
  entries=$(find "$work/cache_d" -name "*.$part" | sort)
  [ -n "$entries" ] || continue # no ptxas: no finished objects
  n=$(echo "$entries" | wc -l)
  for how in cut zero flip; do
    for e in $entries; do damage "$how" "$e"; done
    "$gpucc" $flags p.mlir -o "d_$part$how" 2>"log_d_$part$how" && rc=0 || rc=$?
    check "damaged_${part}_$how" sh -c "test $rc -eq 0 &&
      test \$(grep -c \"warning: damaged cache entry '.*\\.$part' (removed)\" log_d_$part$how) -eq $n &&
      cmp -s d_$part$how app1"
    again=log_d_$part${how}_again
    "$gpucc" $flags p.mlir -o "d_$part${how}_again" 2>"$again"
    check "repaired_${part}_$how" sh -c "! grep -q warning $again &&
      test $(compiled "$again") -eq 0 && test $(host_compiled "$again") -eq 0"
  done
done

checks_done
