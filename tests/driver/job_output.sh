#!/bin/sh
# Jobs are quiet until they end (Ninja's way): each child job's output is
# captured and printed whole when it ends, so two jobs running at once under
# -j never interleave their lines, and what a job killed by another's
# failure said is not printed half; every job reads /dev/null, except a
# tool given '-' (C from standard input), which reads gpucc's.
# A fake cc on PATH prints two lines with a pause between them.
# Usage: job_output.sh GPUCC PROGRAM.mlir
set -eu
gpucc=$1 prog=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/tmp" "$work/bin" "$work/run"
export TMPDIR="$work/tmp" GPUCC_CACHE_DIR="$work/cache"
cd "$work/run"
. "$(dirname "$0")/../lib/check.sh"
realcc=$(command -v cc)
# The fake cc: for a C source named *bad*, "begin", a pause, where its
# standard input comes from, "end", exit 1; for *note*, one line and the
# real compile; anything else is the real cc.
cat >"$work/bin/cc" <<EOF2
#!/bin/sh
for a in "\$@"; do
  case "\$a" in
  *bad*.c)
    echo "begin \$a" >&2
    sleep 0.5
    echo "stdin \$(readlink /proc/\$\$/fd/0)" >&2
    echo "end \$a" >&2
    exit 1 ;;
  *note*.c) echo "note from cc: \$a" >&2 ;;
  esac
done
exec "$realcc" "\$@"
EOF2
chmod +x "$work/bin/cc"
cp "$prog" prog.mlir
printf 'int f(void) { return 1; }\n' >bad1.c
cp bad1.c bad2.c
printf 'int g(void) { return 2; }\n' >note.c

# Two failing jobs at once: one job's lines whole, together, and nothing
# of the other (killed half-way); its stdin was /dev/null.
rc=0; PATH="$work/bin:$PATH" "$gpucc" -j4 -c --offload-arch=gfx90a bad1.c bad2.c prog.mlir 2>err || rc=$?
check fail_status test "$rc" -eq 1
lines=$(grep -E '^(begin|end|stdin) ' err | tr '\n' '|')
check fail_whole sh -c "test '$lines' = 'begin bad1.c|stdin /dev/null|end bad1.c|' ||
                        test '$lines' = 'begin bad2.c|stdin /dev/null|end bad2.c|'"
check fail_then_gpucc grep -q "^gpucc: error: 'cc' (cc: bad[12].c) exited with status 1$" err
check fail_no_objects sh -c "! ls | grep -q '\\.o\$'"

# A job that succeeds: what it said is printed once it is done.
rc=0; PATH="$work/bin:$PATH" "$gpucc" -c --offload-arch=host note.c prog.mlir 2>err || rc=$?
check note_status test "$rc" -eq 0
check note_printed test "$(grep -c '^note from cc: note.c$' err)" -eq 1
rm -f note.o prog.o

# gpucc -v of a device job: still one line per job, the job's time after.
rc=0; "$gpucc" -v --no-cache --offload-arch=host prog.mlir -o app 2>err || rc=$?
check verbose_times sh -c "test $rc -eq 0 && grep -q '^gpucc: [0-9.]* s  device code for host' err"

# C from standard input reaches cc, which reads gpucc's standard input.
printf 'int main(void) { return 7; }\n' >main.txt
rc=0; "$gpucc" -x c - -o from_stdin <main.txt 2>err || rc=$?
st=0; ./from_stdin || st=$?
check stdin_c sh -c "test $rc -eq 0 && test $st -eq 7"
check no_temps test -z "$(ls -A "$work/tmp")"

checks_done
