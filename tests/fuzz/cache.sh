#!/bin/sh
# Damaged cache entries (issue 22), fuzzed: random damage to a random entry
# of a warm cache, from mutate.c's byte-level kinds (bits flipped, bytes lost,
# the file cut short) with fixed seeds. Every build must succeed with exactly
# one "damaged cache entry" warning when the entry changed, write a program
# identical to a clean build's, and leave the cache whole again (the next
# build warns of nothing). tests/driver/cache.sh has the fixed cases.
#   cache.sh GPUCC MUTATE PROGRAM
# GPUCC_FUZZ_COUNT (default 24) and GPUCC_FUZZ_SEED (default 1) as in fuzz.sh.
set -u
gpucc=$1 mutate=$2 prog=$3
count=${GPUCC_FUZZ_COUNT:-24}
seed=${GPUCC_FUZZ_SEED:-1}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
# NVIDIA targets add device (.dev) and finished (.lnk) entries to the host
# kind's (.host, .dev, .lnk) when ptxas is there.
targets=host
[ -x /usr/local/cuda/bin/ptxas ] && targets=host,sm_90
export GPUCC_CACHE_DIR="$work/cache"
"$gpucc" --offload-arch=$targets --no-cache "$prog" -o clean 2>err || { echo "FAIL: clean build"; cat err; exit 1; }
"$gpucc" --offload-arch=$targets "$prog" -o warm 2>err || { echo "FAIL: first cached build"; cat err; exit 1; }
cmp -s clean warm || { echo "FAIL: a cached build differs from a clean one"; exit 1; }
# Printed memrefs carry their address, which differs from run to run.
run() { "$1" >raw 2>&1 && sed 's/base@ = 0x[0-9a-f]*//' raw; }
run ./clean >expected || { echo "FAIL: the clean program failed"; exit 1; }
kinds="flip delete truncate"
bad=0 damaged=0 same=0
i=0
while [ "$i" -lt "$count" ]; do
  s=$((seed * 100003 + i))
  entries=$(find cache -type f \( -name '*.dev' -o -name '*.lnk' -o -name '*.host' \) | sort)
  n=$(echo "$entries" | wc -l)
  entry=$(echo "$entries" | sed -n "$((s % n + 1))p")
  kind=$(echo "$kinds" | tr ' ' '\n' | sed -n "$((i % 3 + 1))p")
  what="case $i: mutate $kind $s on the ${entry##*.} entry"
  i=$((i + 1))
  "$mutate" "$kind" "$s" <"$entry" >m || { echo "FAIL: $what: mutate failed"; bad=$((bad + 1)); continue; }
  warnings=1
  if cmp -s m "$entry"; then warnings=0; same=$((same + 1)); else damaged=$((damaged + 1)); fi
  cp m "$entry"
  rm -f app
  "$gpucc" --offload-arch=$targets "$prog" -o app 2>err
  rc=$?
  got=$(grep -c "warning: damaged cache entry '.*' (removed)" err)
  why=
  if [ "$rc" -ne 0 ]; then why="exit $rc"
  elif [ "$got" -ne "$warnings" ]; then why="$got warnings, $warnings expected"
  elif ! cmp -s app clean; then why="the program differs from a clean build's"
  elif ! run ./app >out || ! cmp -s out expected; then why="the program's output differs"
  else
    "$gpucc" --offload-arch=$targets "$prog" -o app 2>err2
    grep -q warning err2 && why="the entry was not repaired"
  fi
  if [ -n "$why" ]; then
    bad=$((bad + 1))
    echo "FAIL: $what: $why"
    head -c 300 err | sed 's/^/  | /'
  fi
done
echo "cache damage: $count cases ($damaged entries changed, $same unchanged), $bad failed"
[ "$bad" -eq 0 ]
