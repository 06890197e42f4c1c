#!/bin/sh
# The cache's statistics and commands, as ccache's -s, -z, -C: -v says
# whether each job's objects were a hit or a miss; --cache-stats sums them
# over runs (concurrent ones included) with the entries and their size;
# --cache-zero-stats and --cache-clear do what they say; a stats file that
# cannot be written or locked never fails a build. (Remote hits:
# remote_cache.sh.) Usage: cache_stats.sh GPUCC PROGRAM.mlir
set -eu
gpucc=$1 prog=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
export GPUCC_CACHE_DIR="$work/cache"
unset GPUCC_REMOTE_CACHE
flags="--offload-arch=host -v"
. "$(dirname "$0")/../lib/check.sh"
# stats_are HITS LOCAL REMOTE MISSES ENTRIES: what --cache-stats says.
stats_are() {
  "$gpucc" --cache-stats >stats.out || return 1
  grep -qx "hits: $1 (local $2, remote $3)" stats.out && grep -qx "misses: $4" stats.out &&
    grep -q "^entries: $5 " stats.out || { sed 's/^/  | /' stats.out >&2; return 1; }
}
cp "$prog" p.mlir

check empty_cache stats_are 0 0 0 0 0
check names_directory grep -qx "cache directory: $work/cache" stats.out
check no_remote grep -qx "remote cache: none" stats.out

# One device job (host target) and one host object per build.
"$gpucc" $flags p.mlir -o app1 2>log1
check first_build_misses sh -c "grep -q '^gpucc: cache: miss: device code for host: p.mlir\$' log1 &&
  grep -q '^gpucc: cache: miss: host code: p.mlir\$' log1 && ! grep -q 'cache: hit' log1"
check counted_misses stats_are 0 0 0 2 2
"$gpucc" $flags p.mlir -o app2 2>log2
check second_build_hits sh -c "grep -q '^gpucc: cache: hit (local): cached device code for host: p.mlir\$' log2 &&
  grep -q '^gpucc: cache: hit (local): cached host code: p.mlir\$' log2 && ! grep -q 'cache: miss' log2"
check counted_hits stats_are 2 2 0 2 2
check hit_rate grep -qx "hit rate: 50.0%" stats.out
check size_shown grep -Eq "^size on disk: [0-9.]+ (bytes|KiB|MiB) \(limit 1.0 GiB\)$" stats.out
check stats_file_kept sh -c "grep -qx 'hits_local 2' cache/stats && grep -qx 'misses 2' cache/stats"

# Runs that do not use the cache count nothing.
"$gpucc" --no-cache --offload-arch=host p.mlir -o app3 2>/dev/null
"$gpucc" -fsyntax-only --offload-arch=host p.mlir 2>/dev/null
check unused_cache_not_counted stats_are 2 2 0 2 2

# Four builds at once: every one's counts arrive (2 hits each), no temp file
# is left in the cache.
pids=
for i in 1 2 3 4; do
  "$gpucc" --offload-arch=host p.mlir -o "c$i" 2>/dev/null &
  pids="$pids $!"
done
ok=1
for pid in $pids; do wait "$pid" || ok=0; done
check concurrent_builds test "$ok" -eq 1
check concurrent_counts_summed stats_are 10 10 0 2 2
check concurrent_no_temp_files sh -c "! ls cache | grep -q tmp"

# --cache-zero-stats zeroes the counts and keeps the entries.
"$gpucc" --cache-zero-stats >zero.out
check zero_says grep -qx "statistics zeroed" zero.out
check zeroed stats_are 0 0 0 0 2
"$gpucc" --offload-arch=host p.mlir -o app4 2>/dev/null
check counts_after_zero stats_are 2 2 0 0 2

# --cache-clear removes every entry and keeps the statistics; the next
# build compiles again.
"$gpucc" --cache-clear >clear.out
check clear_says grep -Eq "^cleared $work/cache: 2 entries \(" clear.out
check cleared stats_are 2 2 0 0 0
check cleared_no_entry_files sh -c "! find cache -name '*.dev' -o -name '*.host' | grep -q ."
"$gpucc" $flags p.mlir -o app5 2>log5
check after_clear_misses grep -q '^gpucc: cache: miss: device code for host' log5
check after_clear_counted stats_are 2 2 0 2 2
check after_clear_same_program cmp app1 app5
# The commands together: clear and zero first, then the statistics.
"$gpucc" --cache-stats --cache-zero-stats --cache-clear >all.out
check commands_in_order sh -c "head -n 1 all.out | grep -q '^cleared ' && sed -n 2p all.out | grep -qx 'statistics zeroed' &&
  grep -qx 'hits: 0 (local 0, remote 0)' all.out && grep -q '^entries: 0 ' all.out"

# A stats file that cannot be written (a directory in its place) or a lock
# held elsewhere: the build succeeds, silently.
rm -f cache/stats
mkdir cache/stats
"$gpucc" --offload-arch=host p.mlir -o app6 2>log6 && rc=0 || rc=$?
check unwritable_stats_builds sh -c "test $rc -eq 0 && test ! -s log6 && cmp -s app1 app6"
rmdir cache/stats
if command -v flock >/dev/null; then
  # This shell holds the lock while gpucc runs: the build neither fails
  # nor waits for it (which would hang here), and its counts are dropped.
  "$gpucc" --cache-stats >before.out
  exec 9>cache/stats.lock
  flock 9
  "$gpucc" --offload-arch=host p.mlir -o app7 2>log7 && rc=0 || rc=$?
  exec 9>&-
  check locked_stats_builds sh -c "test $rc -eq 0 && test ! -s log7 && cmp -s app1 app7"
  "$gpucc" --cache-stats >after.out
  check locked_stats_counts_dropped cmp -s before.out after.out
else
  echo "skip locked_stats_*: no flock(1)"
fi

# No cache: the commands say so and succeed.
GPUCC_CACHE_DIR= "$gpucc" --cache-stats >off.out && rc=0 || rc=$?
check off_stats sh -c "test $rc -eq 0 && grep -q '^cache: off' off.out"

# Documented.
"$gpucc" --help >help.out
"$gpucc" --print-man-page >man.out
for flag in --cache-stats --cache-clear --cache-zero-stats; do
  check "help_$flag" grep -q -- "$flag" help.out
  check "man_$flag" grep -q -- "$(echo "$flag" | sed 's/-/\\\\-/g')" man.out
done

checks_done
