#!/bin/sh
# No output on a non-zero exit, ever: every warning gpucc can give, made an
# error by -Werror, ends the build with status 1 and leaves no output, no
# depfile, no temp file. The warnings that come while the jobs run (a cache
# that cannot store, a remote cache that refuses PUT, a warning in a device
# job) used to leave the output in place. Each case's message shows that
# it took the warning path it is about.
# Usage: werror_outputs.sh GPUCC PROGRAM.mlir HOST_MEMORY.mlir
set -eu
gpucc=$1 prog=$2 host_memory=$3
work=$(mktemp -d)
server=""
trap '[ -z "$server" ] || kill "$server" 2>/dev/null || true; rm -rf "$work"' EXIT
mkdir "$work/tmp" "$work/run"
export TMPDIR="$work/tmp"
unset GPUCC_REMOTE_CACHE GPUCC_REMOTE_CACHE_READONLY GPUCC_TEST_CRASH
unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY all_proxy ALL_PROXY
export no_proxy='*' NO_PROXY='*'
cd "$work/run"
. "$(dirname "$0")/../lib/check.sh"
# Nothing but the inputs here, nothing in the temp directory.
no_litter() {
  [ "$(ls -A | grep -v '\.mlir$' | grep -v '^err$' || true)" = "" ] && [ -z "$(ls -A "$work/tmp")" ]
}
cp "$prog" prog.mlir
cp "$host_memory" host_memory.mlir
cat >printf.mlir <<'MLIR'
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f() kernel {
      %i = gpu.thread_id x
      gpu.printf "%d\n", %i : index
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
}
MLIR

# case NAME SETUP MESSAGE ENV... -- ARGS...: runs SETUP, then gpucc -Werror
# ARGS -MD -o out with ENV set (words without spaces), and expects status
# 1, the warning as an error (MESSAGE, a grep pattern after "error: "), no
# out, no out.d, nothing left.
case_() {
  name=$1 setup=$2 message=$3
  shift 3
  envs=""
  while [ "$1" != "--" ]; do envs="$envs $1"; shift; done
  shift
  $setup
  rc=0; env $envs "$gpucc" -Werror -MD "$@" -o out 2>err || rc=$?
  check "${name}_status" test "$rc" -eq 1
  check "${name}_error" grep -q "error: $message" err
  check "${name}_no_output" sh -c 'test ! -e out && test ! -e out.d'
  check "${name}_no_litter" no_litter
}
nothing() { :; }
host="--offload-arch=host"

# Before any job: the frontend's warnings, the cache directory, the toolkit.
case_ printf_format nothing "gpu.printf: 1 conversion" -- $host printf.mlir
case_ host_memory nothing "argument 1 of the launch of @k::@f is host memory" -- \
  --offload-arch=gfx90a host_memory.mlir
case_ cache_dir nothing "cannot create the cache directory" GPUCC_CACHE_DIR=/dev/null/cache -- \
  $host prog.mlir
mkdir "$work/no-cuda"
case_ no_ptxas nothing "no ptxas found" GPUCC_CACHE_DIR= -- --cuda-path="$work/no-cuda" \
  --offload-arch=sm_90 prog.mlir
# A damaged cache entry (found while planning).
damaged() {
  rm -rf "$work/c-damaged"
  GPUCC_CACHE_DIR=$work/c-damaged "$gpucc" $host prog.mlir -o filled 2>/dev/null
  rm -f filled
  for f in $(find "$work/c-damaged" -type f); do printf x >>"$f"; done
}
case_ damaged_entry damaged "damaged cache entry" GPUCC_CACHE_DIR=$work/c-damaged -- $host prog.mlir

# While the jobs run: a cache that cannot store what they made (its shard
# folders are files), a warning in a device job (a test switch).
GPUCC_CACHE_DIR=$work/c-ref "$gpucc" $host prog.mlir -o ref 2>/dev/null
rm -f ref
unwritable() {
  rm -rf "$work/c-full"
  mkdir "$work/c-full"
  for d in "$work"/c-ref/*/; do : >"$work/c-full/$(basename "$d")"; done
}
case_ cache_store unwritable "cannot store" GPUCC_CACHE_DIR=$work/c-full -- $host prog.mlir
case_ device_job_warning nothing "planted warning in device code" GPUCC_TEST_CRASH=device-warning -- \
  --no-cache $host prog.mlir

# The remote cache: a closed port (found while planning), and the issue's
# case, a server that answers GET with 404 and refuses PUT (501), which is
# found when the objects are stored, after the output was made.
fresh() { rm -rf "$work/c-remote"; }
case_ remote_closed fresh "remote cache" GPUCC_CACHE_DIR=$work/c-remote \
  GPUCC_REMOTE_CACHE=http://127.0.0.1:9/x -- $host prog.mlir
if command -v python3 >/dev/null 2>&1; then
  mkdir "$work/srv"
  (cd "$work/srv" && exec python3 -c '
import http.server, sys
s = http.server.HTTPServer(("127.0.0.1", 0), http.server.SimpleHTTPRequestHandler)
with open(sys.argv[1] + ".part", "w") as f:
    f.write(str(s.server_address[1]))
import os; os.rename(sys.argv[1] + ".part", sys.argv[1])
s.serve_forever()' "$work/port" 2>/dev/null) &
  server=$!
  i=0
  while [ ! -s "$work/port" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
  if [ -s "$work/port" ]; then
    url=http://127.0.0.1:$(cat "$work/port")/x
    case_ remote_refuses_put fresh "remote cache .*HTTP status 501" GPUCC_CACHE_DIR=$work/c-remote \
      GPUCC_REMOTE_CACHE=$url -- $host prog.mlir
  else
    echo "FAIL python3's HTTP server did not start" >&2
    fails=$((fails + 1))
  fi
else
  echo "skip remote_refuses_put: no python3"
fi

checks_done
