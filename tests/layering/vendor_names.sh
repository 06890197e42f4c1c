#!/bin/sh
# vendor_names.sh SRC CC: no vendor knowledge in shared code. A target kind
# is its row and its own files, a runtime backend its row and its files
# (docs/architecture.md, "A target is a row"); everything else (driver/,
# frontend/, ir/, support/, fatbin/ but its vendor tables, lowering/ but
# the kinds' files, runtime/ but the backends' files) names no vendor, its
# dialects or its tools outside comments. CC strips the comments
# (-fpreprocessed -E keeps code and strings, drops comments and nothing
# else). Lists each line found and exits 1 when there is one.
set -eu
src=$1 cc=$2
words='nvvm|rocdl|nvgpu|amdgpu|NVIDIA|AMD|ptxas|hsaco|cubin|spirv|Vulkan'
whole_words='CUDA|HIP' # as words: not FOR_EACH_CHIP
# A kind's own files, by name: its row (target_*), its toolchain, its
# device rewrites, the host target's backend (lowering/host/); and the
# fat-binary format's vendor and format tables (the format defines those
# ids: fatbin.h's enums, each vendor's checks and notes) and the manual of
# gpucc-fatbin, which inspects them.
kind_file() {
  case $1 in
  lowering/target_* | lowering/native_nvidia* | lowering/native_amd* | lowering/toolchain_cuda* | lowering/toolchain_rocm* | lowering/device_amd_* | \
    lowering/device_nvidia_* | lowering/device_spirv* | lowering/device_mma_cdna* | lowering/device_wmma_* | \
    lowering/device_contract_wmma* | lowering/host/* | fatbin/fatbin_nvidia.c | fatbin/fatbin_amd.c | \
    fatbin/fatbin_vulkan.c | fatbin/fatbin_host.c | fatbin/fatbin.h | fatbin/fatbin_private.h | \
    fatbin/fatbin_notes.c | fatbin/gpucc_fatbin_main.c) return 0 ;;
  # The runtime's backends and their lists (runtime/sparse/, the vendors'
  # sparse libraries, is not read: it is bindings throughout).
  runtime/backend.h | runtime/select.c | runtime/select.h) return 1 ;;
  runtime/backend_* | runtime/select_* | runtime/vulkan_* | runtime/spirv_reflect*) return 0 ;;
  esac
  return 1
}
cd "$src"
found=0 checked=0
for f in driver/*.[ch] frontend/*.[ch] ir/*.[ch] support/*.[ch] fatbin/*.[ch] lowering/*.[ch] lowering/host/*.[ch] \
  runtime/*.[ch] runtime/async/*.[ch] runtime/runner/*.[ch] abi/*.[ch]; do
  [ -f "$f" ] || continue
  kind_file "$f" && continue
  checked=$((checked + 1))
  code=$("$cc" -fpreprocessed -dD -E -P -x c "$f" 2>/dev/null)
  hits=$(printf '%s\n' "$code" | grep -nE -e "$words" -e "\\b($whole_words)\\b" || true)
  if [ -n "$hits" ]; then
    echo "$hits" | sed "s|^|$f: |" >&2
    found=1
  fi
done
[ "$checked" -gt 50 ] || { echo "only $checked shared files checked: is '$src' the source tree?" >&2; exit 1; }
[ "$found" -eq 0 ] || { echo "vendor names in shared code (above): they belong in a kind's row or files" >&2; exit 1; }
echo "$checked shared files name no vendor"
