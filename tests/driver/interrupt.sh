#!/bin/sh
# Ctrl-C in the middle of a compile: gpucc exits 130, leaves no temp file
# and no output, and its child tools die with it; a host-code error while
# device jobs (and the ld.lld they run) are busy ends them all the same; so
# does a closed pipe on its output (SIGPIPE, exit 141).
# Usage: interrupt.sh GPUCC
set -eu
gpucc=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/tmp"
# A private device cache: tests must not read or fill the user's.
export GPUCC_CACHE_DIR="$work/cache"

# A program big enough to keep gpucc busy for a few seconds.
{
  echo 'module attributes {gpu.container_module} {'
  echo '  gpu.module @big {'
  i=0
  while [ $i -lt 300 ]; do
    echo "    gpu.func @k$i(%b: memref<?xf32>) kernel {"
    echo '      %t = gpu.thread_id x'
    echo '      %v = memref.load %b[%t] : memref<?xf32>'
    echo '      %e = math.exp %v : f32'
    echo '      %s = math.sqrt %e : f32'
    echo '      memref.store %s, %b[%t] : memref<?xf32>'
    echo '      gpu.return'
    echo '    }'
    i=$((i + 1))
  done
  echo '  }'
  echo '}'
} >"$work/big.mlir"

TMPDIR="$work/tmp" "$gpucc" --offload-arch=sm_80,sm_90,gfx90a,gfx942,host -c "$work/big.mlir" -o "$work/big.o" 2>"$work/err" &
pid=$!
# Wait until it has started working (its temp directory exists), then a bit.
n=0
while [ -z "$(ls -A "$work/tmp")" ] && [ $n -lt 200 ]; do sleep 0.05; n=$((n + 1)); done
sleep 0.5
kill -INT $pid
rc=0
wait $pid || rc=$?
fail=0
[ "$rc" -eq 130 ] || { echo "FAIL: exit status $rc, want 130" >&2; cat "$work/err" >&2; fail=1; }
[ -z "$(ls -A "$work/tmp")" ] || { echo "FAIL: temp files left: $(ls -R "$work/tmp")" >&2; fail=1; }
[ -z "$(ls "$work" | grep -v '^\(tmp\|big.mlir\|err\|cache\)$')" ] || { echo "FAIL: output left: $(ls "$work")" >&2; fail=1; }
# No process of this build is left (the tools' arguments name its temp dir).
left=$(pgrep -f "$work/tmp" || true)
[ -z "$left" ] || { echo "FAIL: processes left: $(ps -o pid,args -p $left)" >&2; fail=1; }
[ $fail -eq 0 ] && echo "ok: interrupted after $((n * 50 + 500)) ms, exit 130, nothing left"

# The same program with host code that cannot be lowered: the host job
# fails at once while the device jobs are still compiling.
sed 's/^}$//' "$work/big.mlir" >"$work/bad.mlir"
cat >>"$work/bad.mlir" <<'EOF'
  func.func @main() {
    %t = gpu.thread_id x
    vector.print %t : index
    return
  }
}
EOF
rc=0
TMPDIR="$work/tmp" "$gpucc" --offload-arch=sm_80,sm_90,gfx90a,gfx942,host "$work/bad.mlir" -o "$work/bad" 2>"$work/err" || rc=$?
[ "$rc" -eq 1 ] || { echo "FAIL: failing host job: exit status $rc, want 1" >&2; cat "$work/err" >&2; fail=1; }
grep -q "cannot lower 'gpu.thread_id' for the host" "$work/err" || { echo "FAIL: no host-code error" >&2; cat "$work/err" >&2; fail=1; }
[ -z "$(ls -A "$work/tmp")" ] || { echo "FAIL: temp files left after a failed build: $(ls -R "$work/tmp")" >&2; fail=1; }
[ ! -e "$work/bad" ] || { echo "FAIL: output written by a failed build" >&2; fail=1; }
left=$(pgrep -f "$work/tmp" || true)
[ -z "$left" ] || { echo "FAIL: processes left after a failed build: $(ps -o pid,args -p $left)" >&2; fail=1; }
[ $fail -eq 0 ] && echo "ok: a failing host job ends the device jobs, nothing left"

# A reader that goes away (SIGPIPE): the build ends cleaned up, as when
# interrupted, and dies of the signal (141), as gcc's driver does.
rc=$( (r=0; TMPDIR="$work/tmp" "$gpucc" -v --no-cache --offload-arch=sm_80,gfx942,host -c \
        "$work/big.mlir" -o "$work/piped.o" 2>&1 || r=$?; echo "rc=$r" >"$work/piped.rc") |
      head -n 1 >/dev/null; cat "$work/piped.rc")
[ "$rc" = "rc=141" ] || { echo "FAIL: closed pipe: $rc, want rc=141" >&2; fail=1; }
[ -z "$(ls -A "$work/tmp")" ] || { echo "FAIL: temp files left after a closed pipe: $(ls -R "$work/tmp")" >&2; fail=1; }
[ -z "$(ls "$work" | grep '^piped\.o')" ] || { echo "FAIL: output left after a closed pipe: $(ls "$work")" >&2; fail=1; }
[ $fail -eq 0 ] && echo "ok: a closed pipe ends the build with 141, nothing left"
exit $fail
