#!/bin/sh
# One program of tests/upstream/ (glue around real tools):
#   check.sh GPUCC FILECHECK PROGRAM.mlir
# The program carries its own harness in comment lines at its top:
#   // MODE: run         compile to an executable with one gpucc command, run
#                        it on the CPU (GPUCC_BACKEND=host, LD_BIND_NOW=1, so
#                        nothing may stay undefined) and FileCheck its stdout
#   // MODE: compile     gpucc -c; FileCheck gpucc's stderr (with -### in the
#                        flags: the commands it would run)
#   // MODE: ptx         gpucc --emit=ptx; FileCheck the PTX files, in the
#                        order of the gpu.modules
#   // MODE: hsaco       gpucc --emit=hsaco; FileCheck llvm-objdump -d of them
#   // GPUCC: <flags>    gpucc's flags (default --offload-arch=sm_90,gfx942,host)
#   // STDERR: yes       run: FileCheck stdout and stderr together
#   // EXIT: nonzero     run: the program must fail (default: exit status 0)
#   // NEEDS: ptxas      skipped (77) when gpucc finds no ptxas
# and its expectations in CHECK lines. Exit 0 pass, 1 fail, 77 skipped.
set -eu
gpucc=$1 filecheck=$2 prog=$3
case $prog in /*) ;; *) prog=$(pwd)/$prog ;; esac

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/tmp"
# A private device cache: tests must not read or fill the user's.
export GPUCC_CACHE_DIR="$work/cache"
export TMPDIR="$work/tmp"
fail() { echo "FAIL: $(basename "$prog"): $*" >&2; exit 1; }

directive() { sed -n "s|^// $1: *||p" "$prog" | head -n 1; }
mode=$(directive MODE)
flags=$(directive GPUCC)
[ -n "$flags" ] || flags="--offload-arch=sm_90,gfx942,host"
stderr=$(directive STDERR)
want_exit=$(directive EXIT)
needs=$(directive NEEDS)

# llvm-objdump (MODE: hsaco) lives beside FileCheck, in LLVM's bin directory.
llvm_bin=$(dirname "$filecheck")

# $flags is a word list by design (no quoting in directives).
# shellcheck disable=SC2086
case $mode in
run)
  "$gpucc" $flags "$prog" -o "$work/app" 2>"$work/gpucc.err" || {
    cat "$work/gpucc.err" >&2
    fail "gpucc failed"
  }
  set +e
  # Kernels that wait for one another would hang, not fail: bound the run.
  if command -v timeout >/dev/null 2>&1; then limit="timeout 30"; else limit=; fi
  GPUCC_BACKEND=host LD_BIND_NOW=1 $limit "$work/app" >"$work/out" 2>"$work/err"
  rc=$?
  set -e
  if grep -q "symbol lookup error\|undefined symbol\|error while loading shared libraries" "$work/err"; then
    cat "$work/err" >&2
    fail "unresolved symbols at load time"
  fi
  [ "$rc" -ne 124 ] || fail "timed out"
  if [ "$want_exit" = nonzero ]; then
    [ "$rc" -ne 0 ] || fail "exit status 0, expected a failure"
  else
    [ "$rc" -eq 0 ] || { cat "$work/err" >&2; fail "exit status $rc"; }
  fi
  if [ "$stderr" = yes ]; then cat "$work/err" >>"$work/out"; fi
  ;;
compile)
  "$gpucc" $flags -c "$prog" -o "$work/prog.o" >"$work/out" 2>&1 || {
    cat "$work/out" >&2
    fail "gpucc failed"
  }
  ;;
ptx | hsaco)
  (cd "$work" && "$gpucc" $flags --emit="$mode" "$prog") >"$work/gpucc.err" 2>&1 || {
    cat "$work/gpucc.err" >&2
    fail "gpucc failed"
  }
  stem=$(basename "$prog" .mlir)
  : >"$work/out"
  # One file per gpu.module, named <stem>-<module>-<target>.<ext>: listed in
  # the order the modules appear in the program (names are single words).
  # shellcheck disable=SC2013
  for m in $(sed -n 's/^ *gpu\.module @\([A-Za-z0-9_]*\).*/\1/p' "$prog"); do
    for f in "$work/$stem-$m"-*."$mode"; do
      [ -e "$f" ] || fail "no $mode for gpu.module @$m"
      if [ "$mode" = ptx ]; then cat "$f"; else "$llvm_bin/llvm-objdump" -d "$f"; fi >>"$work/out"
    done
  done
  ;;
"")
  fail "no '// MODE:' line"
  ;;
*)
  fail "unknown mode '$mode'"
  ;;
esac

if [ "$needs" = ptxas ] && grep -q "no ptxas found" "$work/out" "$work/gpucc.err" 2>/dev/null; then
  echo "skipped: no ptxas"
  exit 77
fi

"$filecheck" --input-file="$work/out" "$prog" || {
  echo "--- output of $(basename "$prog"):" >&2
  head -c 4000 "$work/out" >&2
  fail "FileCheck failed"
}
echo "ok: $(basename "$prog")"
