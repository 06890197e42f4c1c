#!/bin/sh
# The matrix instructions are in the device code of a gpu.subgroup_mma
# program (glue around real tools):
#   isa_check.sh GPUCC OBJDUMP PROGRAM.mlir TARGETS
# For each of the comma-separated TARGETS: PTX for sm_XX must hold
# wmma.load, wmma.mma and wmma.store; an hsaco for gfx11xx (RDNA3) or
# gfx12xx (RDNA4) v_wmma instructions, for gfx908 and later gfx9 (CDNA)
# v_mfma ones, for the chips without a matrix unit (gfx900, gfx906,
# gfx1030) the lane shuffles of gpucc's own product (ds_bpermute_b32, at
# least the 144 of one 16x16x16 product) and no matrix instruction, and
# each instruction a line `// ISA <chip>: <insn>...` of the program names
# for that chip; no AMD kernel spills registers to scratch (the fragments
# stay in registers: vgpr_spill_count 0 in the code object's metadata);
# the host target (no matrix unit: whole matrices, moved by the subgroup's
# first lane) compiles it.
set -eu
gpucc=$1 objdump=$2 prog=$3 targets=$4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export GPUCC_CACHE_DIR="$work/cache"
fail() { echo "FAIL: $*" >&2; exit 1; }
name=$(basename "$prog" .mlir)
readelf=$(dirname "$objdump")/llvm-readelf
cd "$work"
for t in $(echo "$targets" | tr , ' '); do
  case $t in
  sm_*)
    "$gpucc" --emit=ptx --offload-arch="$t" "$prog" || fail "gpucc --emit=ptx for $t failed"
    ptx=$(ls "$name"-*-"$t".ptx)
    for insn in wmma.load.a wmma.load.b wmma.mma wmma.store.d; do
      grep -q "$insn" "$ptx" || fail "$ptx: no $insn"
    done ;;
  gfx*)
    "$gpucc" --emit=hsaco --offload-arch="$t" "$prog" || fail "gpucc --emit=hsaco for $t failed"
    obj=$(ls "$name"-*-"$t".hsaco)
    "$objdump" -d --mcpu="$t" "$obj" >"$t.s" || fail "llvm-objdump failed on $obj"
    case $t in
    gfx900 | gfx906 | gfx1030)
      insn=ds_bpermute_b32
      if grep -q "v_mfma_\|v_wmma_" "$t.s"; then fail "$obj: a matrix instruction on a chip without one"; fi
      [ "$(grep -c ds_bpermute_b32 "$t.s")" -ge 144 ] ||
        fail "$obj: $(grep -c ds_bpermute_b32 "$t.s") ds_bpermute_b32, fewer than one product's 144" ;;
    gfx9*) insn=v_mfma_ ;;
    *) insn=v_wmma_ ;;
    esac
    grep -q "$insn" "$t.s" || fail "$obj: no $insn instruction"
    for want in $(sed -n "s|^// ISA $t: ||p" "$prog"); do
      grep -q "[[:space:]]$want[[:space:]]" "$t.s" || fail "$obj: no $want instruction"
    done
    "$readelf" --notes "$obj" >"$t.notes" || fail "llvm-readelf failed on $obj"
    grep -q "vgpr_spill_count" "$t.notes" || fail "$obj: no spill counts in its metadata"
    if grep "_spill_count:" "$t.notes" | grep -qv ":[[:space:]]*0\$"; then
      fail "$obj: registers spilled to scratch: $(grep _spill_count: "$t.notes" | tr -s ' \n' ' ')"
    fi ;;
  host)
    "$gpucc" -c --offload-arch=host "$prog" -o host.o || fail "gpucc -c for the host failed" ;;
  esac
done
echo "ok: $name"
