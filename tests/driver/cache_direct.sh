#!/bin/sh
# The direct cache (driver/direct_cache.h): a repeated -c command gets its
# object straight from the cache, without parsing, byte for byte what the
# build made; a changed input, flag, tool or PATH is a miss; options that
# change nothing in the object (-v, -j, -ftime-report, -MD) still hit; a
# damaged entry is a warning and a rebuild; a build that printed a warning
# stores nothing, so its warning comes back every time; GPUCC_CACHE_DIRECT=0
# turns it off. Usage: cache_direct.sh GPUCC PROGRAM.mlir
set -eu
gpucc=$1 prog=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
export GPUCC_CACHE_DIR="$work/cache"
unset GPUCC_REMOTE_CACHE GPUCC_CACHE_DIRECT GPUCC_TEST_CRASH GPUCC_TEST_JOB_LOG
. "$(dirname "$0")/../lib/check.sh"
cp "$prog" p.mlir
# %d of an index: gpucc warns about the conversion's width.
cat >w.mlir <<'MLIR'
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f() kernel {
      %i = gpu.thread_id x
      gpu.printf "%d\n", %i : index
      gpu.return
    }
  }
}
MLIR
host=--offload-arch=host
direct_entries() { find cache -name '*.obj' | wc -l; }
served() { grep -q '^gpucc: cache: hit (local): direct: p.o$' "$1"; }
parsed() { grep -q 'device code for host' "$1"; }
missed() { ! served "$1" && parsed "$1"; }

"$gpucc" -c $host p.mlir -o p.o -v 2>log1
cp p.o first.o
check first_is_a_miss missed log1
check stored_one test "$(direct_entries)" -eq 1
rm p.o
"$gpucc" -c $host p.mlir -o p.o -v 2>log2
check second_is_served served log2
check second_parsed_nothing sh -c "! grep -q 'device code for host' log2"
check same_bytes cmp first.o p.o
"$gpucc" -c $host p.mlir -o p.o -v -j 1 -ftime-report -MD 2>log3
check silent_options_still_hit served log3
check depfile_on_a_hit grep -q '^p.o:' p.d
check time_report_says_direct grep -q 'direct cache hit' log3

# Whatever changes the object is a miss.
"$gpucc" -c $host -O1 p.mlir -o p.o -v 2>log4
check other_flag_misses missed log4
printf '// one more line\n' >>p.mlir
"$gpucc" -c $host p.mlir -o p.o -v 2>log5
check changed_input_misses missed log5
cp "$prog" p.mlir
mkdir bin
printf '#!/bin/sh\nexec %s "$@"\n' "$(command -v cc)" >bin/cc
chmod +x bin/cc
PATH="$work/bin:$PATH" "$gpucc" -c $host p.mlir -o p.o -v 2>log6
check other_path_misses missed log6
touch -d '2001-01-01' bin/cc
PATH="$work/bin:$PATH" "$gpucc" -c $host p.mlir -o p.o -v 2>log7
check changed_cc_misses missed log7
PATH="$work/bin:$PATH" "$gpucc" -c $host p.mlir -o p.o -v 2>log8
check then_hits served log8

# Off: the device and host entries serve instead.
GPUCC_CACHE_DIRECT=0 "$gpucc" -c $host p.mlir -o p.o -v 2>log9
check off_parses sh -c "! grep -q 'direct: p.o' log9 && grep -q 'cached device code for host' log9"

# A damaged entry: one warning, removed, rebuilt, the same object.
for f in $(find cache -name '*.obj'); do printf 'x' | dd of="$f" bs=1 seek=60 conv=notrunc 2>/dev/null; done
rm p.o
"$gpucc" -c $host p.mlir -o p.o -v 2>log10
check damaged_warns grep -q "warning: damaged cache entry" log10
check damaged_not_served sh -c "! grep -q 'direct: p.o' log10"
check damaged_rebuilt_same cmp first.o p.o

# A build that warned stores no direct entry: its warning is said again.
direct_entries >before
"$gpucc" -c $host w.mlir -o w.o 2>w1 || true
"$gpucc" -c $host w.mlir -o w.o 2>w2 || true
check warning_each_time sh -c 'grep -q "warning: gpu.printf" w1 && grep -q "warning: gpu.printf" w2'
check warned_stored_nothing test "$(find cache -name '*.obj' | wc -l)" -eq "$(cat before)"
checks_done
