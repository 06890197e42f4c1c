#!/bin/sh
# gpucc-fatbin on what gpucc really builds:
#   tool_test.sh GPUCC GPUCC_FATBIN READELF E2E_DIR
# compiles e2e test programs for sm_80,sm_90,gfx90a,gfx942,host into an
# executable, a shared library, a relocatable object and (--save-temps) a
# bare blob, then checks list, info (kernel lines included), extract
# (objects and --archives, and an object taken out of the payload with the
# zstd tool and its dictionary, as docs/fatbin.md says) and verify on them,
# verify's failure on a damaged executable, and the exit codes of bad usage.
# Runs in a temporary directory removed on exit.
set -eu
gpucc=$1 tool=$2 readelf=$3 e2e=$4

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
mkdir tmp
fail() { echo "FAIL: $*" >&2; exit 1; }
archs=sm_80,sm_90,gfx90a,gfx942,host

TMPDIR="$work/tmp" "$gpucc" --save-temps --offload-arch=$archs "$e2e/dynamic.mlir" -o app \
  2>gpucc.err || { cat gpucc.err >&2; fail "gpucc failed"; }
"$gpucc" --offload-arch=$archs -shared "$e2e/dynamic.mlir" -o lib.so 2>/dev/null ||
  fail "gpucc -shared failed"
"$gpucc" --offload-arch=$archs -c "$e2e/two_modules.mlir" -o two.o 2>/dev/null ||
  fail "gpucc -c failed"
blob=$(ls tmp/gpucc-*/*.gpucc-fatbin | head -n 1)
[ -f "$blob" ] || fail "no kept blob"
cubins=yes
grep -q "no ptxas found" gpucc.err && cubins=no

# list: header, one row per object, first four columns as scripts read them
"$tool" list app >list.out || fail "list app"
head -n 1 list.out | grep -q '^MODULE  *VENDOR  *TARGET  *FORMAT  *SIZE  *STORED$' ||
  fail "list header: $(head -n 1 list.out)"
tail -n +2 list.out | awk '{print $1, $2, $3, $4}' | sort >got
{
  [ $cubins = yes ] && printf 'kernels nvidia sm_80 cubin\nkernels nvidia sm_90 cubin\n'
  printf 'kernels amd gfx90a hsaco\nkernels amd gfx942 hsaco\nkernels host host so\n'
  printf 'kernels nvidia sm_80 ptx\nkernels nvidia sm_90 ptx\n'
} | sort >want
cmp -s want got || { diff want got >&2; fail "list rows"; }
# one of gfx90a and gfx942 is stored as the difference to the other: a small
# fraction of its size
awk '$4 == "hsaco" && $6 * 4 < $5 { found = 1 } END { exit !found }' list.out ||
  fail "no hsaco delta-compressed: $(cat list.out)"
for f in lib.so two.o "$blob"; do
  "$tool" list "$f" >l.out || fail "list $f"
  [ "$(tail -n +2 l.out | wc -l)" -ge 5 ] || fail "list $f: $(cat l.out)"
done
"$tool" list two.o | tail -n +2 | awk '{print $1}' | sort -u | tr '\n' ' ' | grep -q '^a b $' ||
  fail "two modules in two.o: $("$tool" list two.o)"
"$tool" list app two.o >both.out || fail "list two files"
grep -q '^app:$' both.out && grep -q '^two.o:$' both.out || fail "list headings"

# info: format, compression, and the hashes of what extract writes
"$tool" info app >info.out || fail "info"
grep -q '^  version      3$' info.out || fail "info version"
grep -q '^  compression  fast (zstd frames)$' info.out || fail "info compression"
grep -q '^  gpucc        [0-9]' info.out && grep -q '^  llvm         22' info.out &&
  grep -q '^  flags        -O3 -ffp-contract=fast\( \|$\)' info.out || fail "info metadata: $(head -n 8 info.out)"
grep -q '^    features   +ptx[0-9]*$' info.out || fail "info features"
grep -q '^    sha256     [0-9a-f]\{64\}$' info.out || fail "info sha256"
# the kernel line the driver recorded: twice has no known_block_size
sed -n '/^  kernel /,$p' info.out >kernel.out
printf '%s\n' '  kernel       twice' '    module     kernels' '    target     all' \
  '    threads    at most 1024 per block' '    block      any shape' \
  '    shared     0 bytes of its own' | cmp -s - kernel.out || fail "info kernel: $(cat kernel.out)"
"$tool" extract -o out app >extract.out || fail "extract"
[ "$(wc -l <extract.out)" -eq "$(($(wc -l <list.out) - 1))" ] || fail "extract printed"
for f in out/kernels/*; do
  sum=$(sha256sum "$f" | cut -d' ' -f1)
  grep -q "^    sha256     $sum\$" info.out || fail "$f: hash $sum not in info"
done
# the objects are the compiler's, byte for byte (PTX gets its NUL in the archive)
for f in tmp/gpucc-*/*.hsaco tmp/gpucc-*/*.cubin; do
  [ -e "$f" ] || continue
  t=$(basename "$f" | sed 's/.*-\([a-z0-9_]*\)\.\([a-z]*\)$/\1.\2/')
  cmp -s "$f" "out/kernels/$t" || fail "out/kernels/$t differs from $f"
done
if [ $cubins = yes ]; then
  "$readelf" -h out/kernels/sm_90.cubin | grep -q 'Flags:.*sm_90$' || fail "sm_90 cubin flags"
fi
"$readelf" -h out/kernels/gfx942.hsaco | grep -q 'Flags:.*gfx942' || fail "gfx942 flags"
"$tool" extract --output-dir=out2 two.o >/dev/null && [ -d out2/a ] && [ -d out2/b ] ||
  fail "extract two modules"

# two archives with the same module name: the second goes to kernels.2
cat "$blob" "$blob" >twice.blob
"$tool" extract -o dup twice.blob >/dev/null || fail "extract twice.blob"
[ -f dup/kernels/gfx90a.hsaco ] && [ -f dup/kernels.2/gfx90a.hsaco ] || fail "kernels.2"

# --archives: the payload, exactly; with the zstd tool, frame 0 is the
# manifest, and each object's frame decodes given its dictionary's content
# (both cut out of the payload where info says) to its tar member
"$tool" extract --archives -o arc app >arc.out || fail "extract --archives"
[ -f arc/kernels.tar.zst ] || fail "no arc/kernels.tar.zst: $(cat arc.out)"
off=$(sed -n 's/^archive 1 of .app. (offset \([0-9]*\), \([0-9]*\) bytes)$/\1 \2/p' info.out)
tail -c +$((${off% *} + 25)) app | head -c $((${off#* } - 24)) | cmp -s - arc/kernels.tar.zst ||
  fail "--archives is not the payload"
if command -v zstd >/dev/null; then
  cut_frame() { tail -c +$(($2 + 1)) "$1" | head -c "$3"; }
  zstd -dc arc/kernels.tar.zst 2>/dev/null | head -c 8 | grep -q '^MANIFEST' ||
    fail "frame 0 is not the manifest"
  # "stored 607 (frame 2, offset 512 of 4608)", "frame 2, payload offset
  # 1119, 607 bytes", "dictionary frame 1, payload offset 300, 819 bytes"
  awk '/^  object / { obj = $2 } /^    size / { size[obj] = $2 }
       /^    stored .*offset/ { off[obj] = $6 }
       /^    frame / { sub(/,/, "", $5); f[obj] = $5 " " $6 }
       /^    dictionary frame/ { sub(/,/, "", $6); d[obj] = $6 " " $7 }
       END { for (o in f) print o, size[o], off[o], f[o], (o in d) ? d[o] : "- -" }' \
    info.out >frames
  [ "$(wc -l <frames)" -ge 5 ] || fail "frames from info: $(cat frames)"
  grep -q ' [0-9]* [0-9]*$' frames || fail "no object has a dictionary: $(cat frames)"
  while read -r obj size off fpos flen dpos dlen; do
    : >dict
    if [ "$dpos" != - ]; then
      cut_frame arc/kernels.tar.zst "$dpos" "$dlen" | zstd -dq >dict || fail "dictionary of $obj"
    fi
    cut_frame arc/kernels.tar.zst "$fpos" "$flen" |
      if [ -s dict ]; then zstd -dq -D dict; else zstd -dq; fi >member || fail "zstd -d $obj"
    tail -c +$((off + 1)) member | head -c "$size" | cmp -s - "out/$obj" ||
      fail "zstd -d -D gives another $obj"
  done <frames
fi

# --fatbin-compress: each mode verifies and lists the same objects; none is
# a plain tar, size is no larger than fast
for mode in none size; do
  "$gpucc" --fatbin-compress=$mode --offload-arch=$archs "$e2e/dynamic.mlir" -o app.$mode \
    2>/dev/null || fail "gpucc --fatbin-compress=$mode"
  "$tool" list app.$mode | tail -n +2 | awk '{print $1, $2, $3, $4}' | sort >got.$mode
  cmp -s want got.$mode || fail "list of app.$mode"
  "$tool" verify app.$mode >/dev/null || fail "verify app.$mode"
done
"$tool" info app.none | grep -q '^  compression  none (stored)$' || fail "none is not stored"
fast=$(sed -n 's/^  objects .* archive \([0-9]*\) bytes.*/\1/p' info.out)
size=$("$tool" info app.size | sed -n 's/^  objects .* archive \([0-9]*\) bytes.*/\1/p')
[ "$size" -le "$fast" ] || fail "size mode ($size bytes) larger than fast ($fast)"

# verify: everything checks out, in every kind of file
for f in app lib.so two.o "$blob"; do
  "$tool" verify "$f" >v.out || { cat v.out >&2; fail "verify $f"; }
  ! grep -v ': ok$' v.out || fail "verify $f output"
done

# a damaged executable: a byte flipped inside the first archive's frames
off=$(sed -n 's/^archive 1 of .app. (offset \([0-9]*\),.*/\1/p' info.out)
[ -n "$off" ] || fail "no offset in info"
cp app bad
printf '\377' | dd of=bad bs=1 seek=$((off + 200)) conv=notrunc 2>/dev/null
set +e
"$tool" verify bad >v.out 2>v.err
rc=$?
"$tool" list bad >/dev/null 2>l.err
lrc=$?
set -e
[ $rc -eq 1 ] || fail "verify of a damaged file: exit $rc"
grep -q "^gpucc-fatbin: error: 'bad'" v.err || grep -q FAILED v.out ||
  fail "verify of a damaged file says: $(cat v.err v.out)"
[ $lrc -eq 1 ] || [ $lrc -eq 0 ] || fail "list of a damaged file: exit $lrc"

# usage and file errors
status() { set +e; "$@" >/dev/null 2>err; s=$?; set -e; echo $s; }
[ "$(status "$tool" list)" = 2 ] || fail "list without files"
[ "$(status "$tool" frobnicate app)" = 2 ] || fail "unknown command"
[ "$(status "$tool" list --bogus app)" = 2 ] || fail "unknown option"
[ "$(status "$tool")" = 2 ] || fail "no command"
[ "$(status "$tool" list missing)" = 1 ] && grep -q "cannot open 'missing'" err ||
  fail "missing file"
[ "$(status "$tool" verify out/kernels/host.so)" = 1 ] &&
  grep -q "contains no gpucc fat binary" err || fail "file without fat binary"
"$tool" --help | grep -q 'extract \[-o DIR\]' || fail "--help"
"$tool" verify --help | grep -q '^usage:' || fail "verify --help"
"$tool" --version | grep -q '^gpucc-fatbin [0-9]' || fail "--version"
echo "ok: gpucc-fatbin"
