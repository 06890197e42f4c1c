#!/bin/sh
# needed.sh READELF PROGRAM: an executable linked with the static runtime
# needs the C library family alone (libc, libm, libpthread, libdl, ld.so)
# and carries no RPATH/RUNPATH (nothing to find at run time): what lets it
# run on a machine with nothing of gpucc, LLVM or libarchive installed.
set -eu
readelf=$1 prog=$2
fail() { echo "FAIL: $*" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

"$readelf" -d "$prog" >dynamic.txt 2>&1 || fail "readelf -d '$prog' failed: $(cat dynamic.txt)"
sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' dynamic.txt >needed.txt
echo "NEEDED of $(basename "$prog"): $(tr '\n' ' ' <needed.txt)"
[ -s needed.txt ] || fail "no NEEDED entries at all: not a dynamic executable?"
stray=$(grep -v -E '^(libc\.so\.6|libm\.so\.6|libpthread\.so\.0|libdl\.so\.2|ld-linux-x86-64\.so\.2)$' needed.txt || true)
[ -z "$stray" ] || fail "needs more than the C library: $stray"
if grep -q -E '\((RPATH|RUNPATH)\)' dynamic.txt; then
  fail "carries a run path: $(grep -E '\((RPATH|RUNPATH)\)' dynamic.txt)"
fi
# The host backend's kernels call back into the runtime: the executable
# must export those functions (--export-dynamic-symbol=gpuccHost*).
"$readelf" --dyn-syms -W "$prog" >dynsym.txt
for f in gpuccHostBarrier gpuccHostShuffle gpuccHostPrintf gpuccHostAssertFail; do
  grep -q " $f\$" dynsym.txt || fail "does not export $f for host kernels"
done
echo "ok: only the C library family"
