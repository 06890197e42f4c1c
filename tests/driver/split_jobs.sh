#!/bin/sh
# A target's gpu.modules are split over device jobs so that they use every
# core (-j): the jobs cover each module once, in order, the objects do not
# depend on the split, and a failure in one job still fails the build.
# Usage: split_jobs.sh GPUCC FOUR_MODULES.mlir
set -eu
gpucc=$1 prog=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/tmp"
export TMPDIR="$work/tmp"
export GPUCC_CACHE_DIR= # every build really compiles
cd "$work"
fails=0
check() { # check NAME CONDITION-COMMAND...
  name=$1
  shift
  if "$@"; then echo "ok   $name"; else echo "FAIL $name" >&2; fails=$((fails + 1)); fi
}
# The modules each device job writes, as "m0 m1" per line.
device_jobs() {
  grep -- " -cc1 device --offload-arch=$1 " out | sed 's/.*normalized\.mlir//; s/ -o / /g' |
    sed -E 's/[^ ]*-(m[0-9]+)-[^ ]*/\1/g; s/^ //'
}

# -j 2, one target: two jobs of two modules each, in order.
"$gpucc" -### -j 2 --offload-arch=host "$prog" -o app >out 2>err
check two_jobs_host test "$(device_jobs host | tr '\n' '|')" = "m0 m1|m2 m3|"
# -j 1: one job; -j 8: never fewer than two modules a job.
"$gpucc" -### -j 1 --offload-arch=host "$prog" -o app >out 2>err
check one_job test "$(device_jobs host | tr '\n' '|')" = "m0 m1 m2 m3|"
"$gpucc" -### -j 8 --offload-arch=host "$prog" -o app >out 2>err
check two_modules_a_job test "$(device_jobs host | wc -l)" -eq 2
# -j 4 over two targets: the cores are shared among them.
"$gpucc" -### -j 4 --offload-arch=host,gfx942 "$prog" -o app >out 2>err
check shared_host test "$(device_jobs host | wc -l)" -eq 2
check shared_gfx942 test "$(device_jobs gfx942 | wc -l)" -eq 2
"$gpucc" -### -j 2 --offload-arch=host,gfx942 "$prog" -o app >out 2>err
check one_each test "$(device_jobs host | wc -l)$(device_jobs gfx942 | wc -l)" = 11

# The same object whichever way the modules were split, for every kind.
flags="--offload-arch=sm_90,gfx942,host -c"
"$gpucc" $flags -j 1 "$prog" -o one.o 2>err
"$gpucc" $flags -j 6 "$prog" -o six.o 2>err
check identical_objects cmp one.o six.o

# The program built from split jobs runs every module's kernel.
"$gpucc" -j 2 --offload-arch=host "$prog" -o app 2>err
GPUCC_BACKEND=host ./app >run.out
check runs grep -q '^\[1111,  1111,  1111,  1111,  1111,  1111,  1111,  1111\]$' run.out

# A device job that crashes (planted) fails the build with one report, its
# partner is ended, and nothing is left behind but the one reproducer.
rc=0
GPUCC_TEST_CRASH=device "$gpucc" -j 2 --offload-arch=host "$prog" -o bad 2>err || rc=$?
check crash_exit_70 test "$rc" -eq 70
check crash_one_report test "$(grep -c 'internal error' err)" -eq 1
check crash_no_output test ! -e bad
check crash_only_reproducer test "$(ls "$work/tmp" | grep -vc '^gpucc-crash-')" -eq 0

[ "$fails" -eq 0 ] && echo "all split-job checks passed"
exit "$fails"
