#!/bin/sh
# exports.sh NM libgpucc_rt.a libgpucc_rt.so EXPORTS: the static runtime's
# global symbols are exactly the shared runtime's exports (the mgpu* ABI,
# the gpucc* API, the runner and async ABI): the runtime's internals
# (rt_*, fatbin_*, host_*...) and its copy of libzstd stay local, so a
# program may define such names itself, or link gpucc's fatbin library or
# another libzstd, without a clash. EXPORTS is the list the archive was
# made with (packaging/static_runtime.cmake).
set -eu
nm=$1 archive=$2 shared=$3 exports=$4
fail() { echo "FAIL: $*" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

"$nm" -D --defined-only "$shared" | awk 'NF == 3 { sub(/@.*/, "", $3); print $3 }' | sort -u >shared.txt
"$nm" --defined-only "$archive" | awk 'NF == 3 && $2 ~ /^[A-Z]$/ { print $3 }' | sort -u >static.txt
echo "libgpucc_rt.so exports $(wc -l <shared.txt), libgpucc_rt.a has $(wc -l <static.txt) global symbols"
diff -u shared.txt static.txt || fail "the archive's global symbols differ from the shared library's exports"
sort -u "$exports" | diff -u shared.txt - || fail "the export list differs from the shared library's"
# One object: its internal calls are resolved inside it.
members=$(ar t "$archive" | wc -l)
[ "$members" -eq 1 ] || fail "the archive holds $members members, not one object"
# Its undefined symbols are the C library's (deploy.needed links it), no
# vendor, libarchive or LLVM name among them. libzstd's tracing hooks are
# weak references that stay null unless a program defines them: allowed.
"$nm" -u "$archive" | awk 'NF == 2 { print $1, $2 }' >undefined.txt
if grep -E ' (cu|hip|ZSTD_|archive_|mlir|LLVM)' undefined.txt | grep -v -E '^w ZSTD_trace_'; then
  fail "the archive refers to symbols it should not need"
fi
echo "ok: the static runtime exports what the shared one does, nothing more"
