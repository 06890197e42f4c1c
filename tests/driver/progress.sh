#!/bin/sh
# Progress: on a terminal, one status line rewritten in place ("\r[5/8]
# sm_90 kernels\033[K") and cleared at the end; into a file or a pipe, and
# with -v, no status line at all. -ftime-report's table of stages.
# The terminal is script(1)'s pseudo-terminal (skipped without script).
# Usage: progress.sh GPUCC PROGRAM.mlir
set -eu
gpucc=$1 prog=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/tmp" "$work/run"
export TMPDIR="$work/tmp" GPUCC_CACHE_DIR="$work/cache" TERM=xterm
cd "$work/run"
. "$(dirname "$0")/../lib/check.sh"
cp "$prog" prog.mlir
cr=$(printf '\r')
esc=$(printf '\033')
flags="--no-cache --offload-arch=host,gfx90a"

# Not a terminal: nothing on stderr.
"$gpucc" $flags prog.mlir -o app 2>err
check file_silent test ! -s err
"$gpucc" $flags prog.mlir -o app 2>&1 | cat >piped
check pipe_silent test ! -s piped

if command -v script >/dev/null 2>&1 && script -qec true /dev/null >/dev/null 2>&1; then
  # On a terminal: the status lines, each after a carriage return, the
  # count of jobs done out of all, ending with the line cleared.
  script -qec "'$gpucc' $flags prog.mlir -o app2" /dev/null >tty </dev/null
  tr '\r' '\n' <tty >lines
  total=$(sed -n 's/^\[[0-9]*\/\([0-9]*\)\] .*/\1/p' lines | sort -u)
  check tty_status_lines grep -q "^\[0/$total\] " lines
  check tty_one_total test "$(echo "$total" | wc -l)" -eq 1
  check tty_last_done grep -q "^\[$total/$total\] link$esc\[K$" lines
  check tty_device_label grep -Eq "^\[[0-9]+/$total\] gfx90a kernels$esc\[K$" lines
  check tty_rewritten grep -q "$cr\[1/$total\]" tty
  check tty_cleared sh -c "tail -c 4 tty | od -An -c | tr -d ' \n' | grep -qx '\\\\r033\\[K'"
  check tty_output test -x app2
  # -v prints each job on its own line instead.
  script -qec "'$gpucc' -v $flags prog.mlir -o app3" /dev/null >tty_v </dev/null
  check tty_verbose_no_status sh -c "! grep -q '$cr\[[0-9]' tty_v && grep -q 's  link' tty_v"
  # A job's message on a terminal goes on a cleared line of its own
  # ("\r\033[K" first), not after the status text.
  rc=0; script -qec "'$gpucc' $flags prog.mlir -o app4 -lgpucc_no_such_library" /dev/null >tty_e </dev/null || rc=$?
  tr '\r' '\n' <tty_e >lines_e
  check tty_error_own_line grep -q "^$esc\[K.*gpucc_no_such_library" lines_e
  check tty_error_status test "$rc" -ne 0
else
  echo "skip tty checks: no script(1)"
fi

# -ftime-report: a row per stage, device code per target, the total.
"$gpucc" -ftime-report $flags prog.mlir -o app5 2>err
check report_head grep -q '^gpucc: time report$' err
check report_parse grep -Eq '^  parse, verify and normalize +[0-9]+\.[0-9]{3} +[0-9]+\.[0-9]{3} +1$' err
check report_device_host grep -Eq '^  device code host +[0-9.]+ +[0-9.]+ +1$' err
check report_device_gfx90a grep -Eq '^  device code gfx90a +[0-9.]+ +[0-9.]+ +1$' err
check report_tool grep -Eq '^  cc -shared host +[0-9.]+ +[0-9.]+ +1$' err
check report_host grep -Eq '^  host code +[0-9.]+ +[0-9.]+ +1$' err
check report_bundle grep -Eq '^  bundle +[0-9.]+ +[0-9.]+ +1$' err
check report_link grep -Eq '^  link +[0-9.]+ +[0-9.]+ +1$' err
check report_total grep -Eq '^  total \(elapsed; jobs overlap\) +[0-9.]+ +[0-9.]+$' err
# CPU time is counted: device code for gfx90a takes some
check report_cpu sh -c "awk '/device code gfx90a/ { exit !(\$5 > 0) }' err"
check report_output test -x app5
# A family's device job (one lowering, code per chip) is one row named
# after all its chips.
"$gpucc" -ftime-report --no-cache --offload-arch=gfx90a,gfx942 -c prog.mlir -o fam.o 2>err
check report_family grep -Eq '^  device code gfx90a\+gfx942 +[0-9.]+ +[0-9.]+ +1$' err
# -### runs nothing and reports nothing
"$gpucc" -ftime-report -### $flags prog.mlir -o app6 >out 2>err
check report_not_dry sh -c "! grep -q 'time report' err"
check no_temps test -z "$(ls -A "$work/tmp")"

checks_done
