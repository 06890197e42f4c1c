#!/bin/sh
# A crash never reaches the user as a bare signal: a crash planted
# (GPUCC_TEST_CRASH) while parsing, in a device job (a SIGSEGV or a trap) and
# in a host job gives
# "gpucc: internal error: ..., while <stage> for <what>", a reproducer
# (module and command) beside the session temp directory, no temp file, no
# output, exit 70; the reproducer's script reruns the command, or for a
# job's crash the job alone (its `gpucc -cc1` line), which crashes again
# with the same plant and compiles without it.
# Usage: crash.sh GPUCC INPUT.mlir
set -eu
gpucc=$1
input=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export GPUCC_CACHE_DIR=
fail=0

check() { # stage, expected words of the message[, the signal's words[, the job]]
  stage=$1
  want=$2
  sig=${3:-segmentation fault (SIGSEGV)}
  job=${4:-}
  rm -rf "$work/tmp" "$work/out"
  mkdir "$work/tmp"
  rc=0
  GPUCC_TEST_CRASH=$stage TMPDIR="$work/tmp" "$gpucc" --offload-arch=host "$input" \
    -o "$work/out" 2>"$work/err" || rc=$?
  [ "$rc" -eq 70 ] || { echo "FAIL: $stage: exit status $rc, want 70" >&2; cat "$work/err" >&2; fail=1; }
  grep -q "^gpucc: internal error: $sig, while $want" "$work/err" ||
    { echo "FAIL: $stage: no internal error naming '$want'" >&2; cat "$work/err" >&2; fail=1; }
  [ ! -e "$work/out" ] || { echo "FAIL: $stage: output written" >&2; fail=1; }
  left=$(ls "$work/tmp" | grep -v '^gpucc-crash-......\.\(mlir\|sh\)$' || true)
  [ -z "$left" ] || { echo "FAIL: $stage: temp files left: $left" >&2; fail=1; }
  set -- "$work"/tmp/gpucc-crash-*.sh
  [ $# -eq 1 ] && [ -f "$1" ] || { echo "FAIL: $stage: no reproducer script" >&2; fail=1; return; }
  sh=$1
  mlir=${sh%.sh}.mlir
  grep -q "reproducer written to '$mlir' and '$sh'" "$work/err" ||
    { echo "FAIL: $stage: message does not say where the reproducer is" >&2; cat "$work/err" >&2; fail=1; }
  grep -q 'gpu.module @' "$mlir" || { echo "FAIL: $stage: reproducer has no module" >&2; fail=1; }
  if [ -n "$job" ]; then
    grep -q -- " -cc1 $job .*\"\$d\"/[0-9]*-[^ ]*\.normalized\.mlir" "$sh" ||
      { echo "FAIL: $stage: reproducer is not the $job job:" >&2; cat "$sh" >&2; fail=1; }
    # The job alone crashes again with the plant, and works without it.
    rc=0
    GPUCC_TEST_CRASH=$stage TMPDIR="$work/tmp" sh "$sh" >/dev/null 2>&1 || rc=$?
    [ "$rc" -eq 70 ] || { echo "FAIL: $stage: the reproducer's job exits $rc, want 70" >&2; fail=1; }
    # (its own crash wrote a reproducer of the reproducer: not this test's)
    for f in "$work"/tmp/*; do [ "$f" = "$sh" ] || [ "$f" = "$mlir" ] || rm -rf "$f"; done
    TMPDIR="$work/tmp" sh "$sh" 2>"$work/err2" ||
      { echo "FAIL: $stage: the reproducer's job fails without the plant" >&2; cat "$work/err2" >&2; fail=1; }
  else
    grep -q -- "--offload-arch=host \"\${0%.sh}.mlir\" -o $work/out" "$sh" ||
      { echo "FAIL: $stage: reproducer command:" >&2; cat "$sh" >&2; fail=1; }
    # Without the planted crash the reproducer compiles.
    if ! TMPDIR="$work/tmp" sh "$sh" 2>"$work/err2" || [ ! -x "$work/out" ]; then
      echo "FAIL: $stage: the reproducer does not rerun" >&2
      cat "$work/err2" >&2
      fail=1
    fi
  fi
  [ $fail -eq 0 ] && echo "ok: planted crash while $want: exit 70, reproducer, nothing left"
}

check parse "parsing for '$input'"
check device "lowering device code for host of '$input'" "segmentation fault (SIGSEGV)" device
check host "lowering host code for '$input'" "segmentation fault (SIGSEGV)" host
check device-trap "lowering device code for host of '$input'" "trace trap (SIGTRAP)" device
exit $fail
