#!/bin/sh
# Names of any spelling (issue 22): a program with one gpu.module per line of
# spellings.list (program.awk) compiles for host, sm_90 and gfx942 with exit
# 0, and
#   - runs on the CPU backend with the right sums (each launch finds its own
#     kernel: no two names met);
#   - no file it makes (temp files kept by --save-temps, --emit outputs) has
#     a raw name in its name, and nothing lands outside the directories it
#     writes to (a module named "sym/../../etc" in a name would leave them);
#   - gpucc-fatbin shows every module and kernel as the program spells it;
#   - a launch the kernel cannot take stops the program with the runtime's
#     message naming the kernel as the program spells it.
#   - device functions that are not kernels are renamed with their calls
#     (FUNCS.mlir);
#   - a function declared under a name no object can carry is an error at
#     its declaration (EXTERN.mlir).
#   spellings.sh GPUCC FATBIN_TOOL SPELLINGS.list PROGRAM.awk FUNCS.mlir EXTERN.mlir
set -eu
gpucc=$1 fatbin=$2 list=$3 gen=$4 funcs=$5 ext=$6
case $gpucc in /*) ;; *) gpucc=$PWD/$gpucc ;; esac # the --emit runs cd

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/tmp" "$work/out" "$work/emit"
export GPUCC_CACHE_DIR="$work/out/cache" TMPDIR="$work/tmp"
fails=0
check() {
  what=$1
  shift
  if "$@"; then echo "ok   $what"; else echo "FAIL $what" >&2; fails=$((fails + 1)); fi
}
awk -v threads=4 -f "$gen" "$list" >"$work/out/p.mlir"
# Where "sym/../../etc" would lead if it were pasted into an --emit name as
# is: p-sym exists, so such a path would resolve, to outside emit/.
mkdir "$work/emit/p-sym"
touch "$work/stamp"

built=1
for target in host sm_90 gfx942; do
  if "$gpucc" --offload-arch=$target --save-temps "$work/out/p.mlir" -o "$work/out/app-$target" \
    >/dev/null 2>"$work/out/$target.err"; then
    echo "ok   builds for $target"
  else
    echo "FAIL builds for $target (exit $?)" >&2
    head -c 600 "$work/out/$target.err" >&2
    fails=$((fails + 1)) built=0
  fi
done
for stage in ptx cubin hsaco fatbin; do
  rc=0
  (cd "$work/emit" && "$gpucc" --offload-arch=sm_90,gfx942,host --emit=$stage ../out/p.mlir \
    2>"../out/emit-$stage.err") || rc=$?
  check "--emit=$stage (exit $rc)" test "$rc" -eq 0
done
[ "$built" -eq 1 ] || exit 1

# The sums: 6 + 4000 * i for module i.
n=$(grep -vc '^#' "$list")
awk -v n="$n" 'BEGIN { for (i = 0; i < n; i++) print 6 + 4000 * i }' >"$work/out/want"
GPUCC_BACKEND=host "$work/out/app-host" >"$work/out/got" 2>"$work/out/run.err" || true
check "runs on the CPU with the right output" cmp -s "$work/out/want" "$work/out/got"
cmp -s "$work/out/want" "$work/out/got" || head -c 600 "$work/out/run.err" >&2

# Every file's name: letters, digits and the few marks gpucc puts between
# them, nothing of the names' own (/, %, spaces, quotes, UTF-8, ...).
find "$work/tmp" "$work/emit" -newer "$work/stamp" | sed "s|^$work/||" >"$work/out/made"
LC_ALL=C grep -v '^[A-Za-z0-9_.~:+/-]*$' "$work/out/made" >"$work/out/odd" || true
check "file names hold no raw name" test ! -s "$work/out/odd"
head -5 "$work/out/odd" >&2
check "temp files were kept" grep -q '^tmp/gpucc-[^/]*/.*host\.so$' "$work/out/made"
check "--emit wrote one .ptx per module" test "$(grep -c '^emit/[^/]*\.ptx$' "$work/out/made")" -eq "$n"
check "nothing through emit/p-sym" test -z "$(ls -A "$work/emit/p-sym")"
find "$work" -newer "$work/stamp" ! -path "$work/tmp*" ! -path "$work/emit*" ! -path "$work/out*" \
  ! -path "$work" >"$work/out/outside"
check "nothing written elsewhere" test ! -s "$work/out/outside"

# gpucc-fatbin shows the program's spellings, modules and kernels.
"$fatbin" info "$work/out/app-sm_90" "$work/out/app-gfx942" "$work/out/app-host" >"$work/out/info"
grep -v '^#' "$list" | while IFS='	' read -r module kernel; do
  grep -qxF "    module     $module" "$work/out/info" || echo "module $module"
  grep -qxF "  kernel       $kernel" "$work/out/info" || echo "kernel $kernel"
done >"$work/out/unshown"
check "gpucc-fatbin shows each name as written" test ! -s "$work/out/unshown"
head -5 "$work/out/unshown" >&2

# A launch with too many threads: the runtime names the kernel as written.
printf '"sym/../../etc"\t"my k\\0Aq\\22"\n' >"$work/out/one.list"
awk -v threads=2048 -f "$gen" "$work/out/one.list" >"$work/out/big.mlir"
"$gpucc" --offload-arch=sm_90,host "$work/out/big.mlir" -o "$work/out/big" 2>"$work/out/big.err"
rc=0
GPUCC_BACKEND=host "$work/out/big" >/dev/null 2>"$work/out/big.run" || rc=$?
check "too many threads: exit 1" test "$rc" -eq 1
printf '%s\n' "gpucc: runtime error: mgpuLaunchKernel: kernel 'my k\\0Aq\"' launched with 2048 threads per block; it was compiled for at most 1024 (sm_90)" >"$work/out/want.run"
check "the runtime names the kernel as written" diff -u "$work/out/want.run" "$work/out/big.run"
# Device functions that are not kernels are renamed with their calls.
rc=0
"$gpucc" --offload-arch=sm_90,gfx942,host "$funcs" -o "$work/out/funcs" 2>"$work/out/funcs.err" || rc=$?
check "device functions: builds (exit $rc)" test "$rc" -eq 0
if [ "$rc" -eq 0 ]; then
  GPUCC_BACKEND=host "$work/out/funcs" >"$work/out/funcs.out" 2>&1 || true
  check "device functions: right output" test "$(cat "$work/out/funcs.out")" = 8
fi

# A declared function keeps its name, which no object may carry: one error
# at the declaration, exit 1, no crash (exit 70).
rc=0
# (-fno-caret-diagnostics: the message alone, without its source line.)
"$gpucc" -fno-caret-diagnostics --offload-arch=sm_90,gfx942,host "$ext" -o "$work/out/ext" 2>"$work/out/ext.err" || rc=$?
check "unrepresentable declaration: exit 1" test "$rc" -eq 1
printf '%s\n' "$ext:6:5: error: no device object can carry the name of the external function @\"my ext\"; declare it by a name of letters, digits and '_'" >"$work/out/want.ext"
check "unrepresentable declaration: located error" diff -u "$work/out/want.ext" "$work/out/ext.err"
[ "$fails" -eq 0 ]
