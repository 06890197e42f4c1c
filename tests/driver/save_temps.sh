#!/bin/sh
# Intermediate files, gcc's way and gpucc's: -save-temps copies them into
# the current directory with gcc-style names (<output>-<gpu.module>-<target>
# and so on), -save-temps=obj beside the output, -c names them after the
# object; --save-temps keeps the temp directory and prints where it is.
# Also -o naming a directory: an error that names it, exit 1, nothing made.
# Usage: save_temps.sh GPUCC PROGRAM.mlir
set -eu
gpucc=$1 prog=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/tmp" "$work/run"
export TMPDIR="$work/tmp"
export GPUCC_CACHE_DIR="$work/cache"
cd "$work/run"
. "$(dirname "$0")/../lib/check.sh"
no_temps() { [ -z "$(ls -A "$work/tmp")" ]; }
only() { # only FILE...: the current directory holds exactly these
  [ "$(ls -A | sort | tr '\n' ' ')" = "$(printf '%s\n' "$@" | sort | tr '\n' ' ')" ]
}
cp "$prog" prog.mlir

# -save-temps: every intermediate, named after the output, gpu.module and
# target, in the current directory; the temp directory goes as usual.
"$gpucc" -save-temps --offload-arch=host,gfx90a prog.mlir -o app 2>err
check gcc_names only app err prog.mlir app.normalized.mlir app.host.o app-kernels-host.o app-kernels-host.so \
  app-kernels-gfx90a.hsaco app-kernels.gpucc-fatbin app-kernels.fatbin.o
check gcc_no_temp_dir no_temps
check gcc_says_nothing test ! -s err
check gcc_hsaco_is_elf sh -c "head -c 4 app-kernels-gfx90a.hsaco | grep -q ELF"
rm -f app*

# the same from the cache (device code fetched, not compiled)
"$gpucc" -save-temps --offload-arch=host prog.mlir -o app 2>err
check gcc_from_cache test -s app-kernels-host.so
rm -f app*

# -save-temps=cwd is -save-temps
"$gpucc" -save-temps=cwd --offload-arch=host prog.mlir -o app 2>err
check gcc_cwd test -s app-kernels-host.o
rm -f app*

# -save-temps=obj: beside the output, named after it
mkdir out
"$gpucc" -save-temps=obj --offload-arch=host prog.mlir -o out/bin 2>err
check obj_dir sh -c "test -s out/bin-kernels-host.so && test -s out/bin.host.o && ! ls | grep -q '^bin'"
rm -rf out

# -c: named after the object (its name without .o)
"$gpucc" -save-temps -c --offload-arch=host prog.mlir 2>err
check compile_names sh -c "test -s prog.o && test -s prog-kernels-host.o && test -s prog.host.o"
rm -f prog.o prog-* prog.host.o
"$gpucc" -save-temps -c --offload-arch=host prog.mlir -o k.o 2>err
check compile_o_names sh -c "test -s k.o && test -s k-kernels-host.so && test -s k.host.o"
rm -f k.o k-* k.host.o

# two MLIR inputs: with -c each named after its object; linked,
# <output>-<input>-<gpu.module>-<target>
cat >extra.mlir <<'MLIR'
module attributes {gpu.container_module} {
  gpu.module @more {
    gpu.func @k() kernel { gpu.return }
  }
}
MLIR
"$gpucc" -save-temps --offload-arch=host prog.mlir extra.mlir -c 2>err
check two_inputs_c sh -c "test -s extra-more-host.o && test -s prog-kernels-host.o && test -s extra.o"
rm -f extra-* extra.o extra.host.o prog-* prog.o prog.host.o
"$gpucc" -save-temps --offload-arch=host prog.mlir extra.mlir -o both 2>err
check two_inputs_link sh -c "test -x both && test -s both-extra-more-host.o && test -s both-prog-kernels-host.o && test -s both-prog.host.o"
rm -f both* extra.mlir

# a failed build keeps its intermediates too (as gcc), and writes no output
rc=0; "$gpucc" -save-temps --offload-arch=host prog.mlir -o bad -lgpucc_no_such_library 2>err || rc=$?
check failed_no_output sh -c "test $rc -eq 1 && test ! -e bad && test -s bad-kernels-host.so"
rm -f bad*

# --save-temps: unchanged, the temp directory kept and named
"$gpucc" --save-temps --offload-arch=host prog.mlir -o app 2>err
dir=$(sed -n "s/^gpucc: intermediate files kept in '\(.*\)'$/\1/p" err)
check keep_dir sh -c "test -n '$dir' && ls '$dir' | grep -q 'kernels-host\.so$'"
check keep_not_here sh -c "! ls | grep -q 'app-'"
rm -rf "$dir" app err

# -o a directory: said with its name, exit 1, nothing left anywhere
mkdir outdir
rc=0; "$gpucc" --offload-arch=host prog.mlir -o outdir 2>err || rc=$?
check o_dir_status test "$rc" -eq 1
check o_dir_message grep -q "^gpucc: error: cannot write the output 'outdir': it is a directory$" err
check o_dir_no_litter sh -c "test -z \"\$(ls -A outdir)\" && ! ls | grep -q tmp- && test -z \"\$(ls -A '$work/tmp')\""
rc=0; "$gpucc" -c --offload-arch=host prog.mlir -o outdir 2>err || rc=$?
check o_dir_compile sh -c "test $rc -eq 1 && grep -q \"'outdir': it is a directory\" err"
rc=0; "$gpucc" -c -MD -MF outdir --offload-arch=host prog.mlir 2>err || rc=$?
check mf_dir sh -c "test $rc -eq 1 && grep -q \"depfile 'outdir': it is a directory\" err && test ! -e prog.o"
check no_temps_at_end no_temps

checks_done
