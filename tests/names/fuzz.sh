#!/bin/sh
# Random names (issue 22): COUNT gpu.modules and kernels named by random
# byte strings (seeded: the same names every run; every byte written as an
# MLIR \XX escape, NULs and invalid UTF-8 included, biased towards '/', '.',
# '_', '%', '@', '\', quotes and the letters of gpucc's prefix) must never
# make gpucc exit 70 or die of a signal, nor write a file outside the
# directories it was given: one program with all of them, built for host,
# sm_90 and gfx942, runs on the CPU with the right output, and each of the
# first SOLO names alone builds for the host and runs.
#   fuzz.sh GPUCC FATBIN_TOOL PROGRAM.awk SEED COUNT SOLO
set -eu
gpucc=$1 fatbin=$2 gen=$3 seed=$4 count=$5 solo=$6

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/tmp" "$work/out"
export GPUCC_CACHE_DIR="$work/out/cache" TMPDIR="$work/tmp"
fails=0
fail() { echo "FAIL $*" >&2; fails=$((fails + 1)); }

# MINSTD (exact in awk's doubles, the same in every awk). Module names are
# distinct (a program cannot have two modules of one name).
awk -v seed="$seed" -v count="$count" '
function rand31() { state = (state * 48271) % 2147483647; return state }
function name(   len, s, i, r) {
  len = rand31() % 20
  s = ""
  for (i = 0; i < len; i++) {
    r = rand31()
    if (r % 2) s = s sprintf("\\%02X", rand31() % 256)
    else s = s sprintf("\\%02X", ord[substr(bias, 1 + int(r / 2) % length(bias), 1)])
  }
  return "\"" s "\""
}
BEGIN {
  for (i = 0; i < 256; i++) ord[sprintf("%c", i)] = i
  bias = "/._%@\"\\ _gpucc__aZ9$-"
  state = seed % 2147483646 + 1
  while (n < count) {
    m = name()
    if (m in seen) continue
    seen[m] = 1
    print m "\t" name()
    n++
  }
}' >"$work/out/names.list"

# gpucc's exit: 0, or 1 with a message (never 70, never a signal).
run_gpucc() { # what, then gpucc's arguments
  what=$1
  shift
  rc=0
  "$gpucc" "$@" >/dev/null 2>"$work/out/err" || rc=$?
  if [ "$rc" -ne 0 ]; then
    fail "$what: gpucc exited $rc"
    head -c 400 "$work/out/err" >&2
    return 1
  fi
}

touch "$work/stamp"
awk -v threads=4 -f "$gen" "$work/out/names.list" >"$work/out/all.mlir"
for target in host sm_90 gfx942; do
  run_gpucc "all names, $target" --offload-arch=$target "$work/out/all.mlir" \
    -o "$work/out/all-$target" || continue
  "$fatbin" info "$work/out/all-$target" >/dev/null || fail "gpucc-fatbin info, $target"
done
awk -v n="$count" 'BEGIN { for (i = 0; i < n; i++) print 6 + 4000 * i }' >"$work/out/want"
if [ -x "$work/out/all-host" ]; then
  GPUCC_BACKEND=host "$work/out/all-host" >"$work/out/got" 2>&1 || true
  cmp -s "$work/out/want" "$work/out/got" || fail "all names: wrong output on the CPU"
fi

printf '6\n' >"$work/out/want1"
i=0
while [ "$i" -lt "$solo" ]; do
  i=$((i + 1))
  sed -n "${i}p" "$work/out/names.list" >"$work/out/one.list"
  awk -v threads=4 -f "$gen" "$work/out/one.list" >"$work/out/one.mlir"
  run_gpucc "name $i ($(cat "$work/out/one.list"))" --offload-arch=host "$work/out/one.mlir" \
    -o "$work/out/one" || continue
  GPUCC_BACKEND=host "$work/out/one" >"$work/out/got1" 2>&1 || true
  cmp -s "$work/out/want1" "$work/out/got1" || fail "name $i: wrong output on the CPU"
done

find "$work" -newer "$work/stamp" ! -path "$work/tmp*" ! -path "$work/out*" ! -path "$work" \
  >"$work/out/outside"
[ ! -s "$work/out/outside" ] || fail "files outside: $(head -3 "$work/out/outside")"
[ -z "$(ls -A "$work/tmp")" ] || fail "temp files left: $(ls "$work/tmp" | head -3)"
[ "$fails" -eq 0 ] && echo "ok: $count random names, $solo alone"
