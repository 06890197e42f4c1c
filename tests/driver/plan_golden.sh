#!/bin/sh
# The job plan, tested without running a tool: `gpucc -###` for a few
# command lines against golden lists beside this script (plans/*.plan), and a
# fake ptxas that records its arguments. Glue around gpucc.
# Usage: plan_golden.sh GPUCC FATBIN_TOOL PROGRAM.mlir PLANS_DIR
# With GPUCC_UPDATE_GOLDEN=1 the golden lists are rewritten instead.
set -eu
gpucc=$1 fatbin=$2 prog=$3 plans=$4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/tmp" "$work/cuda" "$work/cuda/bin" "$work/nocuda"
export TMPDIR="$work/tmp" GPUCC_CACHE_DIR="$work/cache"
fails=0

# A CUDA "toolkit" whose ptxas says it is CUDA 12.8, logs its arguments and
# writes a "cubin" that is an ELF header for EM_CUDA, sm_90, and the PTX
# (gpucc checks that a cubin is such an ELF file before bundling it).
cat >"$work/cuda/bin/ptxas" <<'PTXAS'
#!/bin/sh
if [ "$1" = --version ]; then echo "Cuda compilation tools, release 12.8, V12.8.93"; exit 0; fi
echo "$*" >>"$FAKE_PTXAS_LOG"
out= in=
while [ $# -gt 0 ]; do
  case $1 in -o) out=$2; shift ;; *.ptx) in=$1 ;; esac
  shift
done
{
  printf '\177ELF\002\001\001\000\000\000\000\000\000\000\000\000\002\000\276\000\001\000\000\000'
  head -c 24 /dev/zero
  printf '\004\132\000\006'
  head -c 12 /dev/zero
  cat "$in"
} >"$out"
PTXAS
chmod +x "$work/cuda/bin/ptxas"
export FAKE_PTXAS_LOG="$work/ptxas.log"

# The same paths on every machine: the session directory, the fake
# toolkit, the runtime's directory, compiler-rt's builtins, the program.
normalize() {
  sed -e "s|$work/tmp/gpucc-[A-Za-z0-9]*|\$TMP|g" -e "s|$work/cuda|\$CUDA|g" -e "s|$work/nocuda|\$NOCUDA|g" \
      -e "s|^[^ ]*/\([^ /]*\) -cc1 |\1 -cc1 |" \
      -e "s|-L[^ ]*/lib |-L\$LIB |; s|-Wl,-rpath,[^ ]*/lib |-Wl,-rpath,\$LIB |" \
      -e "s| [^ ]*/lib/libgpucc_rt\.a | \$LIB/libgpucc_rt.a |" \
      -e "s| [^ ]*/libclang_rt\.builtins[^ ]*\.a | \$BUILTINS |" \
      -e "s|$(dirname "$prog")/||g"
}

# plan NAME ARGS...: the -### list of `gpucc ARGS` against plans/NAME.plan.
plan() {
  name=$1
  shift
  (cd "$work" && "$gpucc" -### "$@" 2>"$work/err") | normalize >"$work/$name.plan"
  if [ "${GPUCC_UPDATE_GOLDEN:-}" = 1 ]; then
    cp "$work/$name.plan" "$plans/$name.plan"
    echo "updated $name"
  elif diff -u "$plans/$name.plan" "$work/$name.plan"; then
    echo "ok   $name"
  else
    echo "FAIL $name (gpucc said: $(head -c 300 "$work/err"))" >&2
    fails=$((fails + 1))
  fi
}

plan default   --cuda-path="$work/cuda" "$prog" -o app
plan compile   --cuda-path="$work/cuda" --offload-arch=sm_90,gfx942 -c "$prog" -o k.o
plan no_ptxas  --cuda-path="$work/nocuda" --offload-arch=sm_80,host "$prog" -o app
plan debug     --cuda-path="$work/cuda" --offload-arch=sm_90 -g -O3 -Xptxas -v "$prog" -o app
plan emit_ptx  --cuda-path="$work/cuda" --offload-arch=sm_80,sm_90 --emit=ptx "$prog"
plan shared    --cuda-path="$work/cuda" --offload-arch=gfx90a,host -shared "$prog" -o libk.so

# The fake ptxas really runs: its arguments are the plan's, its output is
# bundled as the cubin.
(cd "$work" && "$gpucc" --cuda-path="$work/cuda" --offload-arch=sm_90 -g -Xptxas -v -c "$prog" -o real.o 2>"$work/err") ||
  { cat "$work/err" >&2; fails=$((fails + 1)); }
if grep -q "^-arch sm_90 -O3 -lineinfo -v .*\.ptx -o .*\.cubin$" "$FAKE_PTXAS_LOG" 2>/dev/null; then
  echo "ok   ptxas_args"
else
  echo "FAIL ptxas_args: $(cat "$FAKE_PTXAS_LOG" 2>/dev/null)" >&2
  fails=$((fails + 1))
fi
if "$fatbin" list "$work/real.o" 2>/dev/null | grep -Eq ' nvidia +sm_90 +cubin '; then
  echo "ok   ptxas_bundled"
else
  echo "FAIL ptxas_bundled" >&2
  fails=$((fails + 1))
fi
[ -z "$(ls -A "$work/tmp")" ] || { echo "FAIL temp files left: $(ls "$work/tmp")" >&2; fails=$((fails + 1)); }

[ "$fails" -eq 0 ] || { echo "$fails check(s) failed" >&2; exit 1; }
