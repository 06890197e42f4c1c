#!/bin/sh
# Names of any length (issue 13): a kernel and a gpu.module with names of
# the given lengths compile for sm_90, gfx942 and host, the executable's fat
# binary lists and verifies them, and the program runs on the CPU backend
# (which looks the kernel's entry points up by its whole name).
#   long_names.sh GPUCC FATBIN_TOOL PROGRAM.mlir.in MODULE_LEN KERNEL_LEN
set -eu
gpucc=$1 fatbin=$2 template=$3 modlen=$4 kernlen=$5

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/tmp"
export GPUCC_CACHE_DIR="$work/cache" TMPDIR="$work/tmp"
fail() { echo "FAIL: $*" >&2; exit 1; }

name() { printf "%${2}s" "" | tr ' ' "$1"; } # name CHAR LEN
module=M$(name m $((modlen - 1)))
kernel=K$(name k $((kernlen - 1)))
sed "s/@MODULE/@$module/g; s/@KERNEL/@$kernel/g" "$template" >"$work/p.mlir"

"$gpucc" --offload-arch=sm_90,gfx942,host "$work/p.mlir" -o "$work/app" 2>"$work/err" || {
  cut -c1-400 "$work/err" >&2
  fail "gpucc failed"
}
# One object per target (cubin only with ptxas), each under the whole name.
"$fatbin" list "$work/app" | tail -n +2 | awk '{print $1, $3, $4}' | sort >"$work/got"
{
  grep -q "no ptxas found" "$work/err" || echo "$module sm_90 cubin"
  echo "$module sm_90 ptx"
  echo "$module gfx942 hsaco"
  echo "$module host so"
} | sort >"$work/want"
diff "$work/want" "$work/got" >/dev/null || {
  cut -c1-200 "$work/got" >&2
  fail "listing differs"
}
"$fatbin" verify "$work/app" >/dev/null || fail "gpucc-fatbin verify failed"

GPUCC_BACKEND=host "$work/app" >"$work/out" 2>"$work/run.err" || {
  cut -c1-400 "$work/run.err" >&2
  fail "the program failed"
}
printf '999000\n999000\n' | diff - "$work/out" || fail "wrong output"
echo "ok: module of $modlen, kernel of $kernlen characters"
