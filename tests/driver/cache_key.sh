#!/bin/sh
# Each kind's cache key holds what changes its objects (struct target_kind's
# cache_inputs): one input changed, the kind's code is compiled again; none
# changed, it comes from the cache. AMD: the device libraries (another
# file, a changed file, none); NVIDIA: the release ptxas reports (the same
# ptxas file), libdevice, -Xptxas; host: the cc along PATH (another one, a
# changed one). Tools and libraries are copies and wrappers in a temp dir.
# Usage: cache_key.sh GPUCC PROGRAM.mlir
set -eu
gpucc=$1 prog=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
export GPUCC_CACHE_DIR="$work/cache"
. "$(dirname "$0")/../lib/check.sh"
cp "$prog" p.mlir

# build LOG TARGET [OPTIONS...]: device code of one target, as -v tells it
# (and its exit status, in LOG.rc).
build() {
  log=$1 arch=$2
  shift 2
  rc=0
  "$gpucc" -v -c --device-only --offload-arch="$arch" "$@" p.mlir -o out.o >"$log" 2>&1 || rc=$?
  echo "$rc" >"$log.rc"
}
# miss LOG TARGET: compiled, not fetched; and built, unless a third argument
# says a failure may be fine (no device libraries at all).
miss() {
  grep -q "cache: miss: device code for $2:" "$1" && ! grep -q "cached device code for $2:" "$1" &&
    { [ $# -gt 2 ] || [ "$(cat "$1.rc")" -eq 0 ]; }
}
hit() {
  grep -q "cache: hit (local): cached device code for $2:" "$1" && ! grep -q "cache: miss" "$1" &&
    [ "$(cat "$1.rc")" -eq 0 ]
}

# AMD: a directory of links to the device libraries, then one link made a
# copy (another file), then that copy changed, then no libraries.
bitcode=
for d in /usr/lib/x86_64-linux-gnu/amdgcn/bitcode /opt/rocm/amdgcn/bitcode; do
  [ -d "$d" ] && bitcode=$d && break
done
if [ -n "$bitcode" ]; then
  mkdir -p rocm/amdgcn/bitcode empty/amdgcn/bitcode
  for f in "$bitcode"/*.bc; do ln -s "$f" rocm/amdgcn/bitcode/; done
  build a1 gfx90a --rocm-path=rocm
  check amd_first_miss miss a1 gfx90a
  build a2 gfx90a --rocm-path=rocm
  check amd_same_libraries_hit hit a2 gfx90a
  one=$(ls rocm/amdgcn/bitcode/*.bc | head -n 1)
  rm "$one" && cp "$bitcode/$(basename "$one")" "$one"
  build a3 gfx90a --rocm-path=rocm
  check amd_other_library_file_miss miss a3 gfx90a
  build a4 gfx90a --rocm-path=rocm
  check amd_other_library_file_then_hit hit a4 gfx90a
  touch -d '2001-02-03 04:05:06' "$one"
  build a5 gfx90a --rocm-path=rocm
  check amd_changed_library_miss miss a5 gfx90a
  build a6 gfx90a --rocm-path=empty
  check amd_no_libraries_miss miss a6 gfx90a may-fail
else
  echo "skip amd_*: no AMD device libraries on this machine"
fi

# NVIDIA: a toolkit whose ptxas is a wrapper around the real one that
# reports the release written in a file beside it, and a copy of libdevice.
cuda=
for d in "${CUDA_PATH:-}" /usr/local/cuda; do
  [ -n "$d" ] && [ -x "$d/bin/ptxas" ] && cuda=$d && break
done
if [ -n "$cuda" ]; then
  mkdir -p fake/bin fake/nvvm/libdevice
  echo 12.8 >fake/release
  cat >fake/bin/ptxas <<EOF2
#!/bin/sh
if [ "\$1" = --version ]; then
  echo "Cuda compilation tools, release \$(cat '$work/fake/release'), V0.0.0"
  exit 0
fi
exec '$cuda/bin/ptxas' "\$@"
EOF2
  chmod +x fake/bin/ptxas
  lib=$cuda/nvvm/libdevice/libdevice.10.bc
  [ -f "$lib" ] && cp "$lib" fake/nvvm/libdevice/
  build n1 sm_90 --cuda-path=fake
  check nvidia_first_miss miss n1 sm_90
  build n2 sm_90 --cuda-path=fake
  check nvidia_same_toolkit_hit hit n2 sm_90
  echo 12.9 >fake/release
  build n3 sm_90 --cuda-path=fake
  check nvidia_ptxas_release_miss miss n3 sm_90
  build n4 sm_90 --cuda-path=fake
  check nvidia_ptxas_release_then_hit hit n4 sm_90
  if [ -f "$lib" ]; then
    touch -d '2001-02-03 04:05:06' fake/nvvm/libdevice/libdevice.10.bc
    build n5 sm_90 --cuda-path=fake
    check nvidia_changed_libdevice_miss miss n5 sm_90
  fi
  build n6 sm_90 --cuda-path=fake -Xptxas -O2
  check nvidia_Xptxas_miss miss n6 sm_90
  build n7 sm_90 --cuda-path=fake -Xptxas -O2
  check nvidia_Xptxas_then_hit hit n7 sm_90
else
  echo "skip nvidia_*: no ptxas on this machine"
fi

# Host: the C compiler that links the kernels, found along PATH.
build h1 host
check host_first_miss miss h1 host
build h2 host
check host_same_cc_hit hit h2 host
mkdir wrap
printf '#!/bin/sh\nexec %s "$@"\n' "$(command -v cc)" >wrap/cc
chmod +x wrap/cc
PATH="$work/wrap:$PATH" build h3 host
check host_other_cc_miss miss h3 host
PATH="$work/wrap:$PATH" build h4 host
check host_other_cc_then_hit hit h4 host
touch -d '2001-02-03 04:05:06' wrap/cc
PATH="$work/wrap:$PATH" build h5 host
check host_changed_cc_miss miss h5 host
checks_done
