#!/bin/sh
# no_llvm.sh PROGRAM EXPECTED CONTROL DIR...: PROGRAM runs (host backend,
# every symbol bound at load time) and prints EXPECTED (memref addresses
# masked) in a private mount namespace where each DIR (LLVM's
# /usr/lib/llvm-22, the build tree's lib/ with libgpucc_rt.so) is an empty
# tmpfs; CONTROL, the same program linked with the shared runtime, must
# fail there, which shows that the directories really are hidden.
# Needs unshare -m and mount (root): exit 77 where they are not permitted.
set -eu
prog=$1 want=$2 control=$3
shift 3
fail() { echo "FAIL: $*" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
skip() { echo "skipped: $*"; exit 77; }
command -v unshare >/dev/null 2>&1 || skip "no unshare(1) here"
unshare -m true 2>/dev/null || skip "unshare -m is not permitted (needs root or CAP_SYS_ADMIN)"
for d in "$@"; do [ -d "$d" ] || fail "'$d' is not a directory"; done

# Inside the namespace: hide each directory, check it is empty, run both.
# Exit 77 from there means the mount was refused.
cat >inside.sh <<'INSIDE'
set -u
prog=$1 control=$2
shift 2
for d in "$@"; do
  mount -t tmpfs -o size=1m gpucc-hidden "$d" 2>mount.err || { cat mount.err; exit 77; }
  [ -z "$(ls -A "$d")" ] || { echo "'$d' is still visible"; exit 1; }
done
GPUCC_BACKEND=host LD_BIND_NOW=1 "$control" >control.out 2>control.err
echo "$?" >control.rc
GPUCC_BACKEND=host LD_BIND_NOW=1 "$prog" >prog.out 2>prog.err
echo "$?" >prog.rc
INSIDE
set +e
unshare -m --propagation private sh inside.sh "$prog" "$control" "$@" >inside.log 2>&1
rc=$?
set -e
[ "$rc" -ne 77 ] || skip "mount refused in the namespace: $(cat inside.log)"
[ "$rc" -eq 0 ] || fail "the namespace could not be set up: $(cat inside.log)"

[ "$(cat control.rc)" -ne 0 ] ||
  fail "the shared-runtime control ran: the directories were not hidden"
echo "control (shared runtime) fails there as it must: $(head -n 1 control.err)"
[ "$(cat prog.rc)" -eq 0 ] || fail "exit status $(cat prog.rc) without LLVM: $(cat prog.err)"
sed 's/base@ = 0x[0-9a-f]*/base@ = ADDR/' prog.out >prog.masked
diff -u "$want" prog.masked || fail "output differs from $want"
echo "ok: runs with $* hidden"
