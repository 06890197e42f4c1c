#!/bin/sh
# GNU make's jobserver: under make -j2, four gpucc -c run two jobs at once in
# all, not two gpucc times their own -j. Each job a gpucc runs in a child
# records when it ran (GPUCC_TEST_JOB_LOG, a test switch), and the most
# that overlapped is counted. Also a named FIFO jobserver (make 4.4's
# --jobserver-auth=fifo:PATH), its tokens all given back after a build, a
# failed build and an interrupted one; and descriptors make did not pass
# on, or a FIFO that is not there: ignored, without a word.
# Usage: jobserver.sh GPUCC PROGRAM.mlir
set -eu
gpucc=$1 prog=$2
if ! command -v make >/dev/null 2>&1; then
  echo "skip: make is not installed"
  exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/tmp" "$work/run"
export TMPDIR="$work/tmp"
unset MAKEFLAGS MFLAGS MAKELEVEL GPUCC_TEST_CRASH
cd "$work/run"
. "$(dirname "$0")/../lib/check.sh"
# The most jobs that ran at once, from "<start> <end> <pid>" lines: an end
# and a start at the same time do not overlap.
most_at_once() {
  awk '{ print $1, 1; print $2, -1 }' "$1" | sort -k1,1n -k2,2n |
    awk '{ n += $2; if (n > m) m = n } END { print m + 0 }'
}
for i in 1 2 3 4; do cp "$prog" p$i.mlir; done
# Two targets: each gpucc has device code for two, host code and a
# finishing tool to run, more than two at once on its own.
flags="--no-cache --offload-arch=host,gfx90a -j4"
quick="--no-cache --offload-arch=host -j4"

# make -j2, recipes marked recursive ('+'), so that make passes its
# jobserver on to them.
printf 'all: p1.o p2.o p3.o p4.o\n%%.o: %%.mlir\n\t+$(CMD) -c $< -o $@\n' >Makefile
GPUCC_TEST_JOB_LOG=$work/make.log make -s -j2 CMD="$gpucc $flags" >out 2>err
check make_built sh -c "test -s p1.o && test -s p2.o && test -s p3.o && test -s p4.o"
check make_quiet test ! -s err
check make_logged test "$(wc -l <"$work/make.log")" -ge 16
check make_at_most_two test "$(most_at_once "$work/make.log")" -le 2
rm -f p?.o

# The same four without make's jobserver (the switch sees more at once).
: >"$work/free.log"
for i in 1 2 3 4; do
  GPUCC_TEST_JOB_LOG=$work/free.log "$gpucc" $flags -c p$i.mlir -o p$i.o 2>>err &
done
wait
check alone_more_than_two test "$(most_at_once "$work/free.log")" -gt 2
rm -f p?.o

# A FIFO with one token: this gpucc runs two jobs at once (the one it holds
# and one more), and the token is back when it is done.
mkfifo "$work/fifo"
exec 9<>"$work/fifo"
tokens() { dd bs=1 count=64 iflag=nonblock <&9 2>/dev/null | wc -c; }
printf + >&9
GPUCC_TEST_JOB_LOG=$work/fifo.log MAKEFLAGS=" -j2 --jobserver-auth=fifo:$work/fifo" \
  "$gpucc" $flags -c p1.mlir -o p1.o 2>err
check fifo_built sh -c "test -s p1.o && test ! -s err"
check fifo_at_most_two test "$(most_at_once "$work/fifo.log")" -le 2
check fifo_used test "$(most_at_once "$work/fifo.log")" -eq 2
check fifo_token_back test "$(tokens)" -eq 1
rm -f p1.o

# Tokens come back from a failed build (a crash in a device job) ...
printf ++ >&9
rc=0; GPUCC_TEST_CRASH=device MAKEFLAGS="-j3 --jobserver-auth=fifo:$work/fifo" \
  "$gpucc" $quick -c p1.mlir -o p1.o 2>err || rc=$?
check crash_fails sh -c "test $rc -eq 70 && test ! -e p1.o"
check crash_tokens_back test "$(tokens)" -eq 2
rm -f "$work"/tmp/gpucc-crash-*

# ... and from an interrupted one.
printf ++ >&9
MAKEFLAGS="-j3 --jobserver-auth=fifo:$work/fifo" "$gpucc" $quick -c p1.mlir -o p1.o 2>err &
pid=$!
i=0
while [ -z "$(ls -A "$work/tmp")" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
sleep 0.3
kill -INT $pid 2>/dev/null || true
rc=0; wait $pid || rc=$?
check interrupt_ends sh -c "test $rc -eq 130 || test $rc -eq 0"
check interrupt_tokens_back test "$(tokens)" -eq 2
rm -f p1.o
# ... also while jobs are running and the token is taken: device jobs that
# sleep (a test switch) until SIGINT; gpucc leaves by interrupt_exit,
# which gives tokens back through its last words.
printf ++ >&9
GPUCC_TEST_CRASH=device-sleep MAKEFLAGS="-j3 --jobserver-auth=fifo:$work/fifo" \
  "$gpucc" --no-cache --offload-arch=host,sm_90 -j4 -c p1.mlir -o p1.o 2>err &
pid=$!
i=0
while [ "$(pgrep -P $pid | wc -l)" -lt 2 ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
check interrupt_running_two_jobs test "$(pgrep -P $pid | wc -l)" -ge 2
kill -INT $pid 2>/dev/null || true
rc=0; wait $pid || rc=$?
check interrupt_running_ends sh -c "test $rc -eq 130 && test ! -e p1.o"
check interrupt_running_tokens_back test "$(tokens)" -eq 2
exec 9>&-

# Descriptors that are not open, a FIFO that is not there or is a plain
# file, garbage: ignored without a word, -j as always.
: >"$work/plain"
for auth in "--jobserver-auth=7,8" "--jobserver-fds=7,8" "--jobserver-auth=fifo:$work/none" \
  "--jobserver-auth=fifo:$work/plain" "--jobserver-auth=x"; do
  rc=0; MAKEFLAGS="-j2 $auth" "$gpucc" $quick -c p1.mlir -o p1.o 2>err || rc=$?
  check "ignored $auth" sh -c "test $rc -eq 0 && test -s p1.o && test ! -s err"
  rm -f p1.o
done
check no_temps test -z "$(ls -A "$work/tmp")"

checks_done
