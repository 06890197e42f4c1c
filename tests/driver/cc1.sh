#!/bin/sh
# Every job is a command: `gpucc -###` prints a script (in-process jobs as
# `gpucc -cc1 <job> ...` lines, tools as their commands) that, run by sh in
# order, makes the same bytes as the build; one job reruns alone from the
# files -save-temps keeps; a bad -cc1 line is a usage error (exit 2), a
# missing input an error (exit 1), and -cc1 is not in --help or the man page.
# With ptxas (/usr/local/cuda/bin) the sm_90 jobs include it, without it the
# plan ships PTX only: the script is whatever the plan is.
# Usage: cc1.sh GPUCC PROGRAM.mlir (a program with two gpu.modules or more)
set -eu
gpucc=$1 prog=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/tmp" "$work/run"
export TMPDIR="$work/tmp" GPUCC_CACHE_DIR="$work/cache"
cd "$work/run"
. "$(dirname "$0")/../lib/check.sh"
cp "$prog" prog.mlir
targets=--offload-arch=sm_90,gfx942,host

# replay NAME OUT [-save-temps] ARGS...: `gpucc -### ARGS` run as a script
# makes OUT; the build (no cache) makes OUT too: the same bytes.
replay() {
  plan=$1 out=$2 keep=
  shift 2
  [ "$1" = -save-temps ] && { keep=$1; shift; }
  rm -f "$out"
  "$gpucc" -### "$@" >"$plan.sh" 2>"$plan.err"
  check "${plan}_cc1_lines" grep -q -- ' -cc1 device ' "$plan.sh"
  check "${plan}_no_comments" sh -c "! grep -q '^#' '$plan.sh'"
  check "${plan}_script_runs" sh -e "$plan.sh"
  mv "$out" "replayed-$out"
  check "${plan}_built" "$gpucc" --no-cache $keep "$@"
  check "${plan}_same_bytes" cmp "replayed-$out" "$out"
}

replay compile s.o -save-temps $targets -c prog.mlir -o s.o
replay debug a.o --offload-arch=sm_90 -g -O1 -ffp-contract=off -c prog.mlir -o a.o
replay link app --offload-arch=host prog.mlir -o app
replay device_only a.gpucc-device --offload-arch=host --device-only -c prog.mlir -o a.gpucc-device

# --emit= stages: the script ends with the copies to the stage's names
# (one file per input, or one per gpu.module and target).
replay_emit() { # replay_emit NAME PATTERN ARGS...
  plan=$1 pattern=$2
  shift 2
  rm -rf "$plan.replayed" && mkdir "$plan.replayed"
  "$gpucc" -### "$@" >"$plan.sh" 2>"$plan.err"
  check "${plan}_copies" grep -q '^cp ' "$plan.sh"
  check "${plan}_script_runs" sh -e "$plan.sh"
  for f in $pattern; do mv "$f" "$plan.replayed/"; done
  check "${plan}_built" "$gpucc" --no-cache "$@"
  for f in $pattern; do
    check "${plan}_same_$f" cmp "$plan.replayed/$f" "$f"
  done
  check "${plan}_as_many" test "$(ls $pattern | wc -l)" -eq "$(ls "$plan.replayed" | wc -l)"
}
replay_emit emit_ptx 'prog-*-sm_90.ptx' --emit=ptx --offload-arch=sm_90 prog.mlir
replay_emit emit_device 'dev.mlir' --emit=mlir-device --offload-arch=host prog.mlir -o dev.mlir
replay_emit emit_llvm 'prog.ll' -S --offload-arch=host prog.mlir
# -###'s directory goes with gpucc; the scripts' ones are theirs to remove
rm -rf "$work"/tmp/gpucc-*

# One job again from the files -save-temps kept (compile, above): the
# second gpu.module's host object, and the host code.
check saves_normalized test -s s.normalized.mlir
second=$(ls s-*-host.o | sed -n 2p)
"$gpucc" -cc1 device --offload-arch=host -O3 -ffp-contract=fast --gpu-module=1 s.normalized.mlir \
  -o again.o 2>err
check rerun_device cmp again.o "$second"
tag=$(sed -n 's/.* -cc1 host .*--tag=\([^ ]*\) .*/\1/p' compile.sh)
"$gpucc" -cc1 host -O2 -ffp-contract=on --tag="$tag" s.normalized.mlir -o host-again.o 2>err
check rerun_host cmp host-again.o s.host.o

# Bad lines: usage errors exit 2, with a message; a missing input exits 1;
# neither leaves an output or a temp file.
usage() { # usage NAME MESSAGE ARGS...
  what=$1 msg=$2
  shift 2
  set +e
  "$gpucc" -cc1 "$@" >out 2>err
  rc=$?
  set -e
  check "$what" sh -c "test $rc -eq 2 && grep -q -- \"$msg\" err"
}
usage bad_job "unknown -cc1 job 'frobnicate' (expected normalize, device" frobnicate x.mlir -o x
usage no_job "-cc1 needs a job"
usage two_targets "one --offload-arch=" device --offload-arch=sm_90 --offload-arch=host s.normalized.mlir -o x.o
usage no_tag "needs --tag=" host s.normalized.mlir -o x.o
usage no_module_number "invalid gpu.module number" device --offload-arch=host --gpu-module=x s.normalized.mlir -o x.o
usage too_many_modules "no 3 from --gpu-module=1" device --offload-arch=host --gpu-module=1 s.normalized.mlir -o x1 -o x2 -o x3
usage bad_option "unknown option '--frob'" device --offload-arch=host --frob s.normalized.mlir -o x.o
usage bundle_needs_file "needs --device-file=" bundle --gpu-module=0 --tag=ab --offload-arch=gfx942 s.normalized.mlir -o x.fatbin
set +e
"$gpucc" -cc1 device --offload-arch=host missing.mlir -o x.o 2>err
rc=$?
set -e
check missing_input sh -c "test $rc -eq 1 && grep -q \"cannot open 'missing.mlir'\" err"
check no_outputs sh -c "! ls x* 2>/dev/null | grep -q ."
check no_temps sh -c "test -z \"\$(ls -A '$work/tmp')\""

# Hidden: not in --help, not in the man page.
"$gpucc" --help >help
"$gpucc" --print-man-page >man
check not_in_help sh -c "! grep -q cc1 help && ! grep -q cc1 man"

checks_done
