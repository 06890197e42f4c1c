#!/bin/sh
# End-to-end check of one test program (glue around real tools):
#   compile_check.sh GPUCC FATBIN_TOOL READELF PROGRAM.mlir EXPECTED.list [EXTRA_INPUT...]
# 1. gpucc compiles PROGRAM for sm_80,sm_90,gfx90a,gfx942,host (or the list in
#    $E2E_ARCHS) into an executable;
# 2. the executable's fat binaries list exactly EXPECTED.list (module vendor
#    target format; cubin lines are dropped when no ptxas is installed);
# 3. every cubin's ELF header names its sm and every hsaco its gfx;
# 4. the executable runs with LD_BIND_NOW=1 (nothing undefined) on the CPU
#    (host backend) and prints exactly PROGRAM's .out file (memref addresses
#    masked), or, without a .out file, succeeds silently.
set -eu
gpucc=$1 fatbin=$2 readelf=$3 prog=$4 expected=$5
shift 5

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/tmp"
# A private device cache: tests must not read or fill the user's.
export GPUCC_CACHE_DIR="$work/cache"
fail() { echo "FAIL: $*" >&2; exit 1; }

TMPDIR="$work/tmp" "$gpucc" --save-temps --offload-arch="${E2E_ARCHS:-sm_80,sm_90,gfx90a,gfx942,host}" \
  "$prog" "$@" -o "$work/app" 2>"$work/gpucc.err" || {
  cat "$work/gpucc.err" >&2
  # math.* on NVIDIA needs CUDA's libdevice; a machine without the CUDA
  # toolkit cannot build this program for sm_XX at all: skipped, not failed.
  if grep -q "libdevice was not found" "$work/gpucc.err"; then echo "skipped: no CUDA toolkit"; exit 77; fi
  fail "gpucc failed"
}
[ -x "$work/app" ] || fail "no executable"

# 2. the listing
have_ptxas=no
grep -q "no ptxas found" "$work/gpucc.err" || have_ptxas=yes
if [ "$have_ptxas" = yes ]; then
  grep -v '^#' "$expected" | sed '/^$/d' | sort >"$work/want"
else
  grep -v '^#' "$expected" | sed '/^$/d' | grep -v ' cubin$' | sort >"$work/want"
fi
if [ -s "$work/want" ]; then
  "$fatbin" list "$work/app" >"$work/list" || fail "gpucc-fatbin list failed"
  tail -n +2 "$work/list" | awk '{print $1, $2, $3, $4}' | sort >"$work/got"
else
  # No gpu.module: the executable must carry no fat binary at all.
  if "$fatbin" list "$work/app" >"$work/list" 2>/dev/null; then
    fail "expected no fat binary, got: $(cat "$work/list")"
  fi
  : >"$work/got"
fi
diff -u "$work/want" "$work/got" || fail "listing differs from $expected"

# 3. ELF headers of the kept device objects
for f in "$work"/tmp/gpucc-*/*.cubin; do
  [ -e "$f" ] || continue
  sm=$(basename "$f" .cubin | sed 's/.*-\(sm_[0-9a-z]*\)$/\1/')
  "$readelf" -h "$f" >"$work/h"
  grep -q "Machine:.*NVIDIA CUDA" "$work/h" || fail "$f: not an NVIDIA ELF"
  grep -q "Flags:.*[, ]$sm\$" "$work/h" || fail "$f: e_flags do not name $sm: $(grep Flags "$work/h")"
done
for f in "$work"/tmp/gpucc-*/*.hsaco; do
  [ -e "$f" ] || continue
  gfx=$(basename "$f" .hsaco | sed 's/.*-\(gfx[0-9a-f]*\)[^-]*$/\1/')
  "$readelf" -h "$f" >"$work/h"
  grep -q "Machine:.*EM_AMDGPU" "$work/h" || fail "$f: not an AMDGPU ELF"
  grep -q "Flags:.*, $gfx\(,\|\$\)" "$work/h" || fail "$f: e_flags do not name $gfx: $(grep Flags "$work/h")"
done

# 4. it runs on the CPU, with every symbol bound at load time
set +e
GPUCC_BACKEND=host LD_BIND_NOW=1 "$work/app" >"$work/out" 2>"$work/err"
rc=$?
set -e
if grep -q "symbol lookup error\|undefined symbol\|error while loading shared libraries" "$work/err"; then
  cat "$work/err" >&2
  fail "unresolved symbols at load time"
fi
[ "$rc" -eq 0 ] || { cat "$work/err" >&2; fail "exit status $rc"; }
sed 's/base@ = 0x[0-9a-f]*/base@ = ADDR/' "$work/out" >"$work/out.masked"
want_out="${prog%.mlir}.out"
if [ -e "$want_out" ]; then
  diff -u "$want_out" "$work/out.masked" || fail "output differs from $want_out"
else
  [ ! -s "$work/out" ] || fail "unexpected output: $(head -c 200 "$work/out")"
fi
echo "ok: $(basename "$prog")"
