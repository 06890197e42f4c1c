#!/bin/sh
# Mutation fuzzing of gpucc (issue 13): mutants of the e2e programs must each
# give a clean result, never a crash, a hang or litter.
#   fuzz.sh GPUCC MUTATE E2E_DIR KINDS
# KINDS is a comma-separated list of mutate.c's kinds; mutant i uses kind
# i mod |KINDS| on program i mod |programs|, with seed SEED * 100003 + i.
# Environment (for longer runs by hand):
#   GPUCC_FUZZ_COUNT  mutants to run (default 120: about 30 s here)
#   GPUCC_FUZZ_SEED   seed (default 1)
#   GPUCC_FUZZ_TIMEOUT seconds per gpucc run before it counts as a hang (30)
#   GPUCC_FUZZ_KEEP   a directory: failing mutants are copied there
#   GPUCC_FUZZ_ARCH   the targets (default host)
# Each gpucc runs with --offload-arch=$GPUCC_FUZZ_ARCH, a private TMPDIR and
# GPUCC_CACHE_DIR, and fails the run on: exit status >= 128 other than 130
# (a signal), a timeout (hang), anything left in its TMPDIR, a process still
# alive afterwards that carries the run's marker in its environment, or an
# output file after a failed build. Prints the outcome counts.
set -u
gpucc=$1 mutate=$2 e2e=$3 kinds=$4
count=${GPUCC_FUZZ_COUNT:-120}
seed=${GPUCC_FUZZ_SEED:-1}
limit=${GPUCC_FUZZ_TIMEOUT:-30}
keep=${GPUCC_FUZZ_KEEP:-}
arch=${GPUCC_FUZZ_ARCH:-host}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export GPUCC_CACHE_DIR="$work/cache"

programs=$(ls "$e2e"/*.mlir | sort)
nprog=$(echo "$programs" | wc -l)
nkinds=$(echo "$kinds" | tr ',' '\n' | wc -l)
ok=0 located=0 other=0 crash=0 hang=0 litter=0 bad=0
i=0
while [ "$i" -lt "$count" ]; do
  prog=$(echo "$programs" | sed -n "$((i % nprog + 1))p")
  kind=$(echo "$kinds" | tr ',' '\n' | sed -n "$((i % nkinds + 1))p")
  s=$((seed * 100003 + i))
  what="mutant $i: mutate $kind $s < $prog"
  i=$((i + 1))
  run="$work/run"
  rm -rf "$run"
  mkdir -p "$run/tmp" "$run/out"
  "$mutate" "$kind" "$s" <"$prog" >"$run/m.mlir" || { echo "FAIL: $what: mutate failed"; bad=$((bad + 1)); continue; }
  # The marker lets us find whatever this run started, wherever it went.
  marker="gpucc-fuzz-$$-$i"
  GPUCC_FUZZ_MARKER=$marker TMPDIR="$run/tmp" timeout -k 5 "$limit" \
    "$gpucc" --offload-arch="$arch" "$run/m.mlir" -o "$run/out/app" >"$run/stdout" 2>"$run/stderr"
  rc=$?
  why=
  if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
    why="hang (no result in ${limit}s)"; hang=$((hang + 1))
  elif [ "$rc" -ge 128 ] && [ "$rc" -ne 130 ]; then
    why="killed by signal $((rc - 128))"; crash=$((crash + 1))
  fi
  if [ -z "$why" ] && [ -n "$(ls -A "$run/tmp")" ]; then
    why="left in TMPDIR: $(ls -A "$run/tmp" | head -3 | tr '\n' ' ')"; litter=$((litter + 1))
  fi
  if [ -z "$why" ] && [ "$rc" -ne 0 ] && [ -n "$(ls -A "$run/out")" ]; then
    why="exit $rc but wrote $(ls -A "$run/out" | tr '\n' ' ')"; litter=$((litter + 1))
  fi
  if [ -z "$why" ]; then
    alive=$(grep -l "GPUCC_FUZZ_MARKER=$marker" /proc/[0-9]*/environ 2>/dev/null | head -3)
    if [ -n "$alive" ]; then
      why="left running: $(for f in $alive; do d=${f%/environ}; echo "${d#/proc/} $(tr '\0' ' ' <"$d/cmdline" | cut -c1-60)"; done)"
      litter=$((litter + 1))
    fi
  fi
  if [ -n "$why" ]; then
    bad=$((bad + 1))
    echo "FAIL: $what: $why"
    head -c 300 "$run/stderr" | sed 's/^/  | /'
    [ -z "$keep" ] || cp "$run/m.mlir" "$keep/mutant-$kind-$s.mlir"
  elif [ "$rc" -eq 0 ]; then
    ok=$((ok + 1))
  elif grep -q ':[0-9][0-9]*:[0-9][0-9]*: error: ' "$run/stderr"; then
    located=$((located + 1))
  else
    other=$((other + 1)) # an error without a location ("gpucc: error: ...")
  fi
  # Whatever is still running gets killed now, so that it cannot disturb the
  # next run (it has already been reported).
  for f in $(grep -l "GPUCC_FUZZ_MARKER=$marker" /proc/[0-9]*/environ 2>/dev/null); do
    d=${f%/environ}; kill -9 "${d#/proc/}" 2>/dev/null
  done
done
echo "fuzz: $count mutants (seed $seed, kinds $kinds): ok $ok, located error $located," \
  "other error $other, crash $crash, hang $hang, litter $litter"
[ "$bad" -eq 0 ]
